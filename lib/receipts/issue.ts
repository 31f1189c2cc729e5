import { db } from "@/lib/db";
import type { Payment, PaymentRequest, Prisma } from "@/lib/generated/prisma/client";
import { prefixedId } from "@/lib/ids";
import { log } from "@/lib/log";
import { buildPaymentReceipt, buildRefundReceipt, receiptJsonUrl } from "@/lib/receipts/build";
import { canonicalize } from "@/lib/receipts/canonical";
import { type KeyRing, ReceiptKeysUnavailable, receiptKeyRing } from "@/lib/receipts/keys";
import { signReceipt } from "@/lib/receipts/sign";
import type { SignedReceipt } from "@/lib/receipts/types";

/**
 * Issuing receipts (docs/guides/receipts.md): one per recorded payment and per confirmed refund,
 * signed once and stored as signed (Receipt.payload is the canonical JSON, never re-serialised).
 * Detection issues it in the transaction that records the transfer; the readers below issue it on
 * first read for transfers recorded before receipts existed. The unique paymentId / refundId and
 * INSERT … ON CONFLICT DO NOTHING make concurrent issues end in one row: the loser reads the winner's.
 */
type Tx = Prisma.TransactionClient;

export interface IssuedReceipt {
  id: string;
  signed: SignedReceipt;
}

const newReceiptId = () => prefixedId("rcp_");

/** A stored row back as the signed receipt it is. */
export function signedOf(row: { payload: string; signature: string; keyId: string }): SignedReceipt {
  return { receipt: JSON.parse(row.payload), signature: { alg: "Ed25519", keyId: row.keyId, value: row.signature } };
}

async function store(tx: Tx, accountId: string, link: { paymentId: string } | { refundId: string }, signed: SignedReceipt) {
  await tx.receipt.createMany({
    data: [
      {
        id: signed.receipt.id,
        accountId,
        ...link,
        keyId: signed.signature.keyId,
        payload: canonicalize(signed.receipt),
        signature: signed.signature.value,
      },
    ],
    skipDuplicates: true,
  });
  // Inserted, or another transaction's row for the same transfer won: either way, the one stored.
  const row = await tx.receipt.findUniqueOrThrow({ where: link });
  return { id: row.id, signed: signedOf(row) };
}

/** The key ring, or null (logged) where receipts cannot be signed: recording a payment never fails for a receipt. */
function ringOrNull(): KeyRing | null {
  try {
    return receiptKeyRing();
  } catch (err) {
    if (!(err instanceof ReceiptKeysUnavailable)) throw err;
    log.error("receipts are not issued", { error: err.message });
    return null;
  }
}

/** Issues (or finds) a payment's receipt inside the caller's transaction; null when it cannot be signed. */
export async function issuePaymentReceipt(tx: Tx, paymentId: string): Promise<IssuedReceipt | null> {
  const existing = await tx.receipt.findUnique({ where: { paymentId } });
  if (existing) return { id: existing.id, signed: signedOf(existing) };
  const ring = ringOrNull();
  if (!ring) return null;
  const payment = await tx.payment.findUnique({ where: { id: paymentId }, include: { request: true } });
  if (!payment) return null;
  const signed = signReceipt(await buildPaymentReceipt(tx, newReceiptId(), payment, payment.request), ring);
  return store(tx, payment.accountId, { paymentId }, signed);
}

/**
 * The receipt of a payment inserted in this very transaction (detection): no receipt can exist for it
 * yet and no other transaction can write one (the payment row is not committed), so it is signed and
 * inserted without the reads issuePaymentReceipt makes; `request` as it stands in the transaction.
 */
export async function issueNewPaymentReceipt(tx: Tx, payment: Payment, request: PaymentRequest): Promise<IssuedReceipt | null> {
  const ring = ringOrNull();
  if (!ring) return null;
  const signed = signReceipt(await buildPaymentReceipt(tx, newReceiptId(), payment, request), ring);
  await tx.receipt.create({
    data: {
      id: signed.receipt.id,
      accountId: payment.accountId,
      paymentId: payment.id,
      keyId: signed.signature.keyId,
      payload: canonicalize(signed.receipt),
      signature: signed.signature.value,
    },
    select: { id: true },
  });
  return { id: signed.receipt.id, signed };
}

/** Issues (or finds) a confirmed refund's receipt inside the caller's transaction; null when not confirmed or not signable. */
export async function issueRefundReceipt(tx: Tx, refundId: string, emitter: string | null = null): Promise<IssuedReceipt | null> {
  const existing = await tx.receipt.findUnique({ where: { refundId } });
  if (existing) return { id: existing.id, signed: signedOf(existing) };
  const refund = await tx.refund.findUnique({ where: { id: refundId }, include: { request: true } });
  if (refund?.status !== "confirmed") return null;
  const { txHash, logIndex, blockNumber, blockHash } = refund;
  if (txHash === null || logIndex === null || blockNumber === null || blockHash === null) return null;
  const ring = ringOrNull();
  if (!ring) return null;
  const row = { ...refund, txHash, logIndex, blockNumber, blockHash };
  const signed = signReceipt(await buildRefundReceipt(tx, newReceiptId(), row, refund.request, emitter), ring);
  return store(tx, refund.accountId, { refundId }, signed);
}

/** The receipt's public JSON URL (what payment.confirmed and payment.refunded carry as `receiptUrl`). */
export { receiptJsonUrl, receiptPageUrl } from "@/lib/receipts/build";

/** The receipt of a recorded payment, issued on first call; null when no such payment is recorded. */
export async function receiptForPayment(paymentId: string): Promise<IssuedReceipt | null> {
  const row = await db().receipt.findUnique({ where: { paymentId } });
  if (row) return { id: row.id, signed: signedOf(row) };
  const issued = await db().$transaction((tx) => issuePaymentReceipt(tx, paymentId));
  if (!issued && (await db().payment.count({ where: { id: paymentId } })) > 0) receiptKeyRing(); // throws why it cannot sign
  return issued;
}

/** The receipt of a confirmed refund, issued on first call; null when the refund is not confirmed (or unknown). */
export async function receiptForRefund(refundId: string): Promise<IssuedReceipt | null> {
  const row = await db().receipt.findUnique({ where: { refundId } });
  if (row) return { id: row.id, signed: signedOf(row) };
  const issued = await db().$transaction((tx) => issueRefundReceipt(tx, refundId));
  if (!issued && (await db().refund.count({ where: { id: refundId, status: "confirmed" } })) > 0) receiptKeyRing();
  return issued;
}

/** A stored receipt by id (the public routes and page), with the rows it belongs to. */
export async function findReceipt(id: string) {
  if (!/^rcp_[0-9a-z]{26}$/.test(id)) return null;
  const row = await db().receipt.findUnique({ where: { id } });
  return row ? { id: row.id, accountId: row.accountId, paymentId: row.paymentId, refundId: row.refundId, signed: signedOf(row) } : null;
}

export function receiptUrlOrNull(issued: IssuedReceipt | null): string | undefined {
  return issued ? receiptJsonUrl(issued.id) : undefined;
}
