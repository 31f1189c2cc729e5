import { z } from "zod";

/** POST /v1/webhook's body, apart from the operation so that the dashboard's form checks it in the browser too (zod only here). */
export const createWebhookBodySchema = z.strictObject({
  url: z
    .string()
    .min(1)
    .max(2048)
    .meta({ description: "HTTPS URL that receives signed POSTs (never a private, loopback or link-local address)" }),
  clientId: z
    .string()
    .max(64)
    .optional()
    .meta({ description: "Client ID the webhook serves (required with a session; implied by x-client-id)" }),
});
