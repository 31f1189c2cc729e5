import { explorerUrl, tokenOf } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import type { Payment, PaymentRequest } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";
import { REQUEST_ID_PATTERN } from "@/lib/payments/reference";

/**
 * Requests are scoped to the caller's account inside the query, so another account's
 * request and a missing one get the same 404.
 */
export async function getRequestOrThrow(accountId: string, requestId: string): Promise<PaymentRequest> {
  if (!REQUEST_ID_PATTERN.test(requestId)) throw notFound("Request not found");
  const row = await db().paymentRequest.findFirst({ where: { id: requestId, accountId } });
  if (!row) throw notFound("Request not found");
  return row;
}

export function toRequestStatus(row: PaymentRequest, payments: Payment[]) {
  const token = tokenOf(row);
  const sorted = [...payments].sort((a, b) => Number(a.blockNumber - b.blockNumber) || a.logIndex - b.logIndex);
  const last = sorted.at(-1);
  const paid = row.status === "paid";
  const fee = BigInt(row.feeAmount.toFixed());
  return {
    requestId: row.id,
    paymentReference: row.paymentReference,
    hasBeenPaid: paid,
    status: row.status,
    isListening: !paid,
    txHash: last?.txHash ?? null,
    network: row.network,
    payee: row.payee,
    payer: row.payer ?? sorted[0]?.payer ?? null,
    amount: row.amount,
    invoiceCurrency: row.invoiceCurrency,
    paymentCurrency: row.paymentCurrency,
    expectedAmount: formatAmount(BigInt(row.expectedAmount.toFixed()), token.decimals),
    totalAmountPaid: formatAmount(BigInt(row.amountPaid.toFixed()), token.decimals),
    payments: sorted.map((p) => ({
      txHash: p.txHash,
      amount: formatAmount(BigInt(p.amount.toFixed()), token.decimals),
      feeAmount: formatAmount(BigInt(p.feeAmount.toFixed()), token.decimals),
      payer: p.payer,
      blockNumber: Number(p.blockNumber),
      timestamp: p.blockTime.toISOString(),
      explorer: explorerUrl(p.network, p.txHash),
    })),
    reference: row.reference,
    customerInfo: (row.customerInfo as Record<string, unknown> | null) ?? null,
    fees:
      paid && fee > 0n
        ? [{ type: "platform", provider: "duebill", amount: formatAmount(fee, token.decimals), currency: token.symbol }]
        : paid
          ? []
          : null,
    ...(row.recurringScheduleId ? { recurringPaymentId: row.recurringScheduleId, paymentIndex: row.recurringIndex } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

/** GET /v2/request/{requestId}. */
export async function getRequestStatus(accountId: string, requestId: string) {
  const row = await getRequestOrThrow(accountId, requestId);
  const payments = await db().payment.findMany({ where: { requestId: row.id } });
  return toRequestStatus(row, payments);
}
