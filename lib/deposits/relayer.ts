import type { Hex, WalletClient } from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { networkRuntime } from "@/lib/chain/config";
import { isNetworkId, NETWORK_IDS, type NetworkId } from "@/lib/chain/networks";
import { walletClientFor } from "@/lib/chain/reader";
import { env } from "@/lib/env";

/**
 * The deposit relayer: deploys deposit addresses, forwards what reaches them and (from Duebill's own
 * deposit contract) sends an excess, an underpaid or a late payment back. It pays gas only (the tokens
 * go from the deposit address through the fee proxy, to the payee or back to the payer) and has its own
 * account, so its nonces never interleave with the recurring relayer's bookkeeping.
 */
export function depositRelayer(): PrivateKeyAccount | null {
  const key = env().DEPOSIT_RELAYER_PRIVATE_KEY;
  return key ? privateKeyToAccount(key as Hex) : null;
}

/** Why a network has no deposit addresses; null when it has them. */
export function depositUnavailableReason(network: NetworkId): string | null {
  const rt = networkRuntime(network);
  if (rt.network.kind !== "evm") return `Deposit addresses are not available on ${rt.network.name}`;
  const enabled = env()
    .DEPOSIT_NETWORKS?.split(",")
    .map((n) => n.trim());
  if (enabled ? !enabled.includes(network) : network === "mainnet") return `Deposit addresses are not enabled on ${rt.network.name}`;
  if (!rt.contracts.depositFactory && !rt.contracts.singleRequestProxyFactory)
    return `No deposit address factory is configured on ${rt.network.name}`;
  if (!rt.rpcUrl) return `No RPC is configured for ${rt.network.name}`;
  if (!depositRelayer()) return "Deposit addresses are not enabled on this server (DEPOSIT_RELAYER_PRIVATE_KEY)";
  return null;
}

/**
 * Whether deposit addresses made now on `network` can send money back by themselves: Duebill's
 * DuebillDepositFactory is configured there (and deposit addresses are enabled). Where only Request
 * Network's SingleRequestProxyFactory is (production chains until Duebill's is deployed), a deposit
 * address can only forward to the payee: the `return` policy is then an offer (lib/refunds/policy.ts).
 */
export function depositReturnsAvailable(network: string): boolean {
  if (!isNetworkId(network)) return false;
  return Boolean(networkRuntime(network).contracts.depositFactory) && depositUnavailableReason(network) === null;
}

export function depositNetworks(): NetworkId[] {
  return NETWORK_IDS.filter((id) => depositUnavailableReason(id) === null);
}

export function depositWalletFor(network: NetworkId): { wallet: WalletClient; account: PrivateKeyAccount } | null {
  const account = depositRelayer();
  const wallet = account ? walletClientFor(network, account) : null;
  return account && wallet ? { wallet, account } : null;
}
