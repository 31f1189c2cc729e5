import { db } from "@/lib/db";
import { ulid } from "@/lib/ids";
import { type FailureReason, readableFailure } from "@/lib/recurring/chain";
import type { ClaimedSchedule } from "@/lib/recurring/claim";
import { nextRetryAt, schedulePolicy } from "@/lib/recurring/dunning-policy";
import { writePastDue } from "@/lib/recurring/past-due-event";

/** Failures the payer can fix during the grace period (a top-up, a new allowance): retried, not paused at once. */
export const RETRIED_FAILURES: readonly FailureReason[] = ["insufficient_balance", "insufficient_allowance"];

export type MissedOutcome = "past_due" | "grace_over" | "lost";

/**
 * A due payment whose dry run showed it would fail for want of balance or allowance: nothing is
 * sent (the read showed the transaction would revert). The attempt is recorded with its reason and
 * what is missing; while the grace period (from the payment's first failed attempt) lasts the
 * schedule stays active and past due, and `nextDueAt` moves to the next retry, so the ordinary
 * sweep claims it again then and re-reads the chain (a top-up or a new allowance meanwhile is
 * simply paid, no unpause needed). Strict order holds: the executor only ever works on the first
 * unpaid index, so a later period waits behind a past-due one. Once the grace is over:
 * "grace_over", and the executor pauses as before (payment.failed). Entering past_due (the first
 * missed attempt of a payment that gets a retry) writes payment.past_due in the same transaction.
 * Every write is conditional on the sweep's lease (a sweep that lost it changes nothing).
 */
export async function recordMissedPayment(
  s: ClaimedSchedule,
  index: number,
  chainTime: number,
  reason: FailureReason,
  message: string | undefined,
  missing: bigint | undefined,
): Promise<MissedOutcome> {
  const policy = await schedulePolicy(s);
  const since = s.pastDueIndex === index && s.pastDueSince ? Math.floor(s.pastDueSince.getTime() / 1000) : chainTime;
  const next = nextRetryAt(policy, since, chainTime);
  const failureReason = readableFailure(reason, message);
  return db().$transaction(async (tx) => {
    const moved = await tx.recurringSchedule.updateMany({
      where: { id: s.id, leaseUntil: s.leaseUntil, status: "active" },
      data:
        next === null
          ? { pastDueIndex: index, pastDueSince: new Date(since * 1000) }
          : {
              pastDueIndex: index,
              pastDueSince: new Date(since * 1000),
              nextDueAt: new Date(next * 1000),
              failureCode: reason,
              failureReason,
            },
    });
    if (moved.count !== 1) return "lost" as const;
    const attempts = await tx.recurringAttempt.count({ where: { scheduleId: s.id, index } });
    await tx.recurringAttempt.create({
      data: {
        id: ulid(),
        scheduleId: s.id,
        index,
        attempt: attempts + 1,
        at: new Date(chainTime * 1000),
        reason,
        missing: missing === undefined ? null : missing.toString(),
        nextRetryAt: next === null ? null : new Date(next * 1000),
      },
    });
    if (next !== null && s.pastDueIndex !== index)
      await writePastDue(tx, s, {
        index,
        reason,
        failureReason,
        missing,
        since,
        nextRetry: next,
        graceEnd: since + policy.graceSeconds,
      });
    return next === null ? ("grace_over" as const) : ("past_due" as const);
  });
}

/** The fields a confirmed payment or an unpause clears: the schedule is no longer past due. */
export const NOT_PAST_DUE = { pastDueIndex: null, pastDueSince: null } as const;
