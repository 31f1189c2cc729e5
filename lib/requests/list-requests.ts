import { isEvmAddress, isTronAddress, toChecksumAddress } from "@/lib/chain/address";
import { db } from "@/lib/db";
import { invalidField } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { invoiceViewsForRequests } from "@/lib/invoices/view";
import { toRequestStatus } from "@/lib/requests/get-request";
import { dateOf, intOf } from "@/lib/requests/search-payments";

/**
 * GET /v2/request: the account's requests, newest first, each as GET /v2/request/{id} shows it.
 * The reference documents one filter, `walletAddress` (its release notes, 2026-Q3): requests whose
 * payee or payer is that wallet. Duebill adds `status`, `reference` and `fromDate`/`toDate` (the
 * request's creation time), ANDed, and pages as GET /v2/payments does (`limit`, `offset`,
 * `pagination {total, limit, offset, hasMore}`).
 *
 * `payer` is the request's payer column: the payer named at creation, else the first detected
 * payer (detection fills it). A wallet that paid a request naming another payer finds that
 * payment through GET /v2/payments?walletAddress=.
 *
 * Index-backed: a wallet's page is the union of at most four ordered scans of
 * PaymentRequest(accountId, payee|payer, createdAt desc), `offset + limit` entries each — the payee
 * and the payer column, each in the two spellings an EVM address may be stored in (EIP-55, as every
 * writer stores it, and lowercase) — so it does not depend on how many requests match; the total is
 * index-only counts of (accountId, payee|payer). Without a wallet: (accountId, createdAt) and (accountId, status).
 */
export interface RequestListQuery {
  walletAddress?: string;
  status?: "pending" | "partially_paid" | "paid";
  reference?: string;
  fromDate?: string;
  toDate?: string;
  limit?: string;
  offset?: string;
}

/**
 * The stored spellings of a wallet: an EVM address checksummed and lowercased, a Tron address as is.
 * An EVM address is accepted in one case (lower or upper) or with a valid EIP-55 checksum.
 */
function walletForms(w: string): string[] {
  if (isTronAddress(w)) return [w];
  const hex = w.slice(2);
  const oneCase = /^0x[0-9a-fA-F]{40}$/.test(w) && (hex === hex.toLowerCase() || hex === hex.toUpperCase());
  if (!oneCase && !isEvmAddress(w))
    throw invalidField("walletAddress", "must be an EVM (0x…, with a valid checksum when mixed-case) or Tron (T…) address");
  const lower = `0x${hex.toLowerCase()}`;
  return [...new Set([toChecksumAddress(lower), lower])];
}

export async function listRequests(accountId: string, q: RequestListQuery) {
  const from = dateOf(q.fromDate, "fromDate");
  const to = dateOf(q.toDate, "toDate");
  if (from && to && to < from) throw invalidField("toDate", "toDate must be after or equal to fromDate");
  const limit = intOf(q.limit, "limit", 20, 100);
  const offset = intOf(q.offset, "offset", 0, 1_000_000);
  const forms = q.walletAddress === undefined ? null : walletForms(q.walletAddress);

  const filters = [Prisma.sql`"accountId" = ${accountId}`];
  if (q.status) filters.push(Prisma.sql`"status" = ${q.status}::"RequestStatus"`);
  if (q.reference) filters.push(Prisma.sql`"reference" = ${q.reference}`);
  if (from) filters.push(Prisma.sql`"createdAt" >= ${from}`);
  if (to) filters.push(Prisma.sql`"createdAt" <= ${to}`);
  const where = (extra?: Prisma.Sql) => Prisma.join(extra ? [...filters, extra] : filters, " AND ");
  const order = Prisma.sql`ORDER BY "createdAt" DESC, "id" DESC`;

  let page: Prisma.Sql;
  let count: Prisma.Sql;
  if (forms) {
    const branches = (["payee", "payer"] as const).flatMap((column) =>
      forms.map(
        (form) =>
          Prisma.sql`(SELECT "id", "createdAt" FROM "PaymentRequest" WHERE ${where(Prisma.sql`${Prisma.raw(`"${column}"`)} = ${form}`)} ${order} LIMIT ${offset + limit})`,
      ),
    );
    page = Prisma.sql`SELECT "id" FROM (${Prisma.join(branches, " UNION ")}) m ${order} OFFSET ${offset} LIMIT ${limit}`;
    // payee matches + payer matches − both: two index-only counts (and a small third), where
    // `payee IN … OR payer IN …` reads the table (a sequential scan once most requests match).
    const payee = Prisma.sql`"payee" IN (${Prisma.join(forms)})`;
    const payer = Prisma.sql`"payer" IN (${Prisma.join(forms)})`;
    const countOf = (cond: Prisma.Sql) => Prisma.sql`(SELECT count(*) FROM "PaymentRequest" WHERE ${where(cond)})`;
    count = Prisma.sql`SELECT (${countOf(payee)} + ${countOf(payer)} - ${countOf(Prisma.sql`${payee} AND ${payer}`)})::int AS n`;
  } else {
    page = Prisma.sql`SELECT "id" FROM "PaymentRequest" WHERE ${where()} ${order} OFFSET ${offset} LIMIT ${limit}`;
    count = Prisma.sql`SELECT count(*)::int AS n FROM "PaymentRequest" WHERE ${where()}`;
  }
  const [ids, [counted]] = await Promise.all([db().$queryRaw<{ id: string }[]>(page), db().$queryRaw<{ n: number }[]>(count)]);
  const total = counted?.n ?? 0;
  const idList = ids.map((r) => r.id);
  const [rows, payments, invoices] = idList.length
    ? await Promise.all([
        db().paymentRequest.findMany({ where: { id: { in: idList }, accountId } }),
        db().payment.findMany({ where: { requestId: { in: idList } } }),
        invoiceViewsForRequests(idList),
      ])
    : [[], [], new Map()];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    // No chain reads for a list: a conversion request's current market rate is GET /v2/request/{id}'s.
    requests: idList.flatMap((id) => {
      const row = byId.get(id);
      return row
        ? [
            {
              ...toRequestStatus(
                row,
                payments.filter((p) => p.requestId === id),
              ),
              invoice: invoices.get(id) ?? null,
            },
          ]
        : [];
    }),
    pagination: { total, limit, offset, hasMore: offset + ids.length < total },
  };
}
