import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import {
  clientIdParamsSchema,
  completeOnboardingBodySchema,
  createLinkIntentBodySchema,
  linkBodySchema,
  linkIntentCreatedSchema,
  linkListSchema,
  linkResultSchema,
  listLinksQuerySchema,
  onboardingCompletedSchema,
  unlinkResultSchema,
} from "@/lib/operations/orchestrators-schemas";

const tags = ["Orchestrators"];
const auth = ["orchestratorKey"] as const;

export const linkClientIdOp = defineOperation({
  method: "POST",
  path: "/v2/orchestrators/client-ids",
  operationId: "linkClientId",
  summary: "Link a platform's client ID to this orchestrator",
  description:
    "201 with the new link; 200 with `alreadyLinked: true` when it is already linked to you. A client ID has one orchestrator: linked to another → 409; once unlinked it can never be linked again → 409.",
  tags,
  auth,
  browser: false,
  body: linkBodySchema,
  responses: {
    200: { description: "Already linked to this orchestrator", schema: linkResultSchema },
    201: { description: "Linked", schema: linkResultSchema },
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
});

export const listLinksOp = defineOperation({
  method: "GET",
  path: "/v2/orchestrators/client-ids",
  operationId: "listLinkedClientIds",
  summary: "This orchestrator's active links",
  tags,
  auth,
  browser: false,
  query: listLinksQuerySchema,
  responses: { 200: { description: "Active links, oldest first", schema: linkListSchema }, ...errorResponses(400, 401, 403, 429) },
});

export const unlinkClientIdOp = defineOperation({
  method: "DELETE",
  path: "/v2/orchestrators/client-ids/{clientId}",
  operationId: "unlinkClientId",
  summary: "End a link for good (the client ID itself stays)",
  tags,
  auth,
  browser: false,
  params: clientIdParamsSchema,
  responses: { 200: { description: "Unlinked", schema: unlinkResultSchema }, ...errorResponses(400, 401, 403, 404, 429) },
});

export const createLinkIntentOp = defineOperation({
  method: "POST",
  path: "/v2/orchestrators/client-id-link-intents",
  operationId: "createClientIdLinkIntent",
  summary: "Invite a platform to the hosted onboarding",
  description:
    "Returns the onboarding URL to send the platform. On it the platform connects a wallet, signs in, sets its payout destination and confirms; a new client ID (with `domains`) is then created, linked to you and bound to that destination, and `client_id.linked` goes to your orchestrator webhooks. Single use; expires after 2 days.",
  tags,
  auth,
  browser: false,
  body: createLinkIntentBodySchema,
  idempotent: true,
  responses: { 201: { description: "Intent created", schema: linkIntentCreatedSchema }, ...errorResponses(400, 401, 403, 429) },
});

export const completeOnboardingOp = defineOperation({
  method: "POST",
  path: "/v2/onboarding/complete",
  operationId: "completeOnboarding",
  summary: "Finish a hosted onboarding (the platform, signed in with its wallet)",
  description:
    "Used by the hosted onboarding page. Needs the platform's active payout destination. Creates one client ID however often it is called for the same intent.",
  tags,
  auth: ["session"],
  body: completeOnboardingBodySchema,
  responses: {
    201: { description: "Client ID created and linked", schema: onboardingCompletedSchema },
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
});
