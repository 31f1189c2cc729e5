import { z } from "zod";

const clientId = z
  .string()
  .max(64)
  .regex(/^cli_[A-Za-z0-9_-]{1,60}$/, "must be a client ID of the form cli_…")
  .meta({ example: "cli_01jz9y4y8m0k3v5w6x7y8z9a0b" });

export const linkBodySchema = z.strictObject({ clientId });
export const clientIdParamsSchema = z.object({ clientId });

export const linkSchema = z
  .object({ clientId: z.string(), status: z.enum(["active", "unlinked"]), linkId: z.string(), linkedAt: z.string() })
  .meta({ id: "ClientIdLink" });

export const linkResultSchema = z.object({ link: linkSchema, alreadyLinked: z.boolean() });
export const unlinkResultSchema = z.object({ link: linkSchema, unlinked: z.literal(true) });

export const listLinksQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const linkListSchema = z.object({
  links: z.array(linkSchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});

/** A screening provider of this deployment (lib/kyt/plan.ts): checked against the configuration, 400 naming the field otherwise. */
const kytProviderName = z
  .string()
  .min(1)
  .max(64)
  .meta({ description: "A screening provider this deployment has: duebill-sanctions (always), chainalysis (when configured)" });

export const createLinkIntentBodySchema = z.strictObject({
  clientIdName: z.string().min(1).max(200).meta({ description: "Name of the client ID created when the platform finishes onboarding" }),
  domains: z
    .array(z.string().max(300))
    .max(50)
    .optional()
    .meta({ description: "Up to 10 unique HTTPS origins (HTTP only for localhost, 127.0.0.1, [::1]) copied to the new client ID" }),
  externalId: z.string().min(1).max(255).optional().meta({ description: "Your correlation ID, echoed in client_id.linked" }),
  kyt: z
    .strictObject({
      providers: z
        .array(z.strictObject({ provider: kytProviderName, policyId: z.uuid().optional() }))
        .max(2)
        .meta({ description: "One or two unique providers: the first is primary, the second a fallback on technical failure only" }),
    })
    .optional()
    .meta({ description: "Your screening plan; omit it to let the platform choose" }),
});

export const linkIntentSchema = z
  .object({ id: z.string(), clientIdName: z.string(), externalId: z.string().nullable(), used: z.boolean(), expiresAt: z.string() })
  .meta({ id: "LinkIntent" });

export const linkIntentCreatedSchema = z.object({
  url: z.string().meta({ description: "The hosted onboarding page: {app_url}/onboarding?token=…" }),
  intent: linkIntentSchema,
});

export const completeOnboardingBodySchema = z.strictObject({
  token: z.string().min(1).max(200),
  kyt: kytProviderName.optional().meta({ description: "The platform's screening preference when the orchestrator set no plan" }),
});
export const onboardingCompletedSchema = z.object({ clientId: z.string(), alreadyCompleted: z.boolean() });
