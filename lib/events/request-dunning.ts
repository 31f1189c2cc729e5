/**
 * The recurring requests' dunning events (issue 32 item 5): request.upcoming and request.past_due.
 * The one builder of each body, as catalog.ts is for the others. A recurring request has no pull:
 * each period is a request the payer pays by its link, so these go to the integrator, who owns the
 * payer relationship and reminds its payer (docs/guides/recurring.md "Recurring requests").
 */

export interface RequestUpcomingFields {
  /** The series' ID (as request.recurring's recurringPaymentId). */
  recurringPaymentId: string;
  /** The period (1-based) about to be issued. */
  paymentIndex: number;
  originalRequestId: string;
  /** `period_upcoming` (nothing known to be short), or `insufficient_balance` (the request names a payer whose balance is below the amount). */
  reason: "period_upcoming" | "insufficient_balance";
  /** Decimal in paymentCurrency; "0" for period_upcoming. */
  amountMissing: string;
  amount: string;
  paymentCurrency: string;
  network: string;
  payer: string | null;
  /** When the period's request is issued (and due). */
  dueDate: string;
  /** Which reminder lead time (seconds before dueDate) this is. */
  leadTimeSeconds: number;
  timestamp: string;
}

/** request.upcoming: a recurring request's next period is issued in `leadTimeSeconds`; once per (series, period, lead time). */
export function requestUpcomingEvent(f: RequestUpcomingFields) {
  return { event: "request.upcoming" as const, ...f };
}

export interface RequestPastDueFields {
  requestId: string;
  paymentReference: string;
  originalRequestId: string;
  recurringPaymentId: string;
  paymentIndex: number;
  /** `unpaid` (nothing received) or `partially_paid`. */
  reason: "unpaid" | "partially_paid";
  amount: string;
  /** What is still owed, decimal in paymentCurrency. */
  amountMissing: string;
  paymentCurrency: string;
  network: string;
  payer: string | null;
  dueDate: string;
  /** dueDate + the account's grace period: when this was sent at the earliest. */
  gracePeriodEndsAt: string;
  /** The period's hosted payment link (send it to the payer), null when it has none. */
  paymentUrl: string | null;
  timestamp: string;
}

/** request.past_due: a period's request is still not paid in full when its grace period ended; once per request. */
export function requestPastDueEvent(f: RequestPastDueFields) {
  const { requestId, ...rest } = f;
  return { event: "request.past_due" as const, requestId, requestID: requestId, ...rest };
}
