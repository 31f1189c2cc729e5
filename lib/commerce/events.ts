import { explorerUrl, tokenOf } from "@/lib/chain/stored";
import type { OutboxEventType } from "@/lib/events/commerce";
import type { CommercePayment, PaymentRequest } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";
import { amountsOf, capturableOf } from "./state";

export type EscrowKind = "authorized" | "captured" | "voided" | "reclaimed" | "refunded";

/** The webhook of each escrow event. A refund of a capture is payment.capture_refunded: payment.refunded's body describes a Refund row. */
export const EVENT_OF_KIND: Record<EscrowKind, OutboxEventType> = {
  authorized: "payment.authorized",
  captured: "payment.captured",
  voided: "payment.voided",
  reclaimed: "payment.reclaimed",
  refunded: "payment.capture_refunded",
};

/**
 * The body of every commerce payment webhook (docs/guides/escrow.md): what happened (`amount`,
 * `feeAmount`, the transaction), then the payment's amounts and deadlines after it. Decimal strings in
 * the payment currency.
 */
export function commerceEventPayload(
  request: PaymentRequest,
  cp: CommercePayment,
  e: { kind: EscrowKind; amount: bigint; feeAmount: bigint; txHash: string; at: Date },
) {
  const token = tokenOf(request);
  const fmt = (u: bigint) => formatAmount(u, token.decimals);
  const a = amountsOf(cp);
  return {
    event: EVENT_OF_KIND[e.kind],
    requestId: request.id,
    requestID: request.id,
    paymentReference: request.paymentReference,
    commercePaymentId: cp.id,
    paymentId: cp.paymentId,
    network: cp.network,
    currency: request.paymentCurrency,
    amount: fmt(e.amount),
    feeAmount: fmt(e.feeAmount),
    txHash: e.txHash,
    explorer: explorerUrl(cp.network, e.txHash),
    timestamp: e.at.toISOString(),
    status: cp.status,
    payerAddress: cp.payer,
    payee: request.payee,
    operator: cp.operator,
    authorizedAmount: fmt(a.authorized),
    capturedAmount: fmt(a.captured),
    capturableAmount: fmt(capturableOf(a)),
    voidedAmount: fmt(a.voided),
    reclaimedAmount: fmt(a.reclaimed),
    refundedAmount: fmt(a.refunded),
    authorizationExpiry: cp.authorizationExpiry.toISOString(),
    reference: request.reference,
  };
}
