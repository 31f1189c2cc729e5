import { parseAddressFor, sameAddress } from "@/lib/chain/address";
import type { NetworkId } from "@/lib/chain/networks";
import { invalidField } from "@/lib/errors";
import type { PaymentRequest, Prisma, Refund, RefundReason, RefundSender } from "@/lib/generated/prisma/client";
import { prefixedId } from "@/lib/ids";
import { computePaymentReference, referenceTopic } from "@/lib/payments/reference";

/**
 * A request's refund reference: Request Network's payment reference computed with the refund
 * address instead of the payment address (last 8 bytes of keccak256 of the lowercased
 * requestId + salt + refundAddress). A refund sent through the fee proxy under it is a
 * referenced transfer that detection finds like a payment. Two refunds to one address share it.
 */
export function refundReferenceOf(request: Pick<PaymentRequest, "id" | "salt">, refundAddress: string): `0x${string}` {
  return computePaymentReference(request.id, request.salt, refundAddress);
}

export interface NewRefund {
  /** Where the money goes, on the request's network (checked by the caller). */
  to: string;
  /** Token base units. */
  amount: bigint;
  reason: RefundReason;
  sender: RefundSender;
  warning?: string | null;
  /** A relayer's return is written with the transaction it sent (status sent). */
  txHash?: string | null;
}

/**
 * The one way a Refund row is written (the payee's prepared refunds, offered ones, the deposit
 * relayer's returns), in the caller's transaction: reference and topic computed here, so every
 * refund is found by detection the same way. Never to the request's payee (400 naming `to`) when the
 * caller passes it (the deposit relayer's callers know only the deposit address, not the payee).
 */
export async function insertRefund(
  tx: Prisma.TransactionClient,
  request: Pick<PaymentRequest, "id" | "accountId" | "network" | "salt" | "tokenAddress"> & { payee?: string },
  r: NewRefund,
): Promise<Refund> {
  const to = parseAddressFor(request.network as NetworkId, r.to, "to");
  // Its refund reference would be the payment reference: detection would read the refund as a new payment.
  if (request.payee && sameAddress(to, request.payee))
    throw invalidField("to", "is the request's payee: a refund goes back to whoever paid");
  const refundReference = refundReferenceOf(request, to);
  return tx.refund.create({
    data: {
      id: prefixedId("rfd_"),
      requestId: request.id,
      accountId: request.accountId,
      network: request.network,
      tokenAddress: request.tokenAddress,
      toAddress: to,
      amount: r.amount.toString(),
      refundReference,
      referenceHash: referenceTopic(refundReference),
      reason: r.reason,
      sender: r.sender,
      warning: r.warning ?? null,
      status: r.txHash ? "sent" : "prepared",
      txHash: r.txHash ?? null,
      sentAt: r.txHash ? new Date() : null,
    },
  });
}
