import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import {
  createClientIdBodySchema,
  clientIdDomainsSchema as domains,
  clientIdLabelSchema as label,
} from "@/lib/operations/client-ids-schemas";

const tags = ["Client IDs"];
/** The reference takes x-api-key; the interface's dashboards manage them with a session. */
const auth = ["session", "apiKey"] as const;

const clientIdSchema = z
  .object({
    id: z.string(),
    clientId: z.string(),
    label: z.string(),
    allowedDomains: z.array(z.string()),
    feePercentage: z.string().nullable(),
    feeAddress: z.string().nullable(),
    operatorWalletAddress: z.string().nullable(),
    defaultPreApprovalExpiry: z.number().nullable(),
    defaultAuthorizationExpiry: z.number().nullable(),
    status: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    lastUsedAt: z.string().nullable(),
  })
  .meta({ id: "ClientId" });
const params = z.object({ id: z.string().min(1).max(100) });

export const createClientIdOp = defineOperation({
  method: "POST",
  path: "/v2/client-ids",
  operationId: "createClientId",
  summary: "Create a client ID",
  description: "For browser integrations: `allowedDomains` are the origins it may be used from (none: a backend client ID).",
  tags,
  auth,
  browser: false,
  rateLimit: "relaxed",
  body: createClientIdBodySchema,
  responses: { 201: { description: "Created", schema: clientIdSchema }, ...errorResponses(400, 401, 403, 409, 429) },
});

export const listClientIdsOp = defineOperation({
  method: "GET",
  path: "/v2/client-ids",
  operationId: "listClientIds",
  summary: "The account's client IDs",
  tags,
  auth,
  browser: false,
  rateLimit: "relaxed",
  responses: { 200: { description: "Client IDs", schema: z.array(clientIdSchema) }, ...errorResponses(401, 403, 429) },
});

export const getClientIdOp = defineOperation({
  method: "GET",
  path: "/v2/client-ids/{id}",
  operationId: "getClientId",
  summary: "One client ID",
  tags,
  auth,
  browser: false,
  rateLimit: "relaxed",
  params,
  responses: { 200: { description: "Client ID", schema: clientIdSchema }, ...errorResponses(401, 403, 404, 429) },
});

export const updateClientIdOp = defineOperation({
  method: "PUT",
  path: "/v2/client-ids/{id}",
  operationId: "updateClientId",
  summary: "Update a client ID's label, domains or status",
  description:
    "`status`: `inactive` pauses it, `active` resumes it, `revoked` ends it for good (a revoked client ID cannot be reactivated: 400).",
  tags,
  auth,
  browser: false,
  rateLimit: "relaxed",
  params,
  body: z.strictObject({
    label: label.optional(),
    allowedDomains: domains.optional(),
    status: z.enum(["active", "inactive", "revoked"]).optional(),
  }),
  responses: { 200: { description: "Updated", schema: clientIdSchema }, ...errorResponses(400, 401, 403, 404, 429) },
});

export const revokeClientIdOp = defineOperation({
  method: "DELETE",
  path: "/v2/client-ids/{id}",
  operationId: "revokeClientId",
  summary: "Revoke a client ID (cannot be reactivated)",
  tags,
  auth,
  browser: false,
  rateLimit: "relaxed",
  params,
  responses: {
    200: { description: "Revoked", schema: z.object({ id: z.string(), status: z.literal("revoked") }) },
    ...errorResponses(401, 403, 404, 429),
  },
});

const orchestratorLinkSchema = z
  .object({
    clientId: z.string(),
    clientIdLabel: z.string(),
    linkId: z.string(),
    status: z.enum(["active", "unlinked"]),
    orchestratorId: z.string().meta({ description: "The orchestrator's account ID (the `orchestratorId` of its links and events)" }),
    orchestratorName: z.string(),
    via: z.enum(["onboarding", "direct"]).meta({
      description:
        "`onboarding`: you finished its hosted onboarding; `direct`: it linked the client ID with POST /v2/orchestrators/client-ids",
    }),
    linkedAt: z.string(),
    unlinkedAt: z.string().nullable(),
  })
  .meta({ id: "OrchestratorLinkOfClientId" });

export const listOrchestratorLinksOp = defineOperation({
  method: "GET",
  path: "/v2/client-ids/orchestrator-links",
  operationId: "listOrchestratorLinksOfClientIds",
  summary: "Orchestrator links of your client IDs",
  description:
    "Every orchestrator link of the account's client IDs, active and ended, newest first. Client IDs are public: an orchestrator can link one it learns without you, after which your x-client-id alone no longer creates payment links. End a link you did not agree to with DELETE /v2/client-ids/{id}/orchestrator-link.",
  tags,
  auth,
  browser: false,
  rateLimit: "relaxed",
  responses: {
    200: { description: "Links", schema: z.object({ links: z.array(orchestratorLinkSchema) }) },
    ...errorResponses(401, 403, 429),
  },
});

export const getOrchestratorLinkOp = defineOperation({
  method: "GET",
  path: "/v2/client-ids/{id}/orchestrator-link",
  operationId: "getOrchestratorLinkOfClientId",
  summary: "A client ID's orchestrator link",
  description: "`link` is null when no orchestrator ever linked the client ID. Another account's client ID is 404.",
  tags,
  auth,
  browser: false,
  rateLimit: "relaxed",
  params,
  responses: {
    200: { description: "The link", schema: z.object({ clientId: z.string(), link: orchestratorLinkSchema.nullable() }) },
    ...errorResponses(401, 403, 404, 429),
  },
});

export const endOrchestratorLinkOp = defineOperation({
  method: "DELETE",
  path: "/v2/client-ids/{id}/orchestrator-link",
  operationId: "endOrchestratorLinkOfClientId",
  summary: "End a client ID's orchestrator link",
  description:
    "Ends the active link for good, as the orchestrator's own unlink does: the client ID can never be linked again and its x-client-id creates payment links alone again. Recorded in the audit log. 404 when there is no active link (or the client ID is another account's).",
  tags,
  auth,
  browser: false,
  rateLimit: "relaxed",
  params,
  responses: {
    200: {
      description: "Ended",
      schema: z.object({ link: orchestratorLinkSchema, unlinked: z.literal(true) }),
    },
    ...errorResponses(401, 403, 404, 429),
  },
});
