import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { linkStatus, PAID_LINK_SQL, type SecurePaymentStatus } from "@/lib/payments/link-status";
import { cancelRefusal } from "@/lib/secure-payments/cancel";
import { linkUrl } from "@/lib/secure-payments/create-secure-payment";

export interface AccountLink {
  token: string;
  /** The hosted page's address (what a merchant copies and sends). */
  url: string;
  paymentType: string;
  direction: "incoming" | "outgoing";
  /** The first request's amount and currency (null for a multicall parent, which has none of its own). */
  first: { amount: string; paymentCurrency: string } | null;
  requestCount: number;
  /** A multicall parent's number of payouts. */
  multicallPayouts: number;
  reference: string | null;
  description: string | null;
  createdAt: Date;
  expiresAt: Date;
  completedAt: Date | null;
  /** Set when the merchant cancelled it (the link then reads `expired`). */
  cancelledAt: Date | null;
  status: SecurePaymentStatus;
  /** A payment came without its whole fee: the link waits for the fee (detection's subStatus). */
  feeShort: boolean;
  /** The transaction the payer's wallet submitted, waiting for detection (informational only). */
  submittedTxHash: string | null;
  /** Why it cannot be cancelled now (null: it can), by the rule of cancelSecurePayment. */
  cancelRefusal: string | null;
}

/** The links page's status filter: the interface's states as a merchant names them. */
export const LINK_STATUS_FILTERS = ["pending", "paid", "expired", "cancelled"] as const;
export type LinkStatusFilter = (typeof LINK_STATUS_FILTERS)[number];

export interface LinkQuery {
  status?: LinkStatusFilter;
  /** Free text: part of the reference or description, the token, or an amount ("25", "25.50", "1,000"). */
  q?: string;
  page?: number;
  pageSize?: number;
}

export interface AccountLinksPage {
  links: AccountLink[];
  page: number;
  pageSize: number;
  total: number;
  pageCount: number;
}

export const LINKS_PAGE_SIZE = 20;
/** Longest search text used (the API bounds a reference at 255). */
export const LINK_SEARCH_MAX = 255;

/**
 * The status filter in SQL, by the one expiry rule (payments/link-status.ts): a pending link past
 * its expiry is expired unless paid; a cancelled link is `expired` with `cancelledAt` set and
 * counts as cancelled only.
 */
function statusSql(status: LinkStatusFilter | undefined, at: Date): Prisma.Sql {
  switch (status) {
    case "pending":
      return Prisma.sql`AND sp.status = 'pending' AND (sp."expiresAt" > ${at} OR ${PAID_LINK_SQL})`;
    case "paid":
      return Prisma.sql`AND sp.status = 'completed'`;
    case "expired":
      return Prisma.sql`AND sp."cancelledAt" IS NULL AND (sp.status = 'expired'
        OR (sp.status = 'pending' AND sp."expiresAt" <= ${at} AND NOT ${PAID_LINK_SQL}))`;
    case "cancelled":
      return Prisma.sql`AND sp."cancelledAt" IS NOT NULL`;
    default:
      return Prisma.empty;
  }
}

function searchSql(q: string | undefined): Prisma.Sql {
  const text = q?.trim().slice(0, LINK_SEARCH_MAX);
  if (!text) return Prisma.empty;
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const amount = text.replace(/,/g, "");
  // An amount matches by value ("25" finds "25.00"); the stored amounts are decimal strings.
  const byAmount = /^\d{1,40}(\.\d{1,18})?$/.test(amount)
    ? Prisma.sql`OR (CASE WHEN pr.amount ~ '^[0-9]+([.][0-9]+)?$' THEN pr.amount::numeric = ${amount}::numeric ELSE false END)`
    : Prisma.empty;
  return Prisma.sql`AND (sp.reference ILIKE ${like} OR sp.description ILIKE ${like} OR sp.token = ${text}
    OR EXISTS (SELECT 1 FROM "SecurePaymentRequest" x JOIN "PaymentRequest" pr ON pr.id = x."requestId"
      WHERE x."securePaymentToken" = sp.token AND (pr.reference ILIKE ${like} ${byAmount})))`;
}

/**
 * The account's payment links, newest first, filtered by status and text, one page at a time
 * (the dashboard's links page), each with its status by the one expiry rule. A page past the end
 * is the last page.
 */
export async function listAccountLinks(accountId: string, query: LinkQuery = {}): Promise<AccountLinksPage> {
  const pageSize = query.pageSize ?? LINKS_PAGE_SIZE;
  const at = now();
  const where = Prisma.sql`WHERE sp."accountId" = ${accountId} ${statusSql(query.status, at)} ${searchSql(query.q)}`;
  const [{ total }] = await db().$queryRaw<[{ total: number }]>`SELECT count(*)::int AS total FROM "SecurePayment" sp ${where}`;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, Math.floor(query.page ?? 1) || 1), pageCount);
  const ids = await db().$queryRaw<{ token: string }[]>`
    SELECT sp.token FROM "SecurePayment" sp ${where}
    ORDER BY sp."createdAt" DESC, sp.token DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;
  const tokens = ids.map((r) => r.token);
  const rows = await db().securePayment.findMany({
    where: { token: { in: tokens } },
    include: {
      requests: {
        orderBy: { position: "asc" },
        include: { request: { select: { amount: true, paymentCurrency: true, status: true, subStatus: true, amountPaid: true } } },
      },
      // A multicall's requests are its children's (the expiry rule: a paid link never expires).
      multicallChildren: {
        select: {
          child: { select: { requests: { select: { request: { select: { status: true, subStatus: true, amountPaid: true } } } } } },
        },
      },
      multicallParents: { select: { parent: { select: { token: true, status: true, expiresAt: true } } } },
      safeIntent: { select: { deadline: true } },
    },
  });
  const byToken = new Map(rows.map((l) => [l.token, l]));
  const links = tokens.flatMap((t) => {
    const l = byToken.get(t);
    if (!l) return [];
    const first = l.requests[0]?.request;
    const requests = (l.paymentType === "multicall" ? l.multicallChildren.flatMap((m) => m.child.requests) : l.requests).map(
      (r) => r.request,
    );
    const status = linkStatus(l, requests, at.getTime());
    const link: AccountLink = {
      token: l.token,
      url: linkUrl(l.token),
      paymentType: l.paymentType,
      direction: l.direction,
      first: first ? { amount: first.amount, paymentCurrency: first.paymentCurrency } : null,
      requestCount: l.requests.length,
      multicallPayouts: l.multicallChildren.length,
      reference: l.reference,
      description: l.description,
      createdAt: l.createdAt,
      expiresAt: l.expiresAt,
      completedAt: l.completedAt,
      cancelledAt: l.cancelledAt,
      status,
      feeShort: status === "pending" && requests.some((r) => r.subStatus === "fee_short"),
      submittedTxHash: l.intentTxHash,
      cancelRefusal: cancelRefusal({ ...l, status, requests, parents: l.multicallParents.map((m) => m.parent) }, at.getTime()),
    };
    return [link];
  });
  return { links, page, pageSize, total, pageCount };
}
