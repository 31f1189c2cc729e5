import { sameAddress } from "@/lib/chain/address";
import { isNetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import { type Env, env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { allOf, ChainalysisSanctionsProvider } from "@/lib/kyt/chainalysis";
import { sanctionsListProvider } from "@/lib/kyt/sanctions-list";
import type { KytProvider, KytResult } from "@/lib/kyt/types";
import { log } from "@/lib/log";

/**
 * The secure-payment access policy (docs/spec/DECISIONS.md "Secure payments"): `off` screens nothing; `kyt_all_wallets`
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
  /**
   * The provider that screens this link's payers: one of this deployment's (lib/kyt/plan.ts),
   * checked at creation; it takes the place of the client ID's plan or the default for this link.
   */
  screeningProvider?: string | null;
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

/** EIP-7702's delegation designator: an EOA's code is `0xef0100 || address` (23 bytes) while it delegates. */
const DELEGATION_DESIGNATOR = /^0xef0100[0-9a-f]{40}$/i;

/**
 * What kind of wallet an address is, from the code at it (eth_getCode on the link's network):
 * no code → `eoa`; contract code → `smart_account`. An EIP-7702-delegated EOA (code = the
 * delegation designator) stays `eoa`: its own key still signs for it and can revoke the
 * delegation at any time, so the account screened is the key holder's. Null when the network has
 * no RPC here (Tron, or an EVM network without one): the provider's answer stands. An RPC that
 * does not answer fails the screen (503), as a screening vendor outage does.
 */
export async function walletTypeOf(walletAddress: string, network: string): Promise<KytResult["walletType"] | null> {
  if (!isNetworkId(network) || !/^0x[0-9a-fA-F]{40}$/.test(walletAddress)) return null;
  const client = publicClientFor(network);
  if (!client) return null;
  let code: string | undefined;
  try {
    code = await client.getCode({ address: walletAddress as `0x${string}` });
  } catch (err) {
    log.warn("wallet type could not be read", { network, walletAddress, error: err instanceof Error ? err.message : String(err) });
    throw new AppError("upstream_unavailable", "Screening is unavailable right now; try again shortly", {
      headers: { "Retry-After": "30" },
    });
  }
  if (!code || code === "0x" || DELEGATION_DESIGNATOR.test(code)) return "eoa";
  return "smart_account";
}

async function typed(result: KytResult, network: string): Promise<KytResult> {
  const walletType = await walletTypeOf(result.walletAddress, network);
  return walletType ? { ...result, walletType } : result;
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
    return typed(
      {
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
      },
      network,
    );
  }
  if (mode === "off") return null;
  return typed(await provider.screen(walletAddress, network), network);
}
