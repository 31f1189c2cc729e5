import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { findReceipt, type IssuedReceipt, receiptForPayment, receiptForRefund } from "@/lib/receipts/issue";
import type { SignedReceipt } from "@/lib/receipts/types";

/** The receipts the API serves: by id (public, the id is the capability), or an account's by payment or refund. */

/** The public receipt by id; 404 for an unknown (or malformed) id. */
export async function publicReceipt(receiptId: string): Promise<IssuedReceipt> {
  const found = await findReceipt(receiptId);
  if (!found) throw notFound("Receipt not found");
  return { id: found.id, signed: found.signed };
}

/** The receipt of one of the account's payments; another account's payment answers 404 like an unknown one. */
export async function accountPaymentReceipt(accountId: string, paymentId: string): Promise<SignedReceipt> {
  const payment = await db().payment.findUnique({ where: { id: paymentId }, select: { accountId: true } });
  if (payment?.accountId !== accountId) throw notFound("Payment not found");
  const issued = await receiptForPayment(paymentId);
  if (!issued) throw notFound("Payment not found");
  return issued.signed;
}

/** The receipt of a confirmed refund of one of the account's requests; 404 otherwise (not confirmed yet included). */
export async function accountRefundReceipt(accountId: string, requestId: string, refundId: string): Promise<SignedReceipt> {
  const refund = await db().refund.findUnique({ where: { id: refundId }, select: { accountId: true, requestId: true } });
  if (refund?.accountId !== accountId || refund.requestId !== requestId) throw notFound("Refund not found");
  const issued = await receiptForRefund(refundId);
  if (!issued) throw notFound("Refund not confirmed yet: its receipt is issued once detection confirms it on chain");
  return issued.signed;
}
