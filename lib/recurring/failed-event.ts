import { tokenOf } from "@/lib/chain/stored";
import { now } from "@/lib/clock";
import { paymentFailedEvent } from "@/lib/events/catalog";
import { writeOutboxEvent } from "@/lib/events/outbox";
import type { Prisma } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";
import type { FailureReason } from "@/lib/recurring/chain";
import type { ClaimedSchedule } from "@/lib/recurring/claim";

/** The subStatus of DECISIONS.md: balance or allowance short → insufficient_funds, anything else → failed. */
export function failureSubStatus(code: FailureReason): "insufficient_funds" | "failed" {
  return code === "insufficient_balance" || code === "insufficient_allowance" ? "insufficient_funds" : "failed";
}

/**
 * The one payment.failed of a pause, written in the pause's transaction. Its dedupe key is the
 * schedule's failure count, so a retried write is a no-op and each pause reports once.
 */
export async function writePaymentFailed(
  tx: Prisma.TransactionClient,
  s: ClaimedSchedule,
  index: number,
  code: FailureReason,
  failureReason: string,
  failureCount: number,
): Promise<void> {
  const request = await tx.paymentRequest.findUnique({
    where: { recurringScheduleId_recurringIndex: { recurringScheduleId: s.id, recurringIndex: Math.min(index, s.totalPayments) } },
    select: { id: true, paymentReference: true },
  });
  if (!request) return; // schedules made outside the API (executor tests) have no requests
  const token = tokenOf({ network: s.network, paymentCurrency: s.paymentCurrency });
  await writeOutboxEvent(tx, {
    accountId: s.accountId,
    clientId: s.clientId,
    type: "payment.failed",
    dedupeKey: `recurring:${s.id}:failed:${failureCount}`,
    requestId: request.id,
    payload: paymentFailedEvent({
      requestId: request.id,
      paymentReference: request.paymentReference,
      subStatus: failureSubStatus(code),
      failureReason,
      amount: formatAmount(BigInt(s.amount), token.decimals),
      paymentCurrency: s.paymentCurrency,
      network: s.network,
      timestamp: now().toISOString(),
      recurring: { recurringPaymentId: s.id, paymentIndex: index, failureCode: code },
    }),
  });
}
