import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { AppError, invalidField, notFound } from "@/lib/errors";
import { loadLink } from "@/lib/secure-payments/page-data";

export interface SubmissionInput {
  txHash?: string;
  safeTxHash?: string;
  payerAddress?: string;
}

/**
 * A *submission*: the transaction the payer's wallet returned for a link, recorded before detection
 * sees it. `POST /v2/secure-payments/{token}/intent` (the reference's path and its `intentId` field
 * keep their name; the link's `intentTxHash`/`intentPayer`/`intentAt` columns too).
 * The link shows "processing" (page, dashboard, API) until detection confirms the payment on chain;
 * the hash is informational only and never settles anything. Recording the same hash again is a
 * no-op; a new hash (the payer retried) replaces it.
 */
export async function recordSubmission(token: string, input: SubmissionInput) {
  const hash = input.txHash ?? input.safeTxHash;
  if (!hash) throw invalidField("txHash", "txHash (or safeTxHash) is required");
  const link = await loadLink(token);
  if (!link) throw notFound("Secure payment not found");
  const { status } = link;
  if (status !== "pending") throw new AppError("conflict", `This payment link is ${status.replace("_", " ")}`);
  const request = link.requests[0];
  if (!request) throw notFound("Secure payment not found");
  if (link.sp.intentTxHash?.toLowerCase() !== hash.toLowerCase()) {
    await db().securePayment.update({
      where: { token: link.sp.token },
      data: { intentTxHash: hash.toLowerCase(), intentPayer: input.payerAddress ?? null, intentAt: now() },
    });
  }
  return {
    intentId: `${link.sp.token}:${hash.toLowerCase().slice(0, 18)}`,
    paymentReference: request.paymentReference,
    ...(input.safeTxHash && !input.txHash ? { safeTxHash: hash.toLowerCase() } : { txHash: hash.toLowerCase() }),
    isListening: true,
    ...(input.payerAddress ? { payerAddress: input.payerAddress } : {}),
  };
}
