import type { ExcessPolicy } from "@/lib/generated/prisma/client";

/**
 * What happens to money a payer sent that a request did not ask for — an overpayment's excess, the
 * whole of a payment left short when its link expired (underpaid), the whole of a payment that came
 * after its link expired (late): `return` it, `offer` it to the payee as a one-click refund, or `keep`
 * it. Chosen per account (Settings; default offer) and per link (POST /v2/secure-payments
 * `excessPolicy`; null: the account's). docs/guides/refunds.md.
 */
export const EXCESS_POLICIES = ["return", "offer", "keep"] as const satisfies readonly ExcessPolicy[];
export type { ExcessPolicy };

/** The link's own choice, else its account's. */
export function policyOf(linkPolicy: ExcessPolicy | null | undefined, accountPolicy: ExcessPolicy): ExcessPolicy {
  return linkPolicy ?? accountPolicy;
}

/**
 * The policy that really applies to a link: `return` needs a link paid through a deposit address that
 * can return (`canReturn`: a link that takes deposits on a network with Duebill's deposit factory,
 * lib/deposits/relayer.ts depositReturnsAvailable);
 * elsewhere `return` is an offer. A direct wallet payment to a `return` link is offered too (the payee's
 * wallet holds that money: nothing moves without it) — the API says `return` there because a deposit
 * to the same link is returned.
 */
export function effectivePolicy(policy: ExcessPolicy, canReturn: boolean): ExcessPolicy {
  return policy === "return" && !canReturn ? "offer" : policy;
}
