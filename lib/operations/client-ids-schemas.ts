import { z } from "zod";

/**
 * The client ID bodies' fields, apart from the operations (lib/operations/client-ids.ts) so that the
 * dashboard's form validates in the browser with them too (lib/forms/key-forms.ts): zod only here.
 */
export const CLIENT_ID_MAX_DOMAINS = 10;
export const CLIENT_ID_DOMAIN_MAX = 300;
export const clientIdLabelSchema = z.string().trim().min(1).max(100);
export const clientIdDomainsSchema = z
  .array(z.string().max(CLIENT_ID_DOMAIN_MAX))
  .max(CLIENT_ID_MAX_DOMAINS)
  .meta({ description: "Allowed origins (https; http only for localhost), at most 10" });

export const createClientIdBodySchema = z.strictObject({ label: clientIdLabelSchema, allowedDomains: clientIdDomainsSchema.optional() });
