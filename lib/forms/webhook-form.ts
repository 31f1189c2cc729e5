import type { z } from "zod";
import type { FormFields } from "@/lib/errors";
import { maxLengthOf } from "@/lib/forms/form-state";
import { createWebhookBodySchema } from "@/lib/operations/webhooks-schemas";

export const WEBHOOK_FORM_FIELDS = {
  url: { label: "Endpoint URL" },
  clientId: { label: "Client ID" },
} as const satisfies FormFields;

/** POST /v1/webhook's body; with a session (the dashboard) the client ID is required, as the API says. */
export const webhookFormSchema = createWebhookBodySchema.extend({
  clientId: createWebhookBodySchema.shape.clientId.unwrap().min(1),
});

export function webhookFormBody(v: { url?: string; clientId?: string }) {
  return { url: (v.url ?? "").trim(), clientId: v.clientId ?? "" };
}

export const WEBHOOK_URL_MAX = maxLengthOf(createWebhookBodySchema.shape.url) ?? 2048;

export type WebhookFormBody = z.infer<typeof webhookFormSchema>;
