import { z } from "zod";
import type { FormFields } from "@/lib/errors";
import { maxLengthOf } from "@/lib/forms/form-state";
import { CLIENT_ID_DOMAIN_MAX, CLIENT_ID_MAX_DOMAINS, createClientIdBodySchema } from "@/lib/operations/client-ids-schemas";

/**
 * A credential's name (an API key's from the dashboard, an orchestrator key's from /admin). There is
 * no API operation for these: this schema is the one rule, checked by the forms and their actions.
 */
export const credentialNameSchema = z.strictObject({ name: z.string().trim().max(100) });
export const CREDENTIAL_NAME_MAX = maxLengthOf(credentialNameSchema.shape.name) ?? 100;

export const API_KEY_FORM_FIELDS = { name: { label: "Name" } } as const satisfies FormFields;
export const ORCHESTRATOR_KEY_FORM_FIELDS = { name: { label: "Key name" } } as const satisfies FormFields;

export const CLIENT_ID_FORM_FIELDS = {
  label: { label: "Label" },
  allowedDomains: { label: "Allowed origins" },
} as const satisfies FormFields;

/** The body of POST /v2/client-ids that the form makes: origins separated by commas or spaces. */
export function clientIdFormBody(v: { label?: string; allowedDomains?: string }) {
  return {
    label: v.label ?? "",
    allowedDomains: (v.allowedDomains ?? "").split(/[\s,]+/).filter(Boolean),
  };
}

export const clientIdFormSchema = createClientIdBodySchema;

/** The origins input holds at most the API's number of origins of the API's length, with separators. */
export const CLIENT_ID_MAX_LENGTHS = {
  label: maxLengthOf(createClientIdBodySchema.shape.label) ?? 100,
  allowedDomains: CLIENT_ID_MAX_DOMAINS * (CLIENT_ID_DOMAIN_MAX + 2),
};
