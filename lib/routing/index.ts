import { env } from "@/lib/env";
import { DevnetBridgeProvider, devnetBridgeSources } from "@/lib/routing/devnet-bridge";
import { lifiProviderFromEnv } from "@/lib/routing/lifi";
import type { RoutingProvider } from "@/lib/routing/types";

let override: RoutingProvider | null | undefined;

/**
 * The cross-chain routing provider in use: the devnet bridge when a local source chain is
 * configured (npm run dev, tests); LI.FI with `ROUTING_PROVIDER=lifi`; otherwise none (no
 * cross-chain routes are offered, and nothing is asked of a third party).
 */
export function routingProvider(): RoutingProvider | null {
  if (override !== undefined) return override;
  if (devnetBridgeSources().length > 0) return new DevnetBridgeProvider();
  if (env().ROUTING_PROVIDER === "lifi") return lifiProviderFromEnv();
  return null;
}

/** Tests replace the provider (a recorded LI.FI answer, a failing provider); undefined restores the default. */
export function setRoutingProviderForTests(provider: RoutingProvider | null | undefined): void {
  override = provider;
}
