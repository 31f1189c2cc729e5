import { db } from "@/lib/db";
import type { ExportKind, ExportRow } from "@/lib/exports/columns";
import type { ExportFilters } from "@/lib/exports/filters";
import { type PaymentCols, paymentRow, type RefundCols, type RequestRowCols, refundRow, requestRow } from "@/lib/exports/rows";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * One batch of an export: the rows after `after` (exclusive) in the export's order, newest first on
 * (time, id), read with a keyset condition `(time, id) < (after)` over an index that starts with the
 * account: Payment(accountId, blockTime DESC, id DESC), PaymentRequest and Refund (accountId,
 * createdAt DESC, id DESC). Each batch is one indexed range read of `limit` rows, whatever the
 * account's size, and ties on time are ordered by id, so no row is skipped or repeated at a batch edge.
 */
export interface Cursor {
  time: Date;
  id: string;
}

export interface Batch {
  rows: ExportRow[];
  /** Where the next batch starts; null when this one was the last. */
  next: Cursor | null;
}

export type BatchSource = (after: Cursor | null, limit: number) => Promise<Batch>;

/** The request's columns and its invoice number (the request's own invoice, else its link's). */
const REQUEST_COLS = Prisma.sql`
  r."id" AS "requestId", r."kind"::text AS "kind", r."reference", COALESCE(i."number", li."number") AS "invoiceNumber",
  r."network", r."invoiceCurrency", r."paymentCurrency", r."tokenAddress" AS "requestTokenAddress", r."isConversion",
  r."paymentReference", r."status"::text AS "requestStatus", r."amount" AS "requestAmount", r."expectedAmount"::text AS "expectedAmount",
  r."feeAmount"::text AS "requestFeeAmount", r."feeAddress" AS "requestFeeAddress", r."payee" AS "requestPayee", r."payer" AS "requestPayer",
  r."amountPaid"::text AS "amountPaid", r."amountRefunded"::text AS "amountRefunded"`;
const INVOICE_JOINS = Prisma.sql`
  LEFT JOIN "Invoice" i ON i."requestId" = r."id"
  LEFT JOIN "SecurePaymentRequest" spr ON spr."requestId" = r."id"
  LEFT JOIN "Invoice" li ON li."securePaymentToken" = spr."securePaymentToken"`;

/** The filters on the request's columns (network, currency, status) and on the row's time. */
function conditions(f: ExportFilters, time: Prisma.Sql, opts: { status: Prisma.Sql | null }): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  if (f.from) out.push(Prisma.sql`${time} >= ${f.from}`);
  if (f.to) out.push(Prisma.sql`${time} < ${f.to}`);
  if (f.network) out.push(Prisma.sql`r."network" = ${f.network}`);
  if (f.currency)
    out.push(Prisma.sql`(lower(r."invoiceCurrency") = lower(${f.currency}) OR lower(r."paymentCurrency") = lower(${f.currency}))`);
  if (f.status && opts.status) out.push(Prisma.sql`${opts.status} = ${f.status}`);
  return out;
}

function keyset(after: Cursor | null, time: Prisma.Sql, id: Prisma.Sql): Prisma.Sql[] {
  return after ? [Prisma.sql`(${time}, ${id}) < (${after.time}, ${after.id})`] : [];
}

const and = (parts: Prisma.Sql[]) => Prisma.join(parts, " AND ");

function batchOf<T extends { time: Date }>(rows: T[], limit: number, idOf: (r: T) => string, toRow: (r: T) => ExportRow): Batch {
  const last = rows[rows.length - 1];
  return { rows: rows.map(toRow), next: rows.length === limit && last ? { time: last.time, id: idOf(last) } : null };
}

function transfers(accountId: string, f: ExportFilters, payoutsOnly: boolean): BatchSource {
  return async (after, limit) => {
    const where = [
      Prisma.sql`p."accountId" = ${accountId}`,
      ...(payoutsOnly ? [Prisma.sql`r."kind" = 'payout'`] : []),
      ...conditions(f, Prisma.sql`p."blockTime"`, { status: Prisma.sql`r."status"::text` }),
      ...keyset(after, Prisma.sql`p."blockTime"`, Prisma.sql`p."id"`),
    ];
    const rows = await db().$queryRaw<PaymentCols[]>`
      SELECT p."id", p."blockTime" AS "time", p."txHash", p."logIndex", p."blockNumber"::text AS "blockNumber", p."payer", p."payee",
        p."tokenAddress", p."amount"::text AS "amount", p."feeAmount"::text AS "feeAmount", p."feeAddress",
        p."invoiceAmount"::text AS "invoiceAmount", ${REQUEST_COLS}
      FROM "Payment" p JOIN "PaymentRequest" r ON r."id" = p."requestId" ${INVOICE_JOINS}
      WHERE ${and(where)}
      ORDER BY p."blockTime" DESC, p."id" DESC
      LIMIT ${limit}`;
    return batchOf(rows, limit, (r) => r.id, paymentRow);
  };
}

function refunds(accountId: string, f: ExportFilters): BatchSource {
  return async (after, limit) => {
    const where = [
      Prisma.sql`x."accountId" = ${accountId}`,
      ...conditions(f, Prisma.sql`x."createdAt"`, { status: Prisma.sql`x."status"::text` }),
      ...keyset(after, Prisma.sql`x."createdAt"`, Prisma.sql`x."id"`),
    ];
    const rows = await db().$queryRaw<RefundCols[]>`
      SELECT x."id", x."createdAt" AS "time", x."txHash", x."logIndex", x."blockNumber"::text AS "blockNumber", x."toAddress",
        x."tokenAddress", x."amount"::text AS "amount", x."refundReference", x."status"::text AS "refundStatus", x."sender"::text AS "sender",
        d."address" AS "depositAddress", ${REQUEST_COLS}
      FROM "Refund" x JOIN "PaymentRequest" r ON r."id" = x."requestId" ${INVOICE_JOINS}
        LEFT JOIN "DepositAddress" d ON d."requestId" = r."id"
      WHERE ${and(where)}
      ORDER BY x."createdAt" DESC, x."id" DESC
      LIMIT ${limit}`;
    return batchOf(rows, limit, (r) => r.id, refundRow);
  };
}

function requests(accountId: string, f: ExportFilters): BatchSource {
  return async (after, limit) => {
    const where = [
      Prisma.sql`r."accountId" = ${accountId}`,
      ...conditions(f, Prisma.sql`r."createdAt"`, { status: Prisma.sql`r."status"::text` }),
      ...keyset(after, Prisma.sql`r."createdAt"`, Prisma.sql`r."id"`),
    ];
    const rows = await db().$queryRaw<RequestRowCols[]>`
      SELECT r."createdAt" AS "time", ${REQUEST_COLS}
      FROM "PaymentRequest" r ${INVOICE_JOINS}
      WHERE ${and(where)}
      ORDER BY r."createdAt" DESC, r."id" DESC
      LIMIT ${limit}`;
    return batchOf(rows, limit, (r) => r.requestId, requestRow);
  };
}

/** The batch reader of an export of one account: every query has the account in its WHERE. */
export function exportSource(kind: ExportKind, accountId: string, f: ExportFilters): BatchSource {
  switch (kind) {
    case "payments":
      return transfers(accountId, f, false);
    case "payouts":
      return transfers(accountId, f, true);
    case "refunds":
      return refunds(accountId, f);
    case "requests":
      return requests(accountId, f);
  }
}
