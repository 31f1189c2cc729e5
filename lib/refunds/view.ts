import { explorerUrl, tokenOf } from "@/lib/chain/stored";
import type { Payment, PaymentRequest, Refund } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";
import { ledgerOf, refundStatusOf } from "@/lib/refunds/ledger";

/** One refund as the API and the dashboard show it; amounts are decimal strings in the payment currency. */
export function toRefundView(refund: Refund, request: Pick<PaymentRequest, "network" | "paymentCurrency">) {
  const decimals = tokenOf(request).decimals;
  return {
    id: refund.id,
    requestId: refund.requestId,
    status: refund.status,
    reason: refund.reason,
    sender: refund.sender,
    amount: formatAmount(BigInt(refund.amount.toFixed()), decimals),
    currency: request.paymentCurrency,
    network: refund.network,
    tokenAddress: refund.tokenAddress,
    toAddress: refund.toAddress,
    refundReference: refund.refundReference,
    warning: refund.warning,
    txHash: refund.txHash,
    blockNumber: refund.blockNumber === null ? null : Number(refund.blockNumber),
    explorer: refund.txHash ? explorerUrl(refund.network, refund.txHash) : null,
    createdAt: refund.createdAt.toISOString(),
    sentAt: refund.sentAt?.toISOString() ?? null,
    confirmedAt: refund.confirmedAt?.toISOString() ?? null,
    cancelledAt: refund.cancelledAt?.toISOString() ?? null,
  };
}

export type RefundView = ReturnType<typeof toRefundView>;

/**
 * The refund fields of GET /v2/request/{id}: the payee's confirmed refunds (`refundedAmount`, as
 * PaymentRequest.amountRefunded), what the deposit relayer sent back (`returnedAmount`), the
 * request's `refundStatus`, what can still be refunded, and every refund, oldest first.
 */
export function refundFieldsOf(
  row: PaymentRequest,
  payments: readonly Pick<Payment, "amount" | "feeAmount">[],
  refunds: readonly Refund[],
) {
  const decimals = tokenOf(row).decimals;
  const sum = (xs: readonly { toFixed(): string }[]) => xs.reduce((a, d) => a + BigInt(d.toFixed()), 0n);
  const ledger = ledgerOf({ amount: sum(payments.map((p) => p.amount)), feeAmount: sum(payments.map((p) => p.feeAmount)) }, refunds);
  return {
    refundedAmount: formatAmount(BigInt(row.amountRefunded.toFixed()), decimals),
    returnedAmount: formatAmount(ledger.returned, decimals),
    refundableAmount: formatAmount(row.kind === "request" ? ledger.refundable : 0n, decimals),
    refundStatus: refundStatusOf({ received: ledger.received, refunded: BigInt(row.amountRefunded.toFixed()) }),
    refunds: [...refunds].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map((r) => toRefundView(r, row)),
  };
}
