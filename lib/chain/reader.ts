import { type Account, createPublicClient, createWalletClient, erc20Abi, http, type PublicClient, type WalletClient } from "viem";
import { batchConversionPaymentsAbi } from "@/lib/chain/abis";
import { asEvmAddress } from "@/lib/chain/address";
import { type NetworkRef, runtimeOf } from "@/lib/chain/config";
import { AppError } from "@/lib/errors";

/**
 * Reads the chain state payment planning needs. EVM through the network's JSON-RPC; Tron
 * has no reader here (no node is reachable), so Tron plans assume an approval is needed.
 */
export interface ChainReader {
  allowance(token: string, owner: string, spender: string): Promise<bigint>;
  balanceOf(token: string, owner: string): Promise<bigint>;
  nativeBalance(owner: string): Promise<bigint>;
  batchFeeBps(batchContract: string): Promise<bigint>;
  gasPrice(): Promise<bigint>;
}

const clients = new Map<string, PublicClient>();

export function publicClientFor(network: NetworkRef): PublicClient | null {
  const rt = runtimeOf(network);
  if (!rt.rpcUrl || rt.network.kind !== "evm") return null;
  const key = `${rt.network.id}:${rt.rpcUrl}`;
  let client = clients.get(key);
  if (!client) {
    client = createPublicClient({ transport: http(rt.rpcUrl, { timeout: 10_000, retryCount: 1 }) }) as PublicClient;
    clients.set(key, client);
  }
  return client;
}

const walletClients = new Map<string, WalletClient>();

/**
 * A sending client for `account` on an EVM network's RPC, one per (network, RPC, account); null without an
 * RPC. The relayers (lib/deposits, lib/relayer) send through it.
 */
export function walletClientFor(network: NetworkRef, account: Account): WalletClient | null {
  const rt = runtimeOf(network);
  if (!rt.rpcUrl || rt.network.kind !== "evm") return null;
  const key = `${rt.network.id}:${rt.rpcUrl}:${account.address}`;
  let wallet = walletClients.get(key);
  if (!wallet) {
    wallet = createWalletClient({ account, transport: http(rt.rpcUrl, { timeout: 15_000, retryCount: 1 }) });
    walletClients.set(key, wallet);
  }
  return wallet;
}

function upstream(err: unknown): never {
  throw new AppError(
    "upstream_unavailable",
    `Could not read the chain: ${err instanceof Error ? err.message.split("\n")[0] : "RPC error"}`,
  );
}

export function chainReaderFor(network: NetworkRef): ChainReader | null {
  const client = publicClientFor(network);
  if (!client) return null;
  return {
    allowance: (token, owner, spender) =>
      client
        .readContract({
          address: asEvmAddress(token),
          abi: erc20Abi,
          functionName: "allowance",
          args: [asEvmAddress(owner), asEvmAddress(spender)],
        })
        .catch(upstream),
    balanceOf: (token, owner) =>
      client
        .readContract({ address: asEvmAddress(token), abi: erc20Abi, functionName: "balanceOf", args: [asEvmAddress(owner)] })
        .catch(upstream),
    nativeBalance: (owner) => client.getBalance({ address: asEvmAddress(owner) }).catch(upstream),
    batchFeeBps: (batchContract) =>
      client
        .readContract({ address: asEvmAddress(batchContract), abi: batchConversionPaymentsAbi, functionName: "batchFee" })
        .then((v) => BigInt(v))
        .catch(upstream),
    gasPrice: () => client.getGasPrice().catch(upstream),
  };
}
