import { networkRuntime } from "@/lib/chain/config";
import { isNetworkId } from "@/lib/chain/networks";
import { tokenOf } from "@/lib/chain/stored";
import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import type { RequestKind } from "@/lib/generated/prisma/enums";
import { formatAmount } from "@/lib/money";
import { type Direction, directionOf } from "@/lib/payments/direction";
import { PAID_LINK_SQL } from "@/lib/payments/link-status";
import { statusCounts } from "@/lib/requests/status-counts";

/**
 * The dashboard overview of one account: money in and money out apart (lib/payments/direction.ts),
 * each per currency and network (never one sum across tokens), and per day for the last `days`
 * days. Every query is scoped to the account in its WHERE. The amounts come from the per-day rollup
 * (PaymentDaily, written with each payment, per request kind), so the overview reads a few rows per
 * day and currency however many payments there are; the request counts come from the per-status counts
 * Postgres keeps (lib/requests/status-counts.ts), a few rows however many requests there are.
 *
 * Refunds (issue 28) are money out of the "Received" total: each incoming total is net of the
 * payee's confirmed refunds of that currency and network (`refunded`, shown beside it), subtracted
 * in `totalsOf` (the one place the totals are built). Only refunds the payee's wallet sent count: what
 * the deposit relayer sends back from a deposit address (sender relayer) never reached the payee —
 * detection records the forwarded payment, not the deposit, so it was never in "Received". Payouts
 * have no refunds here (money a payee sends back to the account is not tracked): `refunded` is 0.
 */
export interface OverviewTotals {
  direction: Direction;
  network: string;
  /** The network's display name ("Base", "Sepolia"). */
  networkName: string;
  currency: string;
  symbol: string;
  count: number;
  /** Net: what the payments moved, minus the confirmed refunds. */
  amount: string;
  /** What the payments moved, before refunds. */
  gross: string;
  /** The payee's confirmed refunds of this direction, currency and network ("0" for payouts). */
  refunded: string;
  refundCount: number;
}

export interface OverviewDayFlow {
  count: number;
  /** Per currency id: the human amount that day. */
  amounts: Record<string, string>;
}

export interface OverviewDay {
  day: string;
  incoming: OverviewDayFlow;
  outgoing: OverviewDayFlow;
}

export interface AccountOverview {
  incoming: OverviewTotals[];
  outgoing: OverviewTotals[];
  days: OverviewDay[];
  /** Requests (money in) by status; payouts (money out, recurring ones included) paid. */
  requests: { pending: number; partiallyPaid: number; paid: number };
  payouts: { paid: number };
  links: { pending: number; completed: number };
}

const decimalsOf = (network: string, currency: string) => {
  try {
    return tokenOf({ network, paymentCurrency: currency }).decimals;
  } catch {
    return 18;
  }
};
const nameOf = (network: string) => (isNetworkId(network) ? networkRuntime(network).network.name : network);
const symbolOf = (currency: string) => currency.slice(0, currency.lastIndexOf("-")) || currency;

type RollupRow = { kind: RequestKind; network: string; currency: string; count: bigint; amount: string };
type RefundRow = { network: string; currency: string; count: bigint; amount: string };

/**
 * The totals per direction, currency and network from the rollup's sums, the incoming ones net of
 * the payee's confirmed refunds of the same currency and network.
 */
function totalsOf(rows: RollupRow[], refunds: RefundRow[] = []): OverviewTotals[] {
  const refundOf = new Map(refunds.map((r) => [`${r.network}\u0000${r.currency}`, r]));
  return rows.map((t) => {
    const decimals = decimalsOf(t.network, t.currency);
    const refund = directionOf(t.kind) === "incoming" ? refundOf.get(`${t.network}\u0000${t.currency}`) : undefined;
    const gross = BigInt(t.amount);
    const refunded = refund ? BigInt(refund.amount) : 0n;
    return {
      direction: directionOf(t.kind),
      network: t.network,
      networkName: nameOf(t.network),
      currency: t.currency,
      symbol: symbolOf(t.currency),
      count: Number(t.count),
      // Below 0 only if refunds outran the payments (a refund sent twice outside Duebill is recorded as the chain shows it).
      amount: formatAmount(gross - refunded, decimals),
      gross: formatAmount(gross, decimals),
      refunded: formatAmount(refunded, decimals),
      refundCount: Number(refund?.count ?? 0),
    };
  });
}

export async function accountOverview(accountId: string, days = 30): Promise<AccountOverview> {
  // The chart's UTC days, oldest first: today and the `days - 1` before it.
  const firstDay = new Date(nowMs() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const [totals, refunds, daily, counts, links] = await Promise.all([
    db().$queryRaw<RollupRow[]>`
      SELECT "kind", "network", "currency", sum("count") AS count, sum("amount")::text AS amount
      FROM "PaymentDaily"
      WHERE "accountId" = ${accountId}
      GROUP BY 1, 2, 3 ORDER BY 2, 3, 1`,
    // The payee's confirmed refunds of incoming requests, per network and payment currency: read
    // through Refund's (accountId, createdAt) index — the account's refunds, never the table.
    db().$queryRaw<RefundRow[]>`
      SELECT r."network", pr."paymentCurrency" AS currency, count(*) AS count, sum(r."amount")::text AS amount
      FROM "Refund" r JOIN "PaymentRequest" pr ON pr."id" = r."requestId"
      WHERE r."accountId" = ${accountId} AND r."status" = 'confirmed' AND r."sender" = 'payee' AND pr."kind" = 'request'
      GROUP BY 1, 2`,
    db().$queryRaw<{ day: string; kind: RequestKind; network: string; currency: string; count: number; amount: string }[]>`
      SELECT to_char("day", 'YYYY-MM-DD') AS day, "kind", "network", "currency", "count", "amount"::text AS amount
      FROM "PaymentDaily"
      WHERE "accountId" = ${accountId} AND "day" >= ${firstDay}::date`,
    // Per status from the counts Postgres keeps (lib/requests/status-counts.ts), not by counting the rows.
    statusCounts(accountId),
    // Pending is decided at read time (linkStatus in SQL): a pending link past its expiry is no longer
    // pending, unless paid. Only the account's pending links are read (the expiry job moves the others on).
    db().$queryRaw<{ pending: bigint }[]>`
      SELECT count(*) FILTER (WHERE sp."expiresAt" > ${new Date(nowMs())} OR ${PAID_LINK_SQL}) AS pending
      FROM "SecurePayment" sp WHERE sp."accountId" = ${accountId} AND sp.status = 'pending'`,
  ]);
  const byDay = new Map<string, OverviewDay>();
  for (let i = days - 1; i >= 0; i--) {
    const day = new Date(nowMs() - i * 86_400_000).toISOString().slice(0, 10);
    byDay.set(day, { day, incoming: { count: 0, amounts: {} }, outgoing: { count: 0, amounts: {} } });
  }
  for (const row of daily) {
    const flow = byDay.get(row.day)?.[directionOf(row.kind)];
    if (!flow) continue;
    flow.count += Number(row.count);
    flow.amounts[row.currency] = formatAmount(BigInt(row.amount), decimalsOf(row.network, row.currency));
  }
  const all = totalsOf(totals, refunds);
  return {
    incoming: all.filter((t) => t.direction === "incoming"),
    outgoing: all.filter((t) => t.direction === "outgoing"),
    days: [...byDay.values()],
    requests: {
      pending: counts.count("request", "pending"),
      partiallyPaid: counts.count("request", "partially_paid"),
      paid: counts.count("request", "paid"),
    },
    payouts: { paid: counts.count("payout", "paid") },
    links: { pending: Number(links[0]?.pending ?? 0), completed: counts.count("link", "completed") },
  };
}

/** The account's most recent payments, in and out, for the overview. */
export async function recentPayments(accountId: string, take = 8) {
  const rows = await db().payment.findMany({
    where: { accountId },
    orderBy: [{ blockTime: "desc" }, { id: "desc" }],
    take,
    include: { request: { select: { paymentCurrency: true, network: true, reference: true, kind: true } } },
  });
  return rows.map((p) => ({
    id: p.id,
    requestId: p.requestId,
    direction: directionOf(p.request.kind),
    txHash: p.txHash,
    network: p.network,
    networkName: nameOf(p.network),
    payer: p.payer,
    payee: p.payee,
    blockTime: p.blockTime.toISOString(),
    symbol: symbolOf(p.request.paymentCurrency),
    amount: formatAmount(BigInt(p.amount.toFixed()), decimalsOf(p.request.network, p.request.paymentCurrency)),
    reference: p.request.reference,
  }));
}
