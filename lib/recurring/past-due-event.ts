import { tokenOf } from "@/lib/chain/stored";
import { now } from "@/lib/clock";
import { writeOutboxEvent } from "@/lib/events/outbox";
import { pastDueEvent } from "@/lib/events/past-due";
import type { Prisma } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";
import type { FailureReason } from "@/lib/recurring/chain";
import type { ClaimedSchedule } from "@/lib/recurring/claim";
import { payerPageUrl } from "@/lib/recurring/upcoming-event";

export interface PastDueTransition {
  index: number;
  reason: FailureReason;
  failureReason: string;
  missing: bigint | undefined;
  /** Chain times (seconds): the first failed attempt, the next retry, the end of the grace period. */
  since: number;
  nextRetry: number;
  graceEnd: number;
}

/**
 * The one payment.past_due of a schedule's payment, written in the transaction that moves the
 * schedule into past_due (dunning-retry.ts). Its dedupe key is (schedule, payment): a retry of the
 * same payment, or a second transition after an unpause, writes nothing new; the merchant hears
 * of the payment again only through payment.failed (grace over) or payment.confirmed.
 * Sent to the schedule's client ID's webhooks, else the account's, as payment.failed.
 */
export async function writePastDue(tx: Prisma.TransactionClient, s: ClaimedSchedule, t: PastDueTransition): Promise<void> {
  // One after the other: a transaction is one connection.
  const extra = await tx.recurringSchedule.findUnique({ where: { id: s.id }, select: { payerToken: true, relayerFee: true } });
  const request = await tx.paymentRequest.findUnique({
    where: { recurringScheduleId_recurringIndex: { recurringScheduleId: s.id, recurringIndex: t.index } },
    select: { id: true, paymentReference: true },
  });
  const decimals = tokenOf({ network: s.network, paymentCurrency: s.paymentCurrency }).decimals;
  const cost = BigInt(s.amount) + BigInt(s.feeAmount) + BigInt(extra?.relayerFee?.toFixed() ?? "0");
  const iso = (sec: number) => new Date(sec * 1000).toISOString();
  await writeOutboxEvent(tx, {
    accountId: s.accountId,
    clientId: s.clientId,
    type: "payment.past_due",
    dedupeKey: `recurring:${s.id}:past_due:${t.index}`,
    requestId: request?.id ?? null,
    payload: pastDueEvent({
      recurringPaymentId: s.id,
      paymentIndex: t.index,
      requestId: request?.id ?? null,
      paymentReference: request?.paymentReference ?? null,
      reason: t.reason,
      failureReason: t.failureReason,
      amountMissing: formatAmount(t.missing ?? 0n, decimals),
      amount: formatAmount(cost, decimals),
      paymentCurrency: s.paymentCurrency,
      network: s.network,
      payer: s.payer,
      dueDate: iso(s.dueTimes[t.index - 1] ?? t.since),
      pastDueSince: iso(t.since),
      nextRetryDate: iso(t.nextRetry),
      gracePeriodEndsAt: iso(t.graceEnd),
      payerUrl: extra?.payerToken ? payerPageUrl(extra.payerToken) : null,
      timestamp: now().toISOString(),
    }),
  });
}
