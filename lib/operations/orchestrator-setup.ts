import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import {
  brandingQuerySchema,
  brandingSchema,
  createBrandingBodySchema,
  createFeeConfigBodySchema,
  createOrchestratorWebhookBodySchema,
  feeConfigListSchema,
  feeConfigQuerySchema,
  feeConfigSchema,
  orchestratorWebhookCreatedSchema,
  orchestratorWebhookListSchema,
  orchestratorWebhookSchema,
  setupIdParamsSchema,
  testOrchestratorWebhookBodySchema,
  testOrchestratorWebhookResultSchema,
  updateBrandingBodySchema,
  updateFeeConfigBodySchema,
} from "@/lib/operations/orchestrator-setup-schemas";

/**
 * Orchestrator setup (issue 12): the webhooks that receive orchestrator events
 * (client_id.linked), the fee configurations (default and per linked client ID) and the
 * branding of the hosted pages. Every object belongs to the orchestrator's account; another
 * orchestrator's answers 404.
 */
const auth = ["orchestratorKey"] as const;
/** Server-side setup: its answers carry secrets and steer the orchestrator's fees. */
const browser = false;
const rateLimit = "default" as const;

// ---------------------------------------------------------------------------------------------
// Webhooks
// ---------------------------------------------------------------------------------------------

const webhookTags = ["Orchestrator webhooks"];

export const createOrchestratorWebhookOp = defineOperation({
  method: "POST",
  path: "/v2/orchestrators/webhooks",
  operationId: "createOrchestratorWebhook",
  summary: "Register a webhook for orchestrator events",
  description:
    "Receives the orchestrator's events (client_id.linked), signed like every delivery (x-duebill-signature and Standard Webhooks headers). The secret is returned only here. Registering a URL the orchestrator already has (active or not) is 409.",
  tags: webhookTags,
  auth,
  browser,
  rateLimit,
  body: createOrchestratorWebhookBodySchema,
  responses: {
    201: { description: "Registered", schema: orchestratorWebhookCreatedSchema },
    ...errorResponses(400, 401, 403, 409, 429),
  },
});

export const listOrchestratorWebhooksOp = defineOperation({
  method: "GET",
  path: "/v2/orchestrators/webhooks",
  operationId: "listOrchestratorWebhooks",
  summary: "List the orchestrator's webhooks, inactive ones included",
  tags: webhookTags,
  auth,
  browser,
  rateLimit,
  responses: {
    200: { description: "Webhooks, oldest first", schema: orchestratorWebhookListSchema },
    ...errorResponses(401, 403, 429),
  },
});

export const deactivateOrchestratorWebhookOp = defineOperation({
  method: "DELETE",
  path: "/v2/orchestrators/webhooks/{id}",
  operationId: "deactivateOrchestratorWebhook",
  summary: "Deactivate a webhook (it stays listed; PATCH reactivates it)",
  tags: webhookTags,
  auth,
  browser,
  rateLimit,
  params: setupIdParamsSchema,
  responses: { 200: { description: "Deactivated", schema: orchestratorWebhookSchema }, ...errorResponses(401, 403, 404, 429) },
});

export const reactivateOrchestratorWebhookOp = defineOperation({
  method: "PATCH",
  path: "/v2/orchestrators/webhooks/{id}",
  operationId: "reactivateOrchestratorWebhook",
  summary: "Reactivate a deactivated webhook",
  tags: webhookTags,
  auth,
  browser,
  rateLimit,
  params: setupIdParamsSchema,
  responses: { 200: { description: "Active", schema: orchestratorWebhookSchema }, ...errorResponses(401, 403, 404, 429) },
});

export const testOrchestratorWebhooksOp = defineOperation({
  method: "POST",
  path: "/v2/orchestrators/webhooks/test",
  operationId: "testOrchestratorWebhooks",
  summary: "Send a signed test delivery to each active webhook, now",
  description:
    "One test delivery (x-duebill-test: true, the event's real payload shape with sample values) per active webhook, attempted before the answer: `sent` counts 2xx answers, `failed` the others (a failed test delivery is retried like any delivery). 404 when the orchestrator has no active webhook.",
  tags: webhookTags,
  auth,
  browser,
  rateLimit,
  body: testOrchestratorWebhookBodySchema,
  responses: {
    201: { description: "Attempted", schema: testOrchestratorWebhookResultSchema },
    ...errorResponses(400, 401, 403, 404, 429),
  },
});

// ---------------------------------------------------------------------------------------------
// Fee configs
// ---------------------------------------------------------------------------------------------

const feeTags = ["Orchestrator fee configs"];

export const createFeeConfigOp = defineOperation({
  method: "POST",
  path: "/v2/orchestrators/fee-configs",
  operationId: "createOrchestratorFeeConfig",
  summary: "Set the platform fee of a flow (default, or per linked client ID)",
  description:
    "Links made for a linked client ID use its per-client override, else the orchestrator's default (no `clientId`), else no platform fee. One active configuration per flow and client ID: a new one disables the previous. At least one receiving address is required. A `clientId` not linked to this orchestrator is 404.",
  tags: feeTags,
  auth,
  browser,
  rateLimit,
  body: createFeeConfigBodySchema,
  responses: { 201: { description: "Created", schema: feeConfigSchema }, ...errorResponses(400, 401, 403, 404, 429) },
});

export const listFeeConfigsOp = defineOperation({
  method: "GET",
  path: "/v2/orchestrators/fee-configs",
  operationId: "listOrchestratorFeeConfigs",
  summary: "List fee configurations (all, or one client ID's overrides)",
  description: "Without `clientId`: every configuration of the orchestrator (defaults and overrides, disabled ones included).",
  tags: feeTags,
  auth,
  browser,
  rateLimit,
  query: feeConfigQuerySchema,
  responses: {
    200: { description: "Fee configurations, oldest first", schema: feeConfigListSchema },
    ...errorResponses(401, 403, 404, 429),
  },
});

export const updateFeeConfigOp = defineOperation({
  method: "PATCH",
  path: "/v2/orchestrators/fee-configs/{id}",
  operationId: "updateOrchestratorFeeConfig",
  summary: "Update a fee configuration's rate, cap, bearer, addresses or label",
  description: "`null` clears `capUsd`, `evmAddress` or `tronAddress`; at least one address must remain.",
  tags: feeTags,
  auth,
  browser,
  rateLimit,
  params: setupIdParamsSchema,
  body: updateFeeConfigBodySchema,
  responses: { 200: { description: "Updated", schema: feeConfigSchema }, ...errorResponses(400, 401, 403, 404, 429) },
});

export const disableFeeConfigOp = defineOperation({
  method: "DELETE",
  path: "/v2/orchestrators/fee-configs/{id}",
  operationId: "disableOrchestratorFeeConfig",
  summary: "Disable a fee configuration",
  tags: feeTags,
  auth,
  browser,
  rateLimit,
  params: setupIdParamsSchema,
  responses: { 200: { description: "Disabled", schema: feeConfigSchema }, ...errorResponses(401, 403, 404, 429) },
});

// ---------------------------------------------------------------------------------------------
// Branding
// ---------------------------------------------------------------------------------------------

const brandingTags = ["Orchestrator branding"];

export const createBrandingOp = defineOperation({
  method: "POST",
  path: "/v2/orchestrators/branding",
  operationId: "createOrchestratorBranding",
  summary: "Create the branding of the hosted pages (default, or per linked client ID)",
  description:
    "Shown on the pay page of links made with a linked client ID: its override, else the default. A second branding for the same client ID (or a second default) is 409; a `clientId` not linked to this orchestrator is 404.",
  tags: brandingTags,
  auth,
  browser,
  rateLimit,
  body: createBrandingBodySchema,
  responses: { 201: { description: "Created", schema: brandingSchema }, ...errorResponses(400, 401, 403, 404, 409, 429) },
});

export const getBrandingOp = defineOperation({
  method: "GET",
  path: "/v2/orchestrators/branding",
  operationId: "getOrchestratorBranding",
  summary: "The default branding, or a client ID's override (`?clientId=`)",
  tags: brandingTags,
  auth,
  browser,
  rateLimit,
  query: brandingQuerySchema,
  responses: { 200: { description: "Branding", schema: brandingSchema }, ...errorResponses(401, 403, 404, 429) },
});

export const updateBrandingOp = defineOperation({
  method: "PATCH",
  path: "/v2/orchestrators/branding",
  operationId: "updateOrchestratorBranding",
  summary: "Update the default branding, or a client ID's override (`?clientId=`)",
  description: "Partial: omitted fields are kept; `null` clears `logoUrl`, `accentColor` or `supportUrl`.",
  tags: brandingTags,
  auth,
  browser,
  rateLimit,
  query: brandingQuerySchema,
  body: updateBrandingBodySchema,
  responses: { 200: { description: "Updated", schema: brandingSchema }, ...errorResponses(400, 401, 403, 404, 429) },
});

export const deleteBrandingOp = defineOperation({
  method: "DELETE",
  path: "/v2/orchestrators/branding",
  operationId: "deleteOrchestratorBranding",
  summary: "Delete the default branding, or a client ID's override (`?clientId=`)",
  tags: brandingTags,
  auth,
  browser,
  rateLimit,
  query: brandingQuerySchema,
  responses: {
    200: { description: "Deleted", schema: z.object({ deleted: z.literal(true) }) },
    ...errorResponses(401, 403, 404, 429),
  },
});
