import type { CommercePayment } from "@/lib/generated/prisma/client";

/** A stored Decimal(78,0) as bigint. */
export const units = (d: { toFixed(): string }) => BigInt(d.toFixed());

export type CommerceStatus =
  | "created"
  | "authorized"
  | "partially_captured"
  | "captured"
  | "voided"
  | "reclaimed"
  | "partially_refunded"
  | "refunded";

export interface Amounts {
  authorized: bigint;
  captured: bigint;
  fee: bigint;
  voided: bigint;
  reclaimed: bigint;
  refunded: bigint;
}

export function amountsOf(cp: CommercePayment): Amounts {
  return {
    authorized: units(cp.authorizedAmount),
    captured: units(cp.capturedAmount),
    fee: units(cp.capturedFee),
    voided: units(cp.voidedAmount),
    reclaimed: units(cp.reclaimedAmount),
    refunded: units(cp.refundedAmount),
  };
}

/** What the escrow still holds for the payment: capturable before the deadline, reclaimable after it. */
export const capturableOf = (a: Amounts) => a.authorized - a.captured - a.voided - a.reclaimed;

/** The lifecycle (Authorized → Captured | Voided; Captured → Refunded) read from the amounts. */
export function statusOf(a: Amounts): CommerceStatus {
  if (a.authorized === 0n) return "created";
  if (a.refunded > 0n) return a.refunded >= a.captured ? "refunded" : "partially_refunded";
  if (capturableOf(a) > 0n) return a.captured > 0n ? "partially_captured" : "authorized";
  if (a.captured > 0n) return "captured";
  return a.reclaimed > 0n ? "reclaimed" : "voided";
}
