import { allNetworkRuntimes, type NetworkRuntime } from "@/lib/chain/config";
import { NETWORKS, type NetworkId } from "@/lib/chain/networks";
import { env } from "@/lib/env";

/**
 * The networks this deployment watches for payments — the ones detection has a source for
 * (lib/detection/sweep.ts `eventSources`): an EVM network with an RPC URL (CHAIN_CONFIG or
 * RPC_URL_<NETWORK>), Tron when TRON_API_URL names a TronGrid-compatible API. A payment on any
 * other network is never detected, so nothing should offer one to be paid into.
 */
export function watchedNetworks(): NetworkRuntime[] {
  const tron = Boolean(env().TRON_API_URL);
  return allNetworkRuntimes().filter((rt) => (rt.network.kind === "evm" ? rt.rpcUrl !== null : tron));
}

export function isWatchedNetwork(id: NetworkId): boolean {
  return watchedNetworks().some((rt) => rt.network.id === id);
}

/** "Base, Sepolia" — for messages naming what a deployment watches. */
export function watchedNetworkNames(): string {
  const names = watchedNetworks().map((rt) => NETWORKS[rt.network.id as NetworkId].name);
  return names.length ? names.join(", ") : "none";
}
