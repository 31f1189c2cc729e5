import { networkRuntime } from "@/lib/chain/config";
import { isNetworkId } from "@/lib/chain/networks";
import { tokenOf } from "@/lib/chain/stored";
import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import type { RequestKind } from "@/lib/generated/prisma/enums";
import { formatAmount } from "@/lib/money";
import { type Direction, directionOf } from "@/lib/payments/direction";
import { PAID_LINK_SQL } from "@/lib/payments/link-status";

/**
 * The dashboard overview of one account: money in and money out apart (lib/payments/direction.ts),
 * each per currency and network (never one sum across tokens), and per day for the last `days`
 * days. Every query is scoped to the account in its WHERE. The amounts come from the per-day rollup
 * (PaymentDaily, written with each payment, per request kind), so the overview reads a few rows per
 * day and currency however many payments there are.
 *
 * Refunds do not exist yet: each total is the gross paid in that direction, and the page says
 * "received"/"paid out", never "net". Seam for refunds: they are to be rolled up per direction,
 * currency and network as payments are, and subtracted in `totalsOf` below (the one place the
 * totals are built), with the page then labelling them net.
 */
export interface OverviewTotals {
  direction: Direction;
  network: string;
  /** The network's display name ("Base", "Sepolia"). */
  networkName: string;
  currency: string;
  symbol: string;
  count: number;
  amount: string;
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

/** The totals per direction, currency and network from the rollup's sums (gross: there are no refunds yet). */
function totalsOf(rows: { kind: RequestKind; network: string; currency: string; count: bigint; amount: string }[]): OverviewTotals[] {
  return rows.map((t) => ({
    direction: directionOf(t.kind),
    network: t.network,
    networkName: nameOf(t.network),
    currency: t.currency,
    symbol: symbolOf(t.currency),
    count: Number(t.count),
    amount: formatAmount(BigInt(t.amount), decimalsOf(t.network, t.currency)),
  }));
}

export async function accountOverview(accountId: string, days = 30): Promise<AccountOverview> {
  // The chart's UTC days, oldest first: today and the `days - 1` before it.
  const firstDay = new Date(nowMs() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const [totals, daily, requests, links] = await Promise.all([
    db().$queryRaw<{ kind: RequestKind; network: string; currency: string; count: bigint; amount: string }[]>`
      SELECT "kind", "network", "currency", sum("count") AS count, sum("amount")::text AS amount
      FROM "PaymentDaily"
      WHERE "accountId" = ${accountId}
      GROUP BY 1, 2, 3 ORDER BY 2, 3, 1`,
    db().$queryRaw<{ day: string; kind: RequestKind; network: string; currency: string; count: number; amount: string }[]>`
      SELECT to_char("day", 'YYYY-MM-DD') AS day, "kind", "network", "currency", "count", "amount"::text AS amount
      FROM "PaymentDaily"
      WHERE "accountId" = ${accountId} AND "day" >= ${firstDay}::date`,
    db().paymentRequest.groupBy({ by: ["kind", "status"], where: { accountId }, _count: { _all: true } }),
    // Counted at read time (linkStatus in SQL): a pending link past its expiry is no longer pending, unless paid.
    db().$queryRaw<{ pending: bigint; completed: bigint }[]>`
      SELECT count(*) FILTER (WHERE sp.status = 'pending' AND (sp."expiresAt" > ${new Date(nowMs())} OR ${PAID_LINK_SQL})) AS pending,
             count(*) FILTER (WHERE sp.status = 'completed') AS completed
      FROM "SecurePayment" sp WHERE sp."accountId" = ${accountId}`,
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
  const all = totalsOf(totals);
  const count = (kind: RequestKind, status: string) => requests.find((r) => r.kind === kind && r.status === status)?._count._all ?? 0;
  return {
    incoming: all.filter((t) => t.direction === "incoming"),
    outgoing: all.filter((t) => t.direction === "outgoing"),
    days: [...byDay.values()],
    requests: {
      pending: count("request", "pending"),
      partiallyPaid: count("request", "partially_paid"),
      paid: count("request", "paid"),
    },
    payouts: { paid: count("payout", "paid") },
    links: { pending: Number(links[0]?.pending ?? 0), completed: Number(links[0]?.completed ?? 0) },
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
