import { z } from "zod";

/** POST /v1/webhook's body, apart from the operation so that the dashboard's form checks it in the browser too (zod only here). */
export const createWebhookBodySchema = z.strictObject({
  url: z.string().min(1).max(2048).meta({
    description:
      "HTTPS URL that receives signed POSTs (never a private, loopback or link-local address; under `npm run dev`, this machine's own — `http://localhost:4000/hook` — is accepted for local testing)",
  }),
  clientId: z
    .string()
    .max(64)
    .optional()
    .meta({ description: "Client ID the webhook serves (required with a session; implied by x-client-id)" }),
});

/** A 201's note when only a local-development policy accepted the URL (lib/webhooks/policy.ts): production would refuse it. */
export const webhookUrlWarning = z.string().optional().meta({
  description:
    "Present only when the URL was accepted because Duebill runs under `npm run dev` (this machine's loopback) or with WEBHOOK_ALLOW_PRIVATE: `npm start` refuses it",
});
