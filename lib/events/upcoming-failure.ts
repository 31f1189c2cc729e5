/** The payment.upcoming_failure event (issue 32): the one builder of its body, as catalog.ts is for the others. */

export interface UpcomingFailureFields {
  /** The recurring payout (schedule) ID. */
  recurringPaymentId: string;
  /** The payment (1-based) that would fail. */
  paymentIndex: number;
  requestId: string | null;
  paymentReference: string | null;
  /** insufficient_balance | insufficient_allowance | permit_expiring | relayer_unfunded */
  reason: string;
  /** Decimal string in `missingCurrency` (the payment currency; the network's gas token for relayer_unfunded). */
  amountMissing: string;
  missingCurrency: string;
  /** What the payment pulls from the payer (amount + fee), decimal. */
  amount: string;
  paymentCurrency: string;
  network: string;
  payer: string;
  dueDate: string;
  /** How long before the due date this check ran (one of the policy's reminder lead times). */
  leadTimeSeconds: number;
  /** The payer's hosted page for the schedule, where the shortfall can be fixed. */
  payerUrl: string;
  timestamp: string;
}

/**
 * payment.upcoming_failure: the look-ahead read the chain before a recurring payment's due date and
 * found it would fail. Sent once per (schedule, payment, lead time, reason); no transaction is
 * sent at the due time while the read still shows it would revert (the payment goes past_due).
 */
export function upcomingFailureEvent(f: UpcomingFailureFields) {
  return { event: "payment.upcoming_failure" as const, ...f };
}
