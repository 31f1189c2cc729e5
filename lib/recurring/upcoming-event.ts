import { randomBytes } from "node:crypto";
import { formatEther } from "viem";
import { tokenOf } from "@/lib/chain/stored";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { writeOutboxEvent } from "@/lib/events/outbox";
import { upcomingFailureEvent } from "@/lib/events/upcoming-failure";
import { ulid } from "@/lib/ids";
import { formatAmount } from "@/lib/money";
import type { LookaheadRow } from "@/lib/recurring/lookahead";

/** Why an upcoming payment would fail (the look-ahead's machine-readable reasons). */
export const UPCOMING_REASONS = ["insufficient_balance", "insufficient_allowance", "permit_expiring", "relayer_unfunded"] as const;
export type UpcomingReason = (typeof UPCOMING_REASONS)[number];

export interface Shortfall {
  schedule: LookaheadRow;
  index: number;
  /** The lead time (seconds before the due time) this warning is for. */
  lead: number;
  due: Date;
  reason: UpcomingReason;
  /** Token base units missing; wei of the network's gas token for relayer_unfunded; 0 for permit_expiring. */
  missing: bigint;
}

/** The payer's hosted page for a schedule (app/subscriptions/[token]). */
export const payerPageUrl = (token: string) => `${env().APP_URL.replace(/\/$/, "")}/subscriptions/${token}`;

/**
 * One `payment.upcoming_failure` per (schedule, period, lead time, reason), with its reminder row
 * (what the dashboard and the payer's page show), in one transaction: the unique reminder row and
 * the outbox's dedupe key make concurrent or repeated look-aheads write it once. Returns how many
 * were new. Sent to the schedule's client ID's webhooks (else the account's), as payment.failed.
 */
export async function writeUpcomingFailures(shortfalls: readonly Shortfall[]): Promise<number> {
  let written = 0;
  for (const f of shortfalls) {
    const s = f.schedule;
    const payerToken = s.payerToken ?? (await ensurePayerToken(s.id));
    const request = await db().paymentRequest.findUnique({
      where: { recurringScheduleId_recurringIndex: { recurringScheduleId: s.id, recurringIndex: f.index } },
      select: { id: true, paymentReference: true },
    });
    const token = tokenOf(s);
    const gas = f.reason === "relayer_unfunded";
    const created = await db().$transaction(async (tx) => {
      const row = await tx.recurringReminder.createMany({
        data: [
          {
            id: ulid(),
            scheduleId: s.id,
            index: f.index,
            leadSeconds: f.lead,
            reason: f.reason,
            missing: f.missing.toString(),
            dueAt: f.due,
          },
        ],
        skipDuplicates: true,
      });
      if (row.count !== 1) return false;
      await writeOutboxEvent(tx, {
        accountId: s.accountId,
        clientId: s.clientId,
        type: "payment.upcoming_failure",
        dedupeKey: `recurring:${s.id}:upcoming:${f.index}:${f.lead}:${f.reason}`,
        requestId: request?.id ?? null,
        payload: upcomingFailureEvent({
          recurringPaymentId: s.id,
          paymentIndex: f.index,
          requestId: request?.id ?? null,
          paymentReference: request?.paymentReference ?? null,
          reason: f.reason,
          amountMissing: gas ? formatEther(f.missing) : formatAmount(f.missing, token.decimals),
          missingCurrency: gas ? `native-${s.network}` : s.paymentCurrency,
          amount: formatAmount(BigInt(s.cost), token.decimals),
          paymentCurrency: s.paymentCurrency,
          network: s.network,
          payer: s.payer,
          dueDate: f.due.toISOString(),
          leadTimeSeconds: f.lead,
          payerUrl: payerPageUrl(payerToken),
          timestamp: now().toISOString(),
        }),
      });
      return true;
    });
    if (created) written++;
  }
  return written;
}

/** Schedules created before payer pages existed get their token on their first reminder. */
async function ensurePayerToken(id: string): Promise<string> {
  await db().recurringSchedule.updateMany({ where: { id, payerToken: null }, data: { payerToken: randomBytes(24).toString("base64url") } });
  return (await db().recurringSchedule.findUniqueOrThrow({ where: { id }, select: { payerToken: true } })).payerToken!;
}
