import { randomBytes } from "node:crypto";
import { explorerUrl } from "@/lib/chain/stored";
import { now } from "@/lib/clock";
import {
  clientIdLinkedEvent,
  explorerAddressUrl,
  paymentConfirmedEvent,
  paymentFailedEvent,
  paymentPartialEvent,
  type TestEventType,
} from "@/lib/events/catalog";
import { dunningSample } from "@/lib/events/dunning-samples";
import { paymentRefundedEvent } from "@/lib/events/refunded";
import { upcomingFailureEvent } from "@/lib/events/upcoming-failure";
import { ulid } from "@/lib/ids";

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** A sample body of each type (POST /v1/webhook/test), from the same builders, with fresh random identifiers. */
export function sampleEvent(type: TestEventType, at: Date = now()): Record<string, unknown> {
  const [requestId, paymentReference, txHash, timestamp] = [`01${hex(32)}`, `0x${hex(8)}`, `0x${hex(32)}`, at.toISOString()];
  const payer = `0x${hex(20)}`;
  const fields = (totalAmountPaid: string) => ({
    requestId,
    paymentReference,
    explorer: explorerUrl("base", txHash),
    amount: totalAmountPaid,
    totalAmountPaid,
    expectedAmount: "10",
    timestamp,
    txHash,
    network: "base",
    currency: "USD",
    paymentCurrency: "USDC-base",
    fees: [],
    reference: "INV-1001",
    label: { amountLabel: "exact" as const, excessAmount: "0" },
    payerAddress: payer,
    payerEoaAddress: payer,
  });
  const confirmed = (totalAmountPaid: string) => paymentConfirmedEvent(fields(totalAmountPaid));
  const payment = (event: string, totalAmountPaid: string, subStatus = "") => ({ ...confirmed(totalAmountPaid), event, subStatus });
  const wallet = `0x${hex(20)}`;
  const token = ulid();
  switch (type) {
    case "payment.processing":
      return payment("payment.processing", "0");
    case "payment.partial":
      // As detection sends it: the amount arrived, the fee did not (subStatus fee_short, what is missing and where).
      return paymentPartialEvent({
        ...fields("10"),
        missingFees: [{ type: "platform", feeAddress: wallet, amount: "0.5", currency: "USDC" }],
      });
    case "payment.refunded":
      // As detection sends it: the payee refunded the whole 10 (the fee stays with the fee address); txHash is the refund's.
      return paymentRefundedEvent({
        ...fields("10"),
        subStatus: "refunded",
        refund: {
          refundId: `rfd_${ulid()}`,
          refundTxHash: txHash,
          refundAmount: "10",
          refundedAmount: "10",
          returnedAmount: "0",
          refundStatus: "refunded",
          toAddress: wallet,
          reason: "requested",
          sender: "payee",
        },
      });
    case "request.recurring":
      return {
        event: "request.recurring",
        requestId,
        requestID: requestId,
        paymentReference,
        originalRequestId: `01${hex(32)}`,
        recurringPaymentId: ulid(),
        paymentIndex: 2,
        amount: "10",
        paymentCurrency: "USDC-base",
        network: "base",
        timestamp,
      };
    case "payment_detail.updated":
      return { event: "payment_detail.updated", paymentDetailsId: ulid(), clientUserId: "user-123", status: "approved", timestamp };
    case "compliance.updated":
      return { event: "compliance.updated", clientUserId: "user-123", kycStatus: "approved", agreementStatus: "completed", timestamp };
    case "secure_payment.access_rejected":
      return { event: "secure_payment.access_rejected", requestId, attemptedPayerWalletAddress: wallet, timestamp };
    case "kyt.screening.completed":
      return {
        event: "kyt.screening.completed",
        paymentToken: token,
        walletAddress: wallet,
        eoaAddress: wallet,
        smartAccountAddress: null,
        status: "approved",
        provider: "duebill-sanctions-list",
        policyId: null,
        timestamp,
      };
    case "secure_payment.user_event":
      return {
        event: "secure_payment.user_event",
        userEvent: "wallet_connected",
        securePaymentToken: token,
        requestId,
        requestIds: [requestId],
        orchestratorId: null,
        occurredAt: timestamp,
        timestamp,
        properties: { walletAddress: wallet },
      };
    case "payment.failed": {
      // A recurring payment stopped by its dry run: no transaction, so txHash "" and the payer's address page.
      const payer = `0x${hex(20)}`;
      return paymentFailedEvent({
        requestId,
        paymentReference,
        explorer: explorerAddressUrl("base", payer),
        amount: "10",
        totalAmountPaid: "0",
        expectedAmount: "10",
        timestamp,
        txHash: "",
        network: "base",
        currency: "USD",
        paymentCurrency: "USDC-base",
        fees: [],
        reference: "INV-1001",
        subStatus: "insufficient_funds",
        failureReason: "The payer's token balance is below the payment amount.",
        recurring: { recurringPaymentId: ulid(), paymentIndex: 2, failureCode: "insufficient_balance" },
      });
    }
    case "payment.past_due":
    case "request.upcoming":
    case "request.past_due":
      return dunningSample(type, { requestId, paymentReference, wallet, at });
    case "payment.upcoming_failure":
      return upcomingFailureEvent({
        recurringPaymentId: ulid(),
        paymentIndex: 2,
        requestId,
        paymentReference,
        reason: "insufficient_balance",
        amountMissing: "4.5",
        missingCurrency: "USDC-base",
        amount: "10",
        paymentCurrency: "USDC-base",
        network: "base",
        payer: wallet,
        dueDate: new Date(at.getTime() + 86_400_000).toISOString(),
        leadTimeSeconds: 86_400,
        payerUrl: "https://duebill.example/subscriptions/sample-token",
        timestamp,
      });
    case "client_id.linked":
      return clientIdLinkedEvent({
        clientId: `cli_${ulid().toLowerCase()}`,
        orchestratorId: `okey_${ulid().toLowerCase()}`,
        linkId: ulid(),
        intentId: ulid(),
        externalId: "test-external-id",
        destinationId: ulid(),
        destinationWalletAddress: `0x${hex(20)}`,
        network: "base",
        currency: "USDC-base",
        timestamp,
      });
    case "payment.confirmed":
      return confirmed("10");
  }
}
