import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isFinalFailure, setRecurrenceStopped } from "@/lib/recurring/manage";

/** What the payee can do to a schedule: pause/resume (isRecurrenceStopped), cancel, unpause after a failure. */
export const SCHEDULE_ACTIONS = ["pause", "resume", "cancel", "unpause"] as const;
export type ScheduleAction = (typeof SCHEDULE_ACTIONS)[number];

/**
 * The actions a schedule allows in its state (the dashboard shows these buttons, the API refuses
 * the others): a stopped schedule resumes; one paused by a failure is unpaused, unless the failure
 * is final (its deadline passed, or it was cancelled on chain); a pending one can only be cancelled.
 */
export function scheduleActions(status: string, failureCode: string | null): ScheduleAction[] {
  if (status === "active") return ["pause", "cancel"];
  if (status === "paused" && failureCode === "recurrence_stopped") return ["resume", "cancel"];
  if (status === "paused") return isFinalFailure(failureCode) ? ["cancel"] : ["unpause", "cancel"];
  if (status === "pending") return ["cancel"];
  return [];
}

/** The account's latest schedules, newest first (the dashboard's recurring page). */
export function listAccountSchedules(accountId: string, take = 100) {
  return db().recurringSchedule.findMany({ where: { accountId }, orderBy: { createdAt: "desc" }, take });
}

/**
 * Pauses (stopped = true) or resumes one of the account's schedules by its ID: the API's
 * PATCH /v2/request/{id} {isRecurrenceStopped} on the schedule's request. Another account's
 * schedule is "not found".
 */
export async function setScheduleStopped(principal: Principal, scheduleId: string, stopped: boolean) {
  const request = await db().paymentRequest.findFirst({
    where: { recurringScheduleId: scheduleId, accountId: principal.accountId },
    select: { id: true },
  });
  if (!request) throw notFound("Recurring payment not found");
  return setRecurrenceStopped(principal, request.id, stopped);
}
