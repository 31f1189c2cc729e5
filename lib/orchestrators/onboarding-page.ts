import { networkRuntime } from "@/lib/chain/config";
import { primaryLocalNetwork } from "@/lib/chain/stored";
import { watchedNetworks } from "@/lib/chain/watched";
import { availableKytProviders, type KytProviderInfo } from "@/lib/kyt/plan";
import { linkIntentByToken } from "@/lib/orchestrators/link-intents";

/**
 * What the hosted onboarding page (`/onboarding?token=…`) shows: the inviting orchestrator, what
 * the platform will share, the payout currencies it can pick (USDC/USDT on the EVM networks) and
 * the wallet network to sign in on. Server-side only; the token is the capability.
 */
export interface OnboardingPageData {
  token: string;
  state: "open" | "used" | "expired";
  clientIdName: string;
  expiresAt: string;
  domains: string[];
  orchestrator: { name: string; logoUrl: string | null; accentColor: string | null; supportUrl: string | null };
  /**
   * The orchestrator's screening plan (providers in order, the second a backup), or null: the
   * platform picks one of `kytChoices`. Only providers this deployment has are ever named.
   */
  kytPlan: KytProviderInfo[] | null;
  kytChoices: KytProviderInfo[];
  /**
   * Payout currencies: USDC/USDT on each network this deployment watches (lib/chain/watched.ts),
   * EVM ones for an EVM wallet and Tron's for TronLink. Empty when it watches none.
   */
  currencies: { id: string; label: string; network: string; kind: "evm" | "tron" }[];
  /** The wallet's network for signing in: a local devnet when one runs, else the first watched EVM network, else Base. */
  wallet: { chainId: number; name: string; testnet: boolean; rpcUrl: string | null };
}

const isLocal = (url: string) => /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(url);

export async function getOnboardingPage(token: string): Promise<OnboardingPageData | null> {
  const view = await linkIntentByToken(token);
  if (!view) return null;
  const watched = watchedNetworks();
  const evm = watched.filter((rt) => rt.network.kind === "evm");
  // The devnet's own network, not the cross-chain source chain beside it.
  const localId = primaryLocalNetwork()?.network.id;
  const local = evm.find((rt) => rt.network.id === localId);
  const ordered = local ? [local, ...evm.filter((rt) => rt !== local)] : evm;
  const currencies = [...ordered, ...watched.filter((rt) => rt.network.kind === "tron")].flatMap((rt) =>
    rt.tokens
      .filter((t) => (t.symbol === "USDC" || t.symbol === "USDT") && !t.paymentAliasOf)
      .map((t) => ({
        id: `${t.symbol}-${rt.network.id}`,
        label: `${t.symbol} on ${rt.network.name}`,
        network: rt.network.id,
        kind: rt.network.kind === "tron" ? ("tron" as const) : ("evm" as const),
      })),
  );
  const walletRt = local ?? evm[0] ?? networkRuntime("base");
  const available = availableKytProviders();
  return {
    token,
    state: view.state,
    clientIdName: view.intent.clientIdName,
    expiresAt: view.intent.expiresAt,
    domains: view.domains,
    orchestrator: {
      name: view.orchestrator.name,
      logoUrl: view.orchestrator.logoUrl,
      accentColor: view.orchestrator.accentColor,
      supportUrl: view.orchestrator.supportUrl,
    },
    kytPlan: view.kyt ? view.kyt.providers.flatMap((p) => available.filter((a) => a.id === p.provider)) : null,
    kytChoices: available,
    currencies,
    wallet: {
      chainId: walletRt.network.chainId,
      name: walletRt.network.name,
      testnet: walletRt.network.testnet,
      rpcUrl: walletRt.rpcUrl && isLocal(walletRt.rpcUrl) ? walletRt.rpcUrl : null,
    },
  };
}
