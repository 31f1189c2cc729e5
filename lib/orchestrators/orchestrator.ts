import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";

/**
 * The orchestrator behind an `x-orchestrator-key`: its account. Links, intents, webhooks, fee
 * configs and branding belong to the account, so rotating keys never breaks them. Another
 * orchestrator's objects answer 404 (every query filters on this ID).
 */
export function orchestratorIdOf(principal: Principal): string {
  if (principal.kind !== "orchestratorKey") throw new AppError("credential_not_allowed", "This operation needs an x-orchestrator-key");
  return principal.accountId;
}
