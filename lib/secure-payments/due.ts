import { db } from "@/lib/db";
import type { PaymentRequest, Prisma } from "@/lib/generated/prisma/client";
import { type FeeProgress, feeProgressOf, owedLegs, type Payable, payableOf } from "@/lib/payments/fee-legs";

/**
 * What the next transaction of a link pays, request by request, from the fee rule
 * (lib/payments/fee-legs.ts): each request not yet paid owes the rest of its amount and the rest
 * of each of its fee legs — a request whose amount arrived but whose fee came short owes that fee
 * alone (amount 0); a paid request owes nothing. The hosted page's amount, the public view's
 * `paymentOptions` and the pay plan all read this one list, so the page never shows another sum
 * than the wallet signs.
 *
 * With several requests due (a batch or multicall transaction), the batch contract sends every fee
 * to one address: the first owed leg's. Each request's leg to that address rides with its payment
 * (`feeAmount`); its legs to other addresses are fee-only transfers after it (`extraFeeLegs`).
 */
export interface DueLeg extends Payable {
  request: PaymentRequest;
  /** Every fee the transaction sends for this request (feeAmount plus the extra legs). */
  fee: bigint;
}

export interface Due {
  legs: DueLeg[];
  /** The fee address the batch contract pays (null for a single payment, or when no fee is owed). */
  batchFeeAddress: string | null;
  /** Where each open request stands against its fee rule (`missingFees`, `fee_short`). */
  progress: Map<string, FeeProgress>;
}

/** The due legs of requests whose fee progress is known (pure: see `dueOf` to read the progress). */
export function dueLegs(requests: readonly PaymentRequest[], progress: ReadonlyMap<string, FeeProgress>): Omit<Due, "progress"> {
  const open = requests.filter((r) => r.status !== "paid" && progress.has(r.id));
  const owes = (p: Payable) => p.amount > 0n || p.feeAmount > 0n || p.extraFeeLegs.length > 0;
  const due = open.filter((r) => owes(payableOf(r, progress.get(r.id)!)));
  const batchFeeAddress =
    due.length > 1
      ? (due.flatMap((r) => owedLegs(progress.get(r.id)!))[0]?.address ?? due.find((r) => r.feeAddress)?.feeAddress ?? null)
      : null;
  const legs = due.map((r) => {
    const p = payableOf(r, progress.get(r.id)!, batchFeeAddress);
    return { ...p, request: r, fee: p.feeAmount + p.extraFeeLegs.reduce((a, l) => a + l.amount, 0n) };
  });
  return { legs, batchFeeAddress };
}

/** The due legs of a link's requests, reading their recorded payments (one query). */
export async function dueOf(requests: readonly PaymentRequest[], client: Prisma.TransactionClient = db()): Promise<Due> {
  const progress = await feeProgressOf(
    requests.filter((r) => r.status !== "paid"),
    client,
  );
  return { ...dueLegs(requests, progress), progress };
}

/** The sum the payer sends in the next transaction (amounts and fees) and the fees within it. */
export function dueTotal(legs: readonly DueLeg[]): { total: bigint; fees: bigint } {
  return legs.reduce((s, l) => ({ total: s.total + l.amount + l.fee, fees: s.fees + l.fee }), { total: 0n, fees: 0n });
}
