import { tokenOf } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import { formatAmount } from "@/lib/money";
import { refundStatusOf } from "@/lib/refunds";

/** What the payments list says of a request's refunds, beside each of its payments (decimal strings, payment currency). */
export interface RequestRefundBadge {
  refundStatus: "none" | "partially_refunded" | "refunded";
  /** The payee's confirmed refunds (PaymentRequest.amountRefunded). */
  refunded: string;
  /** The payee's refunds sent and not yet confirmed. */
  sending: string;
  /** What the deposit relayer sent back (it never reached the payee). */
  returned: string;
}

/**
 * The refund state of the requests of one page of the payments list (the account's, by id: another
 * account's request reads as none). Three index-backed reads of those requests only — their rows,
 * their payments' sums (Payment's requestId index) and their sent or confirmed refunds (Refund's
 * requestId index) — whatever the account's size. Requests without any refund are left out.
 */
export async function refundBadgesOf(accountId: string, requestIds: readonly string[]): Promise<Map<string, RequestRefundBadge>> {
  const ids = [...new Set(requestIds)];
  if (ids.length === 0) return new Map();
  const refunds = await db().refund.findMany({
    where: { accountId, requestId: { in: ids }, status: { in: ["sent", "confirmed"] } },
    select: { requestId: true, amount: true, status: true, sender: true },
  });
  if (refunds.length === 0) return new Map();
  const withRefunds = [...new Set(refunds.map((r) => r.requestId))];
  const [requests, paid] = await Promise.all([
    db().paymentRequest.findMany({
      where: { accountId, id: { in: withRefunds } },
      select: { id: true, network: true, paymentCurrency: true, amountRefunded: true },
    }),
    db().payment.groupBy({ by: ["requestId"], where: { accountId, requestId: { in: withRefunds } }, _sum: { amount: true } }),
  ]);
  const units = (d: { toFixed(): string } | null | undefined) => (d ? BigInt(d.toFixed()) : 0n);
  const out = new Map<string, RequestRefundBadge>();
  for (const r of requests) {
    let decimals = 18;
    try {
      decimals = tokenOf(r).decimals;
    } catch {
      // an unknown stored currency: raw 18 decimals rather than a failed list (as the search does)
    }
    const mine = refunds.filter((f) => f.requestId === r.id);
    const sum = (pick: (f: (typeof mine)[number]) => boolean) => mine.filter(pick).reduce((a, f) => a + units(f.amount), 0n);
    const refunded = units(r.amountRefunded);
    const received = units(paid.find((p) => p.requestId === r.id)?._sum.amount);
    out.set(r.id, {
      refundStatus: refundStatusOf({ received, refunded }),
      refunded: formatAmount(refunded, decimals),
      sending: formatAmount(
        sum((f) => f.sender === "payee" && f.status === "sent"),
        decimals,
      ),
      returned: formatAmount(
        sum((f) => f.sender === "relayer" && f.status === "confirmed"),
        decimals,
      ),
    });
  }
  return out;
}
