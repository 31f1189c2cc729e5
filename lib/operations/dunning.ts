import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import { dunningPolicyBodySchema, dunningPolicySchema, schedulePolicyResponseSchema } from "@/lib/operations/dunning-schemas";
import { recurringIdParamsSchema } from "@/lib/operations/recurring-schemas";

/**
 * Dunning (issue 32): the retry policy, grace period and reminder lead times of recurring payouts,
 * per account and per schedule (docs/guides/recurring.md "When a payment would fail").
 */
const auth = ["apiKey"] as const;
const tags = ["Recurring payouts"];
const policyText =
  "`retryIntervals`: seconds between retries of a missed payment, from the previous attempt, the last repeating (60 to 604800 each, non-decreasing); `graceSeconds`: how long after the first failed attempt the schedule stays past_due and is retried (0 to 2592000), then it pauses with payment.failed; `reminderLeadTimes`: when, before each due time, the payer's balance and allowance and the relayer's gas are checked and payment.upcoming_failure sent (up to 5, 60 to 2592000 s; [] for none). Default: 5 min, 15 min, 30 min, 1 h, 2 h, 4 h, 8 h, 12 h, then daily, over 7 days; reminders 3 days and 1 day before.";

export const getDunningPolicyOp = defineOperation({
  method: "GET",
  path: "/v2/payouts/recurring-policy",
  operationId: "getRecurringPolicy",
  summary: "The account's retry policy and reminder lead times for recurring payouts",
  description: policyText,
  tags,
  auth,
  browser: false,
  responses: { 200: { description: "Policy in force", schema: dunningPolicySchema }, ...errorResponses(401, 403, 429) },
});

export const setDunningPolicyOp = defineOperation({
  method: "PUT",
  path: "/v2/payouts/recurring-policy",
  operationId: "setRecurringPolicy",
  summary: "Set the account's retry policy and reminder lead times",
  description: `The parts given replace the account's; the others keep their value. Schedules without their own policy follow it from their next attempt or check. ${policyText}`,
  tags,
  auth,
  browser: false,
  body: dunningPolicyBodySchema,
  responses: { 200: { description: "Policy in force", schema: dunningPolicySchema }, ...errorResponses(400, 401, 403, 429) },
});

export const setSchedulePolicyOp = defineOperation({
  method: "PUT",
  path: "/v2/payouts/recurring/{id}/policy",
  operationId: "setRecurringPayoutPolicy",
  summary: "Set one recurring payout's retry policy and reminder lead times",
  description: `Overrides the account's policy for this schedule, part by part (the parts given replace the schedule's own; {} clears nothing). Another account's schedule: 404. ${policyText}`,
  tags,
  auth,
  browser: false,
  params: recurringIdParamsSchema,
  body: dunningPolicyBodySchema,
  responses: { 200: { description: "Policy in force", schema: schedulePolicyResponseSchema }, ...errorResponses(400, 401, 403, 404, 429) },
});
