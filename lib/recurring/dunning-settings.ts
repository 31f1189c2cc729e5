import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { accountPolicy, type DunningPolicyInput, parsePolicy, schedulePolicy, setAccountPolicy } from "@/lib/recurring/dunning-policy";

/** GET /v2/payouts/recurring-policy: the account's policy in force (the defaults until it sets one). */
export async function getAccountDunningPolicy(principal: Principal) {
  return accountPolicy(principal.accountId);
}

/** PUT /v2/payouts/recurring-policy. */
export async function putAccountDunningPolicy(principal: Principal, body: unknown) {
  return setAccountPolicy(principal.accountId, parsePolicy(body, "body"));
}

/**
 * PUT /v2/payouts/recurring/{id}/policy: the schedule's own parts, merged into what it had. The
 * executor and the look-ahead read the policy at each attempt and check, so a change applies from
 * the next one (a retry already scheduled keeps its time). Another account's schedule: 404.
 */
export async function putScheduleDunningPolicy(principal: Principal, id: string, body: unknown) {
  const input = parsePolicy(body, "body");
  const s = await db().recurringSchedule.findFirst({ where: { id, accountId: principal.accountId } });
  if (!s) throw notFound("Recurring payment not found");
  const merged: DunningPolicyInput = { ...((s.dunningPolicy as DunningPolicyInput | null) ?? {}), ...input };
  // A new lead time list: the look-ahead looks at the next due time afresh.
  const updated = await db().recurringSchedule.update({
    where: { id: s.id },
    data: { dunningPolicy: merged, ...(input.reminderLeadTimes ? { lookaheadDue: null, lookaheadNextAt: null } : {}) },
  });
  return { id: s.id, dunningPolicy: await schedulePolicy(updated) };
}
