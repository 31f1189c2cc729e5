import { parseAddressFor } from "@/lib/chain/address";
import { storedTermsOf, tokenOf } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import { AppError, invalidField, notFound } from "@/lib/errors";
import type { PaymentRequest, Refund } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";
import type { PaymentPlan } from "@/lib/payments/plan";
import { lockRequest, readLedger } from "@/lib/refunds/ledger";
import { refundableRequestOrThrow, refundPlan } from "@/lib/refunds/prepare";
import { type RefundView, refundFieldsOf, toRefundView } from "@/lib/refunds/view";

/**
 * A refund of a request of the account: another account's refund, a refund of another request
 * and a missing one are the same 404 (scoped in the query, like requests).
 */
async function refundOrThrow(accountId: string, requestId: string, refundId: string): Promise<{ row: PaymentRequest; refund: Refund }> {
  const row = await refundableRequestOrThrow(accountId, requestId);
  const refund = await db().refund.findFirst({ where: { id: refundId, requestId: row.id, accountId } });
  if (!refund) throw notFound("Refund not found");
  return { row, refund };
}

/**
 * A transaction hash as detection stores it: EVM `0x` + 64 hex, lowercase; Tron's transaction ID
 * (64 hex, no `0x`, as TronGrid names it), lowercase. 400 naming `txHash` otherwise.
 */
export function parseRefundTxHash(network: string, value: string): string {
  if (network === "tron") {
    if (!/^(0x)?[0-9a-fA-F]{64}$/.test(value)) throw invalidField("txHash", "must be a Tron transaction ID (64 hex characters)");
    return value.replace(/^0x/, "").toLowerCase();
  }
  if (!/^0x[0-9a-fA-F]{64}$/.test(value)) throw invalidField("txHash", "must be a transaction hash (0x + 64 hex characters)");
  return value.toLowerCase();
}

/** GET /v2/request/{requestId}/refunds: the request's refunds (oldest first) and its refund totals. */
export async function listRefunds(accountId: string, requestId: string) {
  const row = await refundableRequestOrThrow(accountId, requestId);
  const [payments, refunds] = await Promise.all([
    db().payment.findMany({ where: { requestId: row.id }, select: { amount: true, feeAmount: true } }),
    db().refund.findMany({ where: { requestId: row.id } }),
  ]);
  const feeKept = payments.reduce((a, p) => a + BigInt(p.feeAmount.toFixed()), 0n);
  return { ...refundFieldsOf(row, payments, refunds), feeKept: formatAmount(feeKept, tokenOf(row).decimals) };
}

/**
 * GET /v2/request/{requestId}/refunds/{refundId}: the refund, and — while it is prepared — the
 * transactions that send it from `wallet` (default: the payee), e.g. for a refund Duebill offered
 * (an overpayment's excess). Once sent, confirmed or cancelled there is nothing to send: [] and null.
 */
export async function getRefund(
  accountId: string,
  requestId: string,
  refundId: string,
  opts: { wallet?: string } = {},
): Promise<{ refund: RefundView; transactions: PaymentPlan["transactions"]; metadata: PaymentPlan["metadata"] | null }> {
  const { row, refund } = await refundOrThrow(accountId, requestId, refundId);
  if (refund.status !== "prepared" || refund.sender !== "payee")
    return { refund: toRefundView(refund, row), transactions: [], metadata: null };
  // Refunds already held (one made by hand, say) can leave this one over what the payee received: never hand out its calldata.
  const ledger = await readLedger(db(), row.id);
  if (ledger.held > ledger.received)
    throw new AppError(
      "conflict",
      "The payee's refunds of this request already exceed what it received: cancel this refund or another before sending it",
    );
  const wallet = opts.wallet === undefined ? row.payee : parseAddressFor(storedTermsOf(row).network, opts.wallet, "wallet");
  const plan = await refundPlan(
    row,
    { toAddress: refund.toAddress, amount: BigInt(refund.amount.toFixed()), refundReference: refund.refundReference },
    wallet,
  );
  return { refund: toRefundView(refund, row), ...plan };
}

/**
 * POST …/refunds/{refundId}/sent: the payee's wallet reports the refund's transaction (status
 * sent). Reporting the same hash again changes nothing; a sent refund takes a new hash (a wallet
 * that sped up or replaced its transaction). Detection confirms it from the chain either way.
 */
export async function markRefundSent(accountId: string, requestId: string, refundId: string, txHash: string): Promise<RefundView> {
  const { row, refund } = await refundOrThrow(accountId, requestId, refundId);
  const hash = parseRefundTxHash(row.network, txHash);
  const updated = await db().$transaction(async (tx) => {
    await lockRequest(tx, row.id);
    const r = await tx.refund.findUniqueOrThrow({ where: { id: refund.id } });
    if (r.sender !== "payee") throw new AppError("conflict", "This refund is sent by Duebill's deposit relayer, not by a wallet");
    if (r.status === "cancelled") throw new AppError("conflict", "This refund was cancelled: prepare a new one");
    if (r.status === "confirmed") {
      if (r.txHash === hash) return r;
      throw new AppError("conflict", `This refund is already confirmed by transaction ${r.txHash}`);
    }
    if (r.status === "sent" && r.txHash === hash) return r;
    return tx.refund.update({ where: { id: r.id }, data: { status: "sent", txHash: hash, sentAt: r.sentAt ?? new Date() } });
  });
  return toRefundView(updated, row);
}

/**
 * POST …/refunds/{refundId}/cancel: withdraws a refund that has not reached the chain, freeing its
 * amount. A sent refund can be cancelled too (its transaction failed or was dropped); if that
 * transaction lands after all, detection still records it (the chain is the truth). Cancelling
 * twice changes nothing; a confirmed refund cannot be cancelled.
 */
export async function cancelRefund(accountId: string, requestId: string, refundId: string): Promise<RefundView> {
  const { row, refund } = await refundOrThrow(accountId, requestId, refundId);
  const updated = await db().$transaction(async (tx) => {
    await lockRequest(tx, row.id);
    const r = await tx.refund.findUniqueOrThrow({ where: { id: refund.id } });
    if (r.status === "cancelled") return r;
    if (r.status === "confirmed") throw new AppError("conflict", "This refund is confirmed on chain: it cannot be cancelled");
    if (r.sender !== "payee") throw new AppError("conflict", "This refund is sent by Duebill's deposit relayer: it cannot be cancelled");
    return tx.refund.update({ where: { id: r.id }, data: { status: "cancelled", cancelledAt: new Date() } });
  });
  return toRefundView(updated, row);
}
