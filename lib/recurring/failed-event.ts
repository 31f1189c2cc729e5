import { now } from "@/lib/clock";
import { paymentFailedPayload } from "@/lib/events/catalog";
import { writeOutboxEvent } from "@/lib/events/outbox";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { FailureReason } from "@/lib/recurring/chain";
import type { ClaimedSchedule } from "@/lib/recurring/claim";

/** The subStatus of docs/spec/DECISIONS.md: balance or allowance short → insufficient_funds, anything else → failed. */
export function failureSubStatus(code: FailureReason): "insufficient_funds" | "failed" {
  return code === "insufficient_balance" || code === "insufficient_allowance" ? "insufficient_funds" : "failed";
}

/**
 * The one payment.failed of a pause, written in the pause's transaction, with the interface's
 * payment-event fields (lib/events/catalog.ts paymentFailedPayload): `txHash` is the index's
 * reverted transaction when one was mined, "" when the dry run stopped it before any was sent.
 * Its dedupe key is the schedule's failure count, so a retried write is a no-op and each pause
 * reports once.
 */
export async function writePaymentFailed(
  tx: Prisma.TransactionClient,
  s: ClaimedSchedule,
  index: number,
  code: FailureReason,
  failureReason: string,
  failureCount: number,
  txHash: string | null = null,
): Promise<void> {
  const request = await tx.paymentRequest.findUnique({
    where: { recurringScheduleId_recurringIndex: { recurringScheduleId: s.id, recurringIndex: Math.min(index, s.totalPayments) } },
  });
  if (!request) return; // schedules made outside the API (executor tests) have no requests
  await writeOutboxEvent(tx, {
    accountId: s.accountId,
    clientId: s.clientId,
    type: "payment.failed",
    dedupeKey: `recurring:${s.id}:failed:${failureCount}`,
    requestId: request.id,
    payload: paymentFailedPayload(request, {
      amount: BigInt(s.amount),
      feeAmount: BigInt(s.feeAmount),
      payer: s.payer,
      txHash,
      timestamp: now().toISOString(),
      subStatus: failureSubStatus(code),
      failureReason,
      recurring: { recurringPaymentId: s.id, paymentIndex: index, failureCode: code },
    }),
  });
}
