import { FIAT_PATH_DECIMALS } from "@/lib/chain/conversion";
import { explorerUrl, tokenOf } from "@/lib/chain/stored";
import { type PaymentConfirmedFields, paymentBody } from "@/lib/events/catalog";
import type { PaymentRequest, Refund } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";

/** What a payment.refunded event adds to the payment fields: the refund, and the request's refund totals after it. */
export interface RefundFields {
  refundId: string;
  refundTxHash: string;
  refundAmount: string;
  /** The payee's confirmed refunds of the request so far (PaymentRequest.amountRefunded). */
  refundedAmount: string;
  /** What the deposit relayer sent back so far (never reached the payee). */
  returnedAmount: string;
  refundStatus: "none" | "partially_refunded" | "refunded";
  toAddress: string;
  reason: string;
  sender: string;
}

/**
 * payment.refunded (the reference's event name; it documents no body): payment.confirmed's fields
 * describing the refund transfer (`amount`, `txHash`, `explorer`, `timestamp` are the refund's;
 * `totalAmountPaid` the request's), `subStatus` the request's refund status after it (`returned`
 * for the deposit relayer's return), then the refund fields. Sent for every refund detection records.
 */
export function paymentRefundedEvent(f: PaymentConfirmedFields & { subStatus: string; refund: RefundFields }) {
  const r = f.refund;
  return {
    event: "payment.refunded" as const,
    ...paymentBody(f),
    refundId: r.refundId,
    refundTxHash: r.refundTxHash,
    refundAmount: r.refundAmount,
    refundedAmount: r.refundedAmount,
    returnedAmount: r.returnedAmount,
    refundStatus: r.refundStatus,
    toAddress: r.toAddress,
    reason: r.reason,
    sender: r.sender,
    ...(f.receiptUrl ? { receiptUrl: f.receiptUrl } : {}),
  };
}

/** payment.refunded for a refund detection has just confirmed (`totals`: the request's, this refund included). */
export function paymentRefundedPayload(
  request: PaymentRequest,
  refund: Refund,
  totals: { refunded: bigint; returned: bigint; refundStatus: RefundFields["refundStatus"] },
  receiptUrl?: string,
) {
  const token = tokenOf(request);
  const units = (u: bigint) => formatAmount(u, token.decimals);
  const owed = (d: { toFixed(): string }) => formatAmount(BigInt(d.toFixed()), request.isConversion ? FIAT_PATH_DECIMALS : token.decimals);
  const txHash = refund.txHash ?? "";
  const amount = units(BigInt(refund.amount.toFixed()));
  return paymentRefundedEvent({
    requestId: request.id,
    paymentReference: request.paymentReference,
    explorer: explorerUrl(refund.network, txHash),
    amount,
    totalAmountPaid: owed(request.amountPaid),
    expectedAmount: owed(request.expectedAmount),
    timestamp: (refund.blockTime ?? refund.confirmedAt ?? refund.createdAt).toISOString(),
    txHash,
    network: request.network,
    currency: request.invoiceCurrency,
    paymentCurrency: request.paymentCurrency,
    fees: [],
    reference: request.reference,
    receiptUrl,
    subStatus: refund.sender === "relayer" ? "returned" : totals.refundStatus,
    refund: {
      refundId: refund.id,
      refundTxHash: txHash,
      refundAmount: amount,
      refundedAmount: units(totals.refunded),
      returnedAmount: units(totals.returned),
      refundStatus: totals.refundStatus,
      toAddress: refund.toAddress,
      reason: refund.reason,
      sender: refund.sender,
    },
  });
}
