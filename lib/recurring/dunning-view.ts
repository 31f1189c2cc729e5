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

export interface DunningSummary {
  attempts: number;
  lastAttempt: { reason: string; amountMissing: string | null; at: string } | null;
  /** The look-ahead's warnings for the next payment (reason and amount missing). */
  upcoming: { reason: string; amountMissing: string; dueDate: string }[];
}

/** For the dashboard's list: per schedule, the attempts at its current payment and the warnings about its next one. */
export async function dunningSummaries(
  schedules: readonly Pick<RecurringSchedule, "id" | "processedPayments" | "network" | "paymentCurrency">[],
): Promise<Map<string, DunningSummary>> {
  const ids = schedules.map((s) => s.id);
  const [attempts, reminders] = await Promise.all([
    db().recurringAttempt.findMany({ where: { scheduleId: { in: ids } }, orderBy: { attempt: "asc" } }),
    db().recurringReminder.findMany({ where: { scheduleId: { in: ids } }, orderBy: { createdAt: "asc" } }),
  ]);
  const out = new Map<string, DunningSummary>();
  for (const s of schedules) {
    const decimals = tokenOf(s).decimals;
    const index = s.processedPayments + 1;
    const mine = attempts.filter((a) => a.scheduleId === s.id && a.index === index);
    const last = mine[mine.length - 1];
    const upcoming = reminders.filter((r) => r.scheduleId === s.id && r.index === index);
    const byReason = new Map(upcoming.map((r) => [r.reason, r]));
    out.set(s.id, {
      attempts: mine.length,
      lastAttempt: last
        ? {
            reason: last.reason,
            amountMissing: last.missing ? formatAmount(BigInt(last.missing.toFixed()), decimals) : null,
            at: last.at.toISOString(),
          }
        : null,
      upcoming: [...byReason.values()].map((r) => ({
        reason: r.reason,
        amountMissing:
          r.reason === "relayer_unfunded" ? formatEther(BigInt(r.missing.toFixed())) : formatAmount(BigInt(r.missing.toFixed()), decimals),
        dueDate: r.dueAt.toISOString(),
      })),
    });
  }
  return out;
}
