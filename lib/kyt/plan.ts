import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { ChainalysisSanctionsProvider } from "@/lib/kyt/chainalysis";
import { operatorDenied, sanctionsListProvider } from "@/lib/kyt/sanctions-list";
import { configuredKytProvider } from "@/lib/kyt/screen";
import type { KytProvider } from "@/lib/kyt/types";
import { log } from "@/lib/log";

/**
 * Screening plans (the link intent's `kyt`, reference shape `{providers: [{provider, policyId?}]}`):
 * one or two providers of this deployment, the first primary, the second used only when the first
 * fails technically (an outage, a refused key; a rejection is an answer, not a failure). The
 * orchestrator sets it on the intent, or the platform picks one provider on the hosted onboarding
 * page; links made with the client ID that onboarding created are then screened by it.
 *
 * Providers this deployment can have:
 * - `duebill-sanctions`: the bundled OFAC SDN list (lib/kyt/sanctions-list.ts); always there.
 * - `chainalysis`: Chainalysis' Sanctions API (lib/kyt/chainalysis.ts); there when CHAINALYSIS_API_KEY is set.
 * Any other name (hypernative, merklescience, …) is refused with 400 naming the field.
 *
 * The operator's deny list (KYT_DENY_LIST, KYT_DENY_LIST_FILE) is the operator's own rule, not a
 * vendor: it rejects whatever plan a platform chose. `policyId` is kept as given; neither provider
 * here has policies.
 */
export interface KytPlan {
  providers: { provider: string; policyId?: string }[];
}

export interface KytProviderInfo {
  id: string;
  label: string;
  description: string;
}

const SANCTIONS: KytProviderInfo = {
  id: "duebill-sanctions",
  label: "Sanctions list (OFAC SDN, built in)",
  description: "Duebill's bundled copy of the US Treasury's OFAC SDN digital-currency addresses",
};
const CHAINALYSIS: KytProviderInfo = {
  id: "chainalysis",
  label: "Chainalysis Sanctions API",
  description: "Chainalysis' sanctions screening service",
};

/** The screening providers this deployment has, in the order the onboarding page offers them. */
export function availableKytProviders(): KytProviderInfo[] {
  return env().CHAINALYSIS_API_KEY ? [SANCTIONS, CHAINALYSIS] : [SANCTIONS];
}

export function isAvailableKytProvider(id: string): boolean {
  return availableKytProviders().some((p) => p.id === id);
}

let chainalysis: { key: string; url: string; provider: KytProvider } | undefined;

/** The provider behind a plan name, or null when this deployment does not have it (now). */
export function kytProviderById(id: string): KytProvider | null {
  if (id === SANCTIONS.id) return sanctionsListProvider;
  const e = env();
  if (id === CHAINALYSIS.id && e.CHAINALYSIS_API_KEY) {
    if (chainalysis?.key !== e.CHAINALYSIS_API_KEY || chainalysis.url !== e.CHAINALYSIS_API_URL)
      chainalysis = {
        key: e.CHAINALYSIS_API_KEY,
        url: e.CHAINALYSIS_API_URL,
        // The global fetch of the moment, not the one at construction (tests replace it).
        provider: new ChainalysisSanctionsProvider({
          apiKey: e.CHAINALYSIS_API_KEY,
          baseUrl: e.CHAINALYSIS_API_URL,
          fetch: (input, init) => fetch(input, init),
        }),
      };
    return chainalysis.provider;
  }
  return null;
}

/**
 * A plan as one provider: the operator's deny list, then the primary; the backup only when the
 * primary fails technically (or is no longer configured). Both failing fails the screen (fail
 * closed: the caller's 503, or a link left pending).
 */
export function planProvider(plan: KytPlan): KytProvider {
  const ids = plan.providers.map((p) => p.provider);
  return {
    name: ids.join(">"),
    async screen(walletAddress, network) {
      const denied = operatorDenied(walletAddress);
      if (denied) return denied;
      let failure: unknown = null;
      for (const id of ids) {
        const provider = kytProviderById(id);
        if (!provider) {
          log.warn("screening plan names a provider this deployment no longer has", { provider: id });
          continue;
        }
        try {
          return await provider.screen(walletAddress, network);
        } catch (err) {
          failure = err;
          log.warn("screening provider failed; trying the plan's backup if any", { provider: id, error: String(err) });
        }
      }
      if (failure instanceof AppError) throw failure;
      throw new AppError("upstream_unavailable", "Screening is unavailable right now; try again shortly", {
        headers: { "Retry-After": "30" },
      });
    },
  };
}

/**
 * The screening plan of a client ID: the one its onboarding intent carries (the orchestrator's,
 * or the platform's choice), or null (the deployment's default screening applies).
 */
export async function kytPlanOfClientId(clientId: string | null): Promise<KytPlan | null> {
  if (!clientId) return null;
  const link = await db().clientIdLink.findUnique({ where: { clientId }, select: { intent: { select: { kyt: true } } } });
  const plan = link?.intent?.kyt as KytPlan | null | undefined;
  return plan && Array.isArray(plan.providers) && plan.providers.length > 0 ? plan : null;
}

/** Who screens the wallets of a link made with `clientId`: its plan, or the deployment's default. */
export async function kytProviderForClientId(clientId: string | null): Promise<KytProvider> {
  const plan = await kytPlanOfClientId(clientId);
  return plan ? planProvider(plan) : configuredKytProvider();
}
