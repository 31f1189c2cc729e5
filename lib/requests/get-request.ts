import { AppError, notFound } from "@/lib/api/errors";
import { networkRuntime } from "@/lib/chain/config";
import { isNetworkId, NETWORKS, type NetworkId } from "@/lib/chain/networks";
import { db } from "@/lib/db/client";
import type { Payment, PaymentRequest } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money/amount";
import { REQUEST_ID_PATTERN } from "./reference";

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

export function networkOf(row: Pick<PaymentRequest, "network">): NetworkId {
  if (!isNetworkId(row.network)) throw new AppError("internal_error", `Stored request has unknown network ${row.network}`);
  return row.network;
}

export function tokenOf(row: Pick<PaymentRequest, "network" | "paymentCurrency">) {
  const symbol = row.paymentCurrency.slice(0, row.paymentCurrency.lastIndexOf("-"));
  const token = networkRuntime(networkOf(row)).tokens.find((t) => t.symbol === symbol);
  if (!token) throw new AppError("internal_error", `Stored request has unknown currency ${row.paymentCurrency}`);
  return token;
}

export function explorerUrl(network: string, txHash: string): string {
  return isNetworkId(network) ? `${NETWORKS[network].explorerTxUrl}${txHash}` : txHash;
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
    fees: paid && fee > 0n ? [{ type: "platform", provider: "duebill", amount: formatAmount(fee, token.decimals), currency: token.symbol }] : paid ? [] : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** GET /v2/request/{requestId}. */
export async function getRequestStatus(accountId: string, requestId: string) {
  const row = await getRequestOrThrow(accountId, requestId);
  const payments = await db().payment.findMany({ where: { requestId: row.id } });
  return toRequestStatus(row, payments);
}
