import { pastDueEvent } from "@/lib/events/past-due";
import { requestPastDueEvent, requestUpcomingEvent } from "@/lib/events/request-dunning";
import { ulid } from "@/lib/ids";

/** Samples of the dunning events (POST /v1/webhook/test), from their builders; samples.ts hands the shared identifiers in. */
export function dunningSample(
  type: "payment.past_due" | "request.upcoming" | "request.past_due",
  ids: { requestId: string; paymentReference: string; wallet: string; at: Date },
): Record<string, unknown> {
  const { requestId, paymentReference, wallet, at } = ids;
  const day = 86_400_000;
  const iso = (ms: number) => new Date(at.getTime() + ms).toISOString();
  switch (type) {
    case "payment.past_due":
      return pastDueEvent({
        recurringPaymentId: ulid(),
        paymentIndex: 2,
        requestId,
        paymentReference,
        reason: "insufficient_balance",
        failureReason: "The payer's token balance is below the payment amount.",
        amountMissing: "4.5",
        amount: "10",
        paymentCurrency: "USDC-base",
        network: "base",
        payer: wallet,
        dueDate: iso(-300_000),
        pastDueSince: iso(-300_000),
        nextRetryDate: iso(900_000),
        gracePeriodEndsAt: iso(7 * day - 300_000),
        payerUrl: "https://duebill.example/subscriptions/sample-token",
        timestamp: iso(0),
      });
    case "request.upcoming":
      return requestUpcomingEvent({
        recurringPaymentId: ulid(),
        paymentIndex: 3,
        originalRequestId: requestId,
        reason: "insufficient_balance",
        amountMissing: "4.5",
        amount: "10",
        paymentCurrency: "USDC-base",
        network: "base",
        payer: wallet,
        dueDate: iso(day),
        leadTimeSeconds: 86_400,
        timestamp: iso(0),
      });
    case "request.past_due":
      return requestPastDueEvent({
        requestId,
        paymentReference,
        originalRequestId: requestId.replace(/.$/, "0"),
        recurringPaymentId: ulid(),
        paymentIndex: 2,
        reason: "unpaid",
        amount: "10",
        amountMissing: "10",
        paymentCurrency: "USDC-base",
        network: "base",
        payer: wallet,
        dueDate: iso(-7 * day),
        gracePeriodEndsAt: iso(0),
        paymentUrl: "https://duebill.example/pay/sample-link",
        timestamp: iso(0),
      });
  }
}
