/** The request.recurring event (issue 29): the one builder of its body, as catalog.ts is for the others. */

interface RequestRecurringFields {
  requestId: string;
  paymentReference: string;
  originalRequestId: string;
  /** The series' ID (RequestRecurrence.id), the same for every period. */
  recurringPaymentId: string;
  /** The period (1-based; the original is 1, so the first event says 2). */
  paymentIndex: number;
  amount: string;
  paymentCurrency: string;
  network: string;
  timestamp: string;
}

/**
 * request.recurring: a recurring request's next period was created. The reference documents the
 * event by name only; this is its sample's shape (lib/events/samples.ts), key for key, which
 * tests/recurring/recurring-requests.test.ts holds it to. Easy Invoice reads `requestId`,
 * `originalRequestId` and `paymentReference` from it to copy the original invoice.
 */
export function requestRecurringEvent(f: RequestRecurringFields) {
  return {
    event: "request.recurring" as const,
    requestId: f.requestId,
    requestID: f.requestId,
    paymentReference: f.paymentReference,
    originalRequestId: f.originalRequestId,
    recurringPaymentId: f.recurringPaymentId,
    paymentIndex: f.paymentIndex,
    amount: f.amount,
    paymentCurrency: f.paymentCurrency,
    network: f.network,
    timestamp: f.timestamp,
  };
}
