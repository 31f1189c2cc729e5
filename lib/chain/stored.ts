import { allNetworkRuntimes, type NetworkRuntime, networkRuntime } from "@/lib/chain/config";
import { LOCAL_RPC } from "@/lib/chain/explorer";
import { isNetworkId, NETWORKS, type NetworkId } from "@/lib/chain/networks";
import type { Token } from "@/lib/chain/tokens";
import { AppError } from "@/lib/errors";

/** Reading back what the database stores about a payment: its network, token and explorer link. */
export function networkOf(row: { network: string }): NetworkId {
  if (!isNetworkId(row.network)) throw new AppError("internal_error", `Stored request has unknown network ${row.network}`);
  return row.network;
}

/** The token of a stored `SYMBOL-network` currency ID (network IDs may hold a hyphen: USDC-arbitrum-one). */
export function tokenOf(row: { network: string; paymentCurrency: string }) {
  return storedTermsOf(row).token;
}

/**
 * A stored request's network, its runtime and its token, resolved once (for a pay plan to hand
 * down): the stored network ID and `SYMBOL-network` currency ID read back against the configuration.
 */
export function storedTermsOf(row: { network: string; paymentCurrency: string }): {
  network: NetworkId;
  runtime: NetworkRuntime;
  token: Token;
} {
  const network = networkOf(row);
  const runtime = networkRuntime(network);
  const suffix = `-${row.network}`;
  const symbol = row.paymentCurrency.endsWith(suffix)
    ? row.paymentCurrency.slice(0, -suffix.length)
    : row.paymentCurrency.slice(0, row.paymentCurrency.lastIndexOf("-"));
  const token = runtime.tokens.find((t) => t.symbol === symbol);
  if (!token) throw new AppError("internal_error", `Stored request has unknown currency ${row.paymentCurrency}`);
  return { network, runtime, token };
}

export function explorerUrl(network: string, txHash: string): string {
  return isNetworkId(network) ? `${NETWORKS[network].explorerTxUrl}${txHash}` : txHash;
}

/** True when the network is served by a local node (the devnet): no public explorer knows its transactions. */
export function isLocalChain(network: NetworkId): boolean {
  const rpc = networkRuntime(network).rpcUrl;
  return Boolean(rpc && LOCAL_RPC.test(rpc));
}

/**
 * The explorer page of a transaction for people to open, or null where no explorer has it (the
 * devnet, a network configured without one): the rule of lib/chain/explorer.ts.
 */
export function explorerLink(network: string, txHash: string): string | null {
  if (!isNetworkId(network)) return null;
  const prefix = networkRuntime(network).explorerTxUrl;
  return prefix ? `${prefix}${txHash}` : null;
}

/**
 * The local devnet's network (the one `npm run dev` pays on), or null: the first EVM network served
 * by a local node that is not the devnet bridge's cross-chain source chain.
 */
export function primaryLocalNetwork(): NetworkRuntime | null {
  return (
    allNetworkRuntimes().find(
      (rt) => rt.network.kind === "evm" && rt.rpcUrl !== null && LOCAL_RPC.test(rt.rpcUrl) && !rt.contracts.devnetBridge,
    ) ?? null
  );
}
