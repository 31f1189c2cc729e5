import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";

/**
 * The payer's side of a recurring payout, by the page token its reminders link to
 * (/subscriptions/{token}): renewing the schedule's permit before (or after) its deadline
 * (lib/recurring/permit-renewal.ts; issue 32). No credential: the token is the capability, as a
 * payment link's.
 */
const tags = ["Recurring payouts"];
const params = z.object({ token: z.string().max(64) });
const unix = z.string().regex(/^\d{1,12}$/);

const renewalSchema = z.object({
  currentDeadline: z.string().meta({ description: "The stored permit's deadline (ISO 8601): no payment is triggered after it" }),
  deadline: unix.meta({
    description: "The deadline this renewal proposes, unix seconds: 30 days after the last due time, the next try or now",
  }),
  expiresAt: z.string().meta({ description: "`deadline` as ISO 8601" }),
  needsRenewal: z
    .boolean()
    .meta({ description: "A payment still due (or its next try) falls after the current deadline, or it ends within 7 days" }),
  typedData: z
    .object({
      domain: z.record(z.string(), z.unknown()),
      types: z.record(z.string(), z.unknown()),
      primaryType: z.string(),
      message: z.record(z.string(), z.unknown()),
    })
    .meta({
      description: "EIP-712 SchedulePermit: the payer's first permit with only `deadline` changed (uint values as decimal strings)",
    }),
});

export const subscriptionPermitOp = defineOperation({
  method: "GET",
  path: "/v2/subscriptions/{token}/permit",
  operationId: "getSubscriptionPermitRenewal",
  summary: "The permit a payer re-signs to renew a subscription (Duebill extension)",
  description:
    "The recurring contract keys a schedule by (subscriber, scheduleId), not by its deadline, so the same permit signed again with a later " +
    "deadline continues the schedule: payments made stay made, the next stays next. 409: cancelled, completed or not yet active.",
  tags,
  auth: [],
  params,
  responses: { 200: { description: "The permit to sign", schema: renewalSchema }, ...errorResponses(404, 409, 429) },
});

export const renewSubscriptionPermitOp = defineOperation({
  method: "POST",
  path: "/v2/subscriptions/{token}/permit",
  operationId: "renewSubscriptionPermit",
  summary: "Renew a subscription's permit with the payer's signature (Duebill extension)",
  description:
    "Checks the signature is the payer's (an EOA's by ecrecover, a smart account's by ERC-1271) over the stored permit with `deadline`, " +
    "which must be later than the current one, in the future and at most 366 days past the last due time (400 naming the field), then " +
    "stores the pair. A schedule paused because its deadline passed is active again and catches up in order. 409: cancelled, completed, " +
    "not yet active, or renewed meanwhile.",
  tags,
  auth: [],
  params,
  body: z.strictObject({
    deadline: z.string().min(1).max(20).meta({ description: "The signed deadline, unix seconds (the `deadline` of GET …/permit)" }),
    signature: z
      .string()
      .min(1)
      .max(2000)
      .meta({ description: "The payer's eth_signTypedData_v4 signature of its `typedData` (0x + hex)" }),
  }),
  responses: {
    200: {
      description: "Renewed",
      schema: z.object({ id: z.string(), deadline: z.string().meta({ description: "ISO 8601" }), status: z.string() }),
    },
    ...errorResponses(400, 404, 409, 429, 503),
  },
});
