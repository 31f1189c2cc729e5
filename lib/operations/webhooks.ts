import { z } from "zod";
import { TEST_EVENT_TYPES } from "@/lib/events/catalog";
import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import { createWebhookBodySchema, webhookUrlWarning } from "@/lib/operations/webhooks-schemas";

export { createWebhookBodySchema };

const tags = ["Webhooks"];
const auth = ["clientId", "session"] as const;
/** Webhook management is a server operation: its answers carry secrets. */
const browser = false;

export const webhookSchema = z
  .object({ id: z.string(), url: z.string(), active: z.boolean(), clientId: z.string().nullable(), createdAt: z.string() })
  .meta({ id: "Webhook" });

export const webhookIdParamsSchema = z.object({ id: z.string().max(64) });
export const ownerQuerySchema = z.object({ clientId: z.string().max(64).optional() });

export const deliverySchema = z
  .object({
    id: z.string(),
    eventType: z.string(),
    eventId: z.string().nullable(),
    isTest: z.boolean(),
    status: z.enum(["pending", "succeeded", "failed"]),
    attempts: z.number().int(),
    nextAttemptAt: z.string().nullable(),
    lastStatus: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    attemptLog: z.array(
      z.object({
        attempt: z.number().int(),
        startedAt: z.string(),
        latencyMs: z.number().int(),
        statusCode: z.number().int().nullable(),
        error: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: "WebhookDelivery" });

export const createWebhookOp = defineOperation({
  method: "POST",
  path: "/v1/webhook",
  operationId: "createWebhook",
  summary: "Register a webhook URL",
  description:
    "Returns the signing secret once. Deliveries carry x-duebill-signature (hex HMAC-SHA256 of the raw body keyed with the secret) and Standard Webhooks headers.",
  tags,
  auth,
  browser,
  body: createWebhookBodySchema,
  responses: {
    201: { description: "Registered", schema: webhookSchema.extend({ secret: z.string(), warning: webhookUrlWarning }) },
    ...errorResponses(400, 401, 403, 404, 429),
  },
});

export const listWebhooksOp = defineOperation({
  method: "GET",
  path: "/v1/webhook",
  operationId: "listWebhooks",
  summary: "List webhooks",
  description:
    "The reference's array `[{id, url, isActive, createdAt, …}]` (`active` is the same flag). Signing secrets are never listed: each is shown once, when the webhook is registered.",
  tags,
  auth,
  browser,
  query: ownerQuerySchema,
  responses: {
    200: { description: "Webhooks", schema: z.array(webhookSchema.extend({ isActive: z.boolean() })) },
    ...errorResponses(401, 403, 404, 429),
  },
});

export const updateWebhookOp = defineOperation({
  method: "PUT",
  path: "/v1/webhook/{id}",
  operationId: "updateWebhook",
  summary: "Activate or deactivate a webhook (toggles when `active` is omitted)",
  tags,
  auth,
  browser,
  params: webhookIdParamsSchema,
  body: z.strictObject({ active: z.boolean().optional() }),
  bodyOptional: true,
  responses: { 200: { description: "Updated", schema: webhookSchema }, ...errorResponses(400, 401, 403, 404, 429) },
});

export const deleteWebhookOp = defineOperation({
  method: "DELETE",
  path: "/v1/webhook/{id}",
  operationId: "deleteWebhook",
  summary: "Delete a webhook",
  tags,
  auth,
  browser,
  params: webhookIdParamsSchema,
  responses: {
    200: { description: "Deleted", schema: z.object({ id: z.string(), deleted: z.literal(true) }) },
    ...errorResponses(401, 403, 404, 429),
  },
});

export const testWebhookOp = defineOperation({
  method: "POST",
  path: "/v1/webhook/test",
  operationId: "testWebhook",
  summary: "Send a signed test delivery to the active webhooks",
  description:
    "Test deliveries carry x-duebill-test: true and a sample of the event type: every type of the reference's enum, in its documented shape (Duebill itself emits payment.confirmed, payment.partial (a fee came short: subStatus fee_short, missingFees), payment.failed and, to orchestrators, client_id.linked). 404 when there is no active webhook.",
  tags,
  auth,
  browser,
  body: z.strictObject({
    eventType: z.enum(TEST_EVENT_TYPES).meta({ example: "payment.confirmed" }),
    clientId: z.string().max(64).optional(),
  }),
  responses: { 201: { description: "Queued (empty body)" }, ...errorResponses(400, 401, 403, 404, 429) },
});

export const listDeliveriesOp = defineOperation({
  method: "GET",
  path: "/v1/webhook/{id}/deliveries",
  operationId: "listWebhookDeliveries",
  summary: "Recent deliveries of a webhook, with every attempt",
  tags,
  auth,
  browser,
  params: webhookIdParamsSchema,
  query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
  responses: {
    200: { description: "Deliveries, newest first", schema: z.object({ deliveries: z.array(deliverySchema) }) },
    ...errorResponses(400, 401, 403, 404, 429),
  },
});

export const redeliverOp = defineOperation({
  method: "POST",
  path: "/v1/webhook/{id}/deliveries/{deliveryId}/redeliver",
  operationId: "redeliverWebhook",
  summary: "Send a delivery again (same delivery ID)",
  tags,
  auth,
  browser,
  params: z.object({ id: z.string().max(64), deliveryId: z.string().max(64) }),
  responses: { 201: { description: "Queued", schema: deliverySchema }, ...errorResponses(401, 403, 404, 429) },
});
