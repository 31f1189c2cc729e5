/** The payment.past_due event (issue 32): the one builder of its body, as catalog.ts is for the others. */

export interface PastDueFields {
  /** The recurring payout (schedule) ID. */
  recurringPaymentId: string;
  /** The payment (1-based) that is past due. */
  paymentIndex: number;
  requestId: string | null;
  paymentReference: string | null;
  /** insufficient_balance | insufficient_allowance: why the dry run said the payment would revert. */
  reason: string;
  failureReason: string;
  /** Decimal string in the payment currency ("0" when the read gave no figure). */
  amountMissing: string;
  /** What the payment pulls from the payer (amount + fee), decimal. */
  amount: string;
  paymentCurrency: string;
  network: string;
  payer: string;
  /** When the payment fell due, when it went past due (its first failed attempt), when it is retried next, when the grace ends. */
  dueDate: string;
  pastDueSince: string;
  nextRetryDate: string;
  gracePeriodEndsAt: string;
  /** The payer's hosted page for the schedule, where the shortfall can be fixed. */
  payerUrl: string | null;
  timestamp: string;
}

/**
 * payment.past_due: a recurring payment missed its due time (the read showed it would revert, so
 * nothing was sent) and the schedule entered `past_due`: it is retried on the dunning policy until
 * the grace period ends, then paused with payment.failed. Written in the transaction that records
 * the schedule's transition, once per (schedule, payment).
 */
export function pastDueEvent(f: PastDueFields) {
  return { event: "payment.past_due" as const, ...f };
}
