import { env } from "@/lib/env";
import type { UrlPolicy } from "@/lib/webhooks/url-policy";

/**
 * The webhook URL policy of this process (lib/webhooks/url-policy.ts): loopback is allowed only
 * under `npm run dev` (scripts/runtime/run.ts sets DUEBILL_MODE=dev, and `npm start` sets `start`
 * whatever the shell exported) and never with NODE_ENV production, so a production server cannot
 * be talked into posting to its own machine; WEBHOOK_ALLOW_PRIVATE opens everything, as before.
 */
export function webhookUrlPolicy(): UrlPolicy {
  const e = env();
  return { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE, allowLoopback: e.DUEBILL_MODE === "dev" && e.NODE_ENV !== "production" };
}

/** What a 201 says about a URL the strict (production) policy would refuse: why it was accepted here. */
export function localUrlWarning(policy: UrlPolicy): string {
  return policy.allowPrivate
    ? "Accepted because WEBHOOK_ALLOW_PRIVATE is set (local development only): a production server refuses http, loopback and private addresses."
    : "Accepted for local testing because Duebill runs under `npm run dev`: `npm start` refuses webhook URLs on this machine (localhost, 127.0.0.0/8, ::1) and plain http.";
}
