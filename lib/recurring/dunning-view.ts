import { formatEther } from "viem";
import { tokenOf } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import type { RecurringSchedule } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";
import { schedulePolicy } from "@/lib/recurring/dunning-policy";
import { payerPageUrl } from "@/lib/recurring/upcoming-event";

/** The status the API shows: an active schedule retrying a missed payment is `past_due`. */
export function apiStatus(s: Pick<RecurringSchedule, "status" | "pastDueIndex">): RecurringSchedule["status"] | "past_due" {
  return s.status === "active" && s.pastDueIndex !== null ? "past_due" : s.status;
}

/**
 * What GET /v2/payouts/recurring/{id}, the dashboard and the payer's page add about dunning: the
 * policy in force, the payment past due and until when it is retried, every failed attempt with
 * its reason and what was missing, and the look-ahead's warnings (payment.upcoming_failure).
 */
export async function dunningView(s: RecurringSchedule) {
  const [policy, attempts, reminders] = await Promise.all([
    schedulePolicy(s),
    db().recurringAttempt.findMany({ where: { scheduleId: s.id }, orderBy: [{ index: "asc" }, { attempt: "asc" }], take: 200 }),
    db().recurringReminder.findMany({ where: { scheduleId: s.id }, orderBy: { createdAt: "asc" }, take: 100 }),
  ]);
  const decimals = tokenOf(s).decimals;
  const units = (v: { toFixed(): string } | null) => (v === null ? null : formatAmount(BigInt(v.toFixed()), decimals));
  const pastDue = apiStatus(s) === "past_due";
  const graceEnd = s.pastDueSince ? new Date(s.pastDueSince.getTime() + policy.graceSeconds * 1000) : null;
  return {
    nextRetryDate: pastDue ? (s.nextDueAt?.toISOString() ?? null) : null,
    pastDue:
      s.pastDueIndex !== null && s.pastDueSince && graceEnd
        ? { paymentIndex: s.pastDueIndex, since: s.pastDueSince.toISOString(), gracePeriodEndsAt: graceEnd.toISOString() }
        : null,
    attempts: attempts.map((a) => ({
      paymentIndex: a.index,
      attempt: a.attempt,
      timestamp: a.at.toISOString(),
      reason: a.reason,
      amountMissing: units(a.missing),
      nextRetryDate: a.nextRetryAt?.toISOString() ?? null,
    })),
    upcomingFailures: reminders.map((r) => ({
      paymentIndex: r.index,
      reason: r.reason,
      amountMissing: r.reason === "relayer_unfunded" ? formatEther(BigInt(r.missing.toFixed())) : units(r.missing)!,
      dueDate: r.dueAt.toISOString(),
      leadTimeSeconds: r.leadSeconds,
      createdAt: r.createdAt.toISOString(),
    })),
    dunningPolicy: policy,
    payerUrl: s.payerToken ? payerPageUrl(s.payerToken) : null,
  };
}
