import type { PaymentRequest } from "@/lib/generated/prisma/client";
import { feeForRemaining } from "@/lib/payments/plan";

/**
 * What the next transaction of a link pays, request by request: each request not yet paid owes
 * its remaining amount (expected minus what already arrived) and the fee on that remainder; a
 * paid request owes nothing. The hosted page's amount, the public view's `paymentOptions` and
 * the pay plan all read this one list, so the page never shows another sum than the wallet signs.
 */
export interface DueLeg {
  request: PaymentRequest;
  amount: bigint;
  fee: bigint;
}

const units = (d: { toFixed(): string }) => BigInt(d.toFixed());

export function dueLegs(requests: readonly PaymentRequest[]): DueLeg[] {
  return requests.flatMap((r) => {
    if (r.status === "paid") return [];
    const expected = units(r.expectedAmount);
    const remaining = expected - units(r.amountPaid);
    if (remaining <= 0n) return [];
    return [{ request: r, amount: remaining, fee: feeForRemaining(units(r.feeAmount), remaining, expected) }];
  });
}

/** The sum the payer sends in the next transaction (amounts and fees) and the fees within it. */
export function dueTotal(legs: readonly DueLeg[]): { total: bigint; fees: bigint } {
  return legs.reduce((s, l) => ({ total: s.total + l.amount + l.fee, fees: s.fees + l.fee }), { total: 0n, fees: 0n });
}
