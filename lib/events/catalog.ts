import { explorerUrl, tokenOf } from "@/lib/chain/stored";
import type { Payment, PaymentRequest } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";

/** The interface's payment.confirmed body (test deliveries use the same shape). */
export function paymentConfirmedPayload(request: PaymentRequest, payment: Payment) {
  const token = tokenOf(request);
  const fee = BigInt(payment.feeAmount.toFixed());
  return {
    event: "payment.confirmed",
    requestId: request.id,
    requestID: request.id,
    paymentReference: request.paymentReference,
    explorer: explorerUrl(payment.network, payment.txHash),
    amount: formatAmount(BigInt(payment.amount.toFixed()), token.decimals),
    totalAmountPaid: formatAmount(BigInt(request.amountPaid.toFixed()), token.decimals),
    expectedAmount: formatAmount(BigInt(request.expectedAmount.toFixed()), token.decimals),
    timestamp: payment.blockTime.toISOString(),
    txHash: payment.txHash,
    network: request.network,
    currency: request.invoiceCurrency,
    paymentCurrency: request.paymentCurrency,
    isCryptoToFiat: false,
    subStatus: "",
    paymentProcessor: "request-network",
    fees: fee > 0n ? [{ type: "platform", amount: formatAmount(fee, token.decimals), currency: token.symbol }] : [],
  };
}
