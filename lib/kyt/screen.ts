import { sameAddress } from "@/lib/chain/address";
import { type Env, env } from "@/lib/env";
import { allOf, ChainalysisSanctionsProvider } from "@/lib/kyt/chainalysis";
import { sanctionsListProvider } from "@/lib/kyt/sanctions-list";
import type { KytProvider, KytResult } from "@/lib/kyt/types";

/**
 * The secure-payment access policy (DECISIONS.md): `off` screens nothing; `kyt_all_wallets`
 * (and `inherit`, the account default) screens every detected wallet; a non-empty
 * `allowedPayerAddresses` rejects any other payer. `maskPayee` (the reference's `hidePayeeAddress`,
 * or `hideUntilApproved`: the payee is revealed only in the calldata served after screening)
 * hides the payee on the page and in the public view.
 */
export interface AccessPolicy {
  mode: "inherit" | "off" | "kyt_all_wallets";
  allowedPayerAddresses?: string[];
  maskPayee?: boolean;
  hidePayeeAddress?: boolean;
  hideUntilApproved?: boolean;
  /** The reference's vendor choice: accepted; screening runs on the configured provider. */
  screeningProvider?: "hypernative" | "merklescience" | null;
}

/** Whether a link's payee is hidden from the payer until they pay. */
export function payeeMasked(policy: AccessPolicy | null | undefined): boolean {
  return policy?.maskPayee === true || policy?.hidePayeeAddress === true || policy?.hideUntilApproved === true;
}

let configured: { config: Env; provider: KytProvider } | undefined;

/**
 * The screening provider of the configuration: the bundled sanctions and deny lists, and with
 * KYT_PROVIDER=chainalysis Chainalysis' Sanctions API beside them (a hit on either rejects; an
 * unavailable vendor fails the screen, see lib/kyt/chainalysis.ts).
 */
export function configuredKytProvider(): KytProvider {
  const e = env();
  if (configured?.config === e) return configured.provider;
  const provider =
    e.KYT_PROVIDER === "chainalysis" && e.CHAINALYSIS_API_KEY
      ? allOf([sanctionsListProvider, new ChainalysisSanctionsProvider({ apiKey: e.CHAINALYSIS_API_KEY, baseUrl: e.CHAINALYSIS_API_URL })])
      : sanctionsListProvider;
  configured = { config: e, provider };
  return provider;
}

/** Whether a link's policy screens its payers (an allow list or screening not switched off). */
export function screensPayers(policy: AccessPolicy | null): boolean {
  return (policy?.mode ?? "inherit") !== "off" || (policy?.allowedPayerAddresses ?? []).length > 0;
}

export async function screenWallet(
  walletAddress: string,
  network: string,
  policy: AccessPolicy | null,
  role: "payer" | "payee",
  provider: KytProvider = configuredKytProvider(),
): Promise<KytResult | null> {
  const mode = policy?.mode ?? "inherit";
  const allowed = policy?.allowedPayerAddresses ?? [];
  if (role === "payer" && allowed.length > 0 && !allowed.some((a) => sameAddress(a, walletAddress))) {
    return {
      walletAddress,
      walletType: "eoa",
      parentWalletAddress: null,
      status: "rejected",
      reasonCode: "payer_not_allowed",
      provider: "duebill-access-policy",
      providerReference: null,
      reportUrl: null,
      notes: "Payer is not in the link's allowedPayerAddresses",
      rawStatus: "not_allowed",
      evaluatedAt: new Date().toISOString(),
    };
  }
  if (mode === "off") return null;
  return provider.screen(walletAddress, network);
}
