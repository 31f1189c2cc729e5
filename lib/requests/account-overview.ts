import { tokenOf } from "@/lib/chain/stored";
import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { formatAmount } from "@/lib/money";
import { PAID_LINK_SQL } from "@/lib/payments/link-status";

/**
 * The dashboard overview of one account: what it received, per currency and network (never one
 * sum across tokens), and per day for the last `days` days. Every query is scoped to the account
 * in its WHERE. What was received comes from the per-day rollup (PaymentDaily, written with each
 * payment), so the overview reads a few rows per day and currency however many payments there are.
 */
export interface OverviewTotals {
  network: string;
  currency: string;
  symbol: string;
  count: number;
  amount: string;
}

export interface OverviewDay {
  day: string;
  count: number;
  /** Per currency id: the human amount received that day. */
  amounts: Record<string, string>;
}

export interface AccountOverview {
  totals: OverviewTotals[];
  days: OverviewDay[];
  requests: { pending: number; partiallyPaid: number; paid: number };
  links: { pending: number; completed: number };
}

const decimalsOf = (network: string, currency: string) => {
  try {
    return tokenOf({ network, paymentCurrency: currency }).decimals;
  } catch {
    return 18;
  }
};
const symbolOf = (currency: string) => currency.slice(0, currency.lastIndexOf("-")) || currency;

export async function accountOverview(accountId: string, days = 30): Promise<AccountOverview> {
  // The chart's UTC days, oldest first: today and the `days - 1` before it.
  const firstDay = new Date(nowMs() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const [totals, daily, requests, links] = await Promise.all([
    db().$queryRaw<{ network: string; currency: string; count: bigint; amount: string }[]>`
      SELECT "network", "currency", sum("count") AS count, sum("amount")::text AS amount
      FROM "PaymentDaily"
      WHERE "accountId" = ${accountId}
      GROUP BY 1, 2 ORDER BY 1, 2`,
    db().$queryRaw<{ day: string; network: string; currency: string; count: number; amount: string }[]>`
      SELECT to_char("day", 'YYYY-MM-DD') AS day, "network", "currency", "count", "amount"::text AS amount
      FROM "PaymentDaily"
      WHERE "accountId" = ${accountId} AND "day" >= ${firstDay}::date`,
    db().paymentRequest.groupBy({ by: ["status"], where: { accountId }, _count: { _all: true } }),
    // Counted at read time (linkStatus in SQL): a pending link past its expiry is no longer pending, unless paid.
    db().$queryRaw<{ pending: bigint; completed: bigint }[]>`
      SELECT count(*) FILTER (WHERE sp.status = 'pending' AND (sp."expiresAt" > ${new Date(nowMs())} OR ${PAID_LINK_SQL})) AS pending,
             count(*) FILTER (WHERE sp.status = 'completed') AS completed
      FROM "SecurePayment" sp WHERE sp."accountId" = ${accountId}`,
  ]);
  const byDay = new Map<string, OverviewDay>();
  for (let i = days - 1; i >= 0; i--) {
    const day = new Date(nowMs() - i * 86_400_000).toISOString().slice(0, 10);
    byDay.set(day, { day, count: 0, amounts: {} });
  }
  for (const row of daily) {
    const entry = byDay.get(row.day);
    if (!entry) continue;
    entry.count += Number(row.count);
    entry.amounts[row.currency] = formatAmount(BigInt(row.amount), decimalsOf(row.network, row.currency));
  }
  const count = (rows: { status: string; _count: { _all: number } }[], s: string) => rows.find((r) => r.status === s)?._count._all ?? 0;
  return {
    totals: totals.map((t) => ({
      network: t.network,
      currency: t.currency,
      symbol: symbolOf(t.currency),
      count: Number(t.count),
      amount: formatAmount(BigInt(t.amount), decimalsOf(t.network, t.currency)),
    })),
    days: [...byDay.values()],
    requests: { pending: count(requests, "pending"), partiallyPaid: count(requests, "partially_paid"), paid: count(requests, "paid") },
    links: { pending: Number(links[0]?.pending ?? 0), completed: Number(links[0]?.completed ?? 0) },
  };
}

/** The account's most recent payments, for the overview. */
export async function recentPayments(accountId: string, take = 8) {
  const rows = await db().payment.findMany({
    where: { accountId },
    orderBy: [{ blockTime: "desc" }, { id: "desc" }],
    take,
    include: { request: { select: { paymentCurrency: true, network: true, reference: true } } },
  });
  return rows.map((p) => ({
    id: p.id,
    requestId: p.requestId,
    txHash: p.txHash,
    network: p.network,
    payer: p.payer,
    blockTime: p.blockTime.toISOString(),
    symbol: symbolOf(p.request.paymentCurrency),
    amount: formatAmount(BigInt(p.amount.toFixed()), decimalsOf(p.request.network, p.request.paymentCurrency)),
    reference: p.request.reference,
  }));
}
