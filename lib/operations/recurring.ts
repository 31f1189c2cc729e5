import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import {
  activateBodySchema,
  activatedSchema,
  manageBodySchema,
  manageResponseSchema,
  recurrenceStoppedBodySchema,
  recurrenceStoppedSchema,
  recurringIdParamsSchema,
  scheduleSchema,
} from "@/lib/operations/recurring-schemas";
import { paymentReferenceParamsSchema } from "@/lib/operations/request-recurrence-schemas";
import { requestIdParamsSchema } from "@/lib/operations/requests-schemas";

const auth = ["apiKey", "clientId"] as const;
const tags = ["Recurring payouts"];

export const activateRecurringOp = defineOperation({
  method: "POST",
  path: "/v2/payouts/recurring/{id}",
  operationId: "activateRecurringPayout",
  summary: "Activate a recurring payout with the payer's permit signature",
  description:
    "Verifies the payer's EIP-712 signature of the permit returned at creation (an EOA signature, or a smart account's through ERC-1271) and activates the schedule: from then on Duebill's relayer triggers each payment when the chain's latest block time reaches its due time. A bad signature is 400, an already active schedule 409.",
  tags,
  auth,
  params: recurringIdParamsSchema,
  body: activateBodySchema,
  responses: { 201: { description: "Activated", schema: activatedSchema }, ...errorResponses(400, 401, 403, 404, 409, 429) },
});

export const getRecurringOp = defineOperation({
  method: "GET",
  path: "/v2/payouts/recurring/{id}",
  operationId: "getRecurringPayout",
  summary: "A recurring payout's status, due dates and payments",
  tags,
  auth,
  params: recurringIdParamsSchema,
  responses: { 200: { description: "Schedule", schema: scheduleSchema }, ...errorResponses(401, 403, 404, 429) },
});

export const manageRecurringOp = defineOperation({
  method: "PATCH",
  path: "/v2/payouts/recurring/{id}",
  operationId: "manageRecurringPayout",
  summary: "Cancel or unpause a recurring payout",
  description:
    "`cancel` stops every future payment and returns an approve(contract, 0) transaction for the payer to withdraw the remaining allowance. `unpause` resumes a paused schedule: payments missed meanwhile are caught up in order, never past the permit's deadline.",
  tags,
  auth,
  params: recurringIdParamsSchema,
  body: manageBodySchema,
  responses: { 200: { description: "Updated schedule", schema: manageResponseSchema }, ...errorResponses(400, 401, 403, 404, 409, 429) },
});

export const updateRequestRecurrenceOp = defineOperation({
  method: "PATCH",
  path: "/v2/request/{requestId}",
  operationId: "updateRequestRecurrence",
  summary: "Stop or resume the recurrence a request belongs to",
  description:
    "On any request of a recurring request (created with `recurrence`), `isRecurrenceStopped: true` stops the series: no period's request is created after it; `false` resumes it from the next period due (periods that fell due while stopped are skipped). On a request of a recurring payout, `true` pauses the schedule (reason `recurrence_stopped`) and `false` resumes it. A request of neither: 400.",
  tags: ["Requests"],
  auth,
  params: requestIdParamsSchema,
  body: recurrenceStoppedBodySchema,
  responses: {
    200: { description: "Recurrence updated", schema: recurrenceStoppedSchema },
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
});

export const stopRequestRecurrenceV1Op = defineOperation({
  method: "PATCH",
  path: "/v1/request/{paymentReference}/stop-recurrence",
  operationId: "stopRequestRecurrenceV1",
  summary: "Stop the recurrence of a request, by payment reference (the reference's v1 route)",
  description:
    "The reference's v1 form of `PATCH /v2/request/{requestId} {isRecurrenceStopped: true}`: takes no body and answers 200 with an empty body. Stopping again is a 200 too. A request that is neither a recurring request nor part of a recurring payout: 400; another account's or an unknown payment reference: 404.",
  tags: ["Requests"],
  auth,
  params: paymentReferenceParamsSchema,
  responses: { 200: { description: "Recurrence stopped (empty body)" }, ...errorResponses(400, 401, 403, 404, 409, 429) },
});
