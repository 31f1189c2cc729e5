import { formatEther, type Hex } from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { type NetworkRef, runtimeOf } from "@/lib/chain/config";
import { NETWORK_IDS, NETWORKS, type NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import { type Env, env } from "@/lib/env";
import { log } from "@/lib/log";

/** Gas one triggerPayment uses at most (measured ~120k on anvil through the real ERC20FeeProxy; kept with headroom). */
export const GAS_PER_TRIGGER = 250_000n;
/** Gas one cancelSchedule uses at most (~35k: one storage write and an event; kept with headroom). */
export const GAS_PER_CANCEL = 100_000n;

const KEY_ENV: Record<Exclude<NetworkId, "tron">, keyof Env> = {
  mainnet: "RELAYER_PRIVATE_KEY_MAINNET",
  "arbitrum-one": "RELAYER_PRIVATE_KEY_ARBITRUM_ONE",
  optimism: "RELAYER_PRIVATE_KEY_OPTIMISM",
  base: "RELAYER_PRIVATE_KEY_BASE",
  matic: "RELAYER_PRIVATE_KEY_MATIC",
  bsc: "RELAYER_PRIVATE_KEY_BSC",
  sepolia: "RELAYER_PRIVATE_KEY_SEPOLIA",
};

/** The relayer account of a network: its own key, else RELAYER_PRIVATE_KEY; null when none is configured. */
export function relayerAccount(network: NetworkId): PrivateKeyAccount | null {
  if (network === "tron") return null;
  const key = (env()[KEY_ENV[network]] as string | undefined) ?? env().RELAYER_PRIVATE_KEY;
  return key ? privateKeyToAccount(key as Hex) : null;
}

/**
 * What keeps the executor from running on a network, in an operator's words (empty when it can
 * run): an EVM network needs a recurring contract, a relayer key and an RPC URL.
 */
export function recurringMissing(ref: NetworkRef): string[] {
  const rt = runtimeOf(ref);
  const network = rt.network.id;
  if (rt.network.kind !== "evm") return ["an EVM network (recurring payouts are EVM-only)"];
  const missing: string[] = [];
  if (!rt.contracts.recurringPayments) missing.push("a recurring contract (contracts.recurringPayments)");
  if (!relayerAccount(network)) missing.push(`a relayer key (RELAYER_PRIVATE_KEY or ${KEY_ENV[network as keyof typeof KEY_ENV]})`);
  if (!rt.rpcUrl) missing.push("an RPC URL");
  return missing;
}

/** Networks where the executor can run: EVM, an RPC, a recurring contract and a relayer key. */
export function recurringNetworks(): NetworkId[] {
  return NETWORK_IDS.filter((id) => recurringMissing(id).length === 0);
}

export interface RelayerStatus {
  network: NetworkId;
  address: string;
  balance: string;
  /** Enough gas for fewer than RELAYER_LOW_BALANCE_PAYMENTS payments at today's gas price. */
  low: boolean;
  /** Not even one payment's gas: schedules pause with relayer_out_of_gas until it is funded. */
  empty: boolean;
  error?: string;
}

/** One relayer's gas position; a low one is logged as an operator alert (never a payer failure). */
export async function relayerStatus(network: NetworkId): Promise<RelayerStatus | null> {
  const account = relayerAccount(network);
  const client = publicClientFor(network);
  if (!account || !client) return null;
  try {
    const [balance, gasPrice] = await Promise.all([client.getBalance({ address: account.address }), client.getGasPrice()]);
    const perPayment = GAS_PER_TRIGGER * gasPrice;
    const low = balance < perPayment * BigInt(env().RELAYER_LOW_BALANCE_PAYMENTS);
    const status = { network, address: account.address, balance: formatEther(balance), low, empty: balance < perPayment };
    if (low)
      log.warn("relayer low on gas", {
        network,
        relayer: account.address,
        balance: status.balance,
        symbol: NETWORKS[network].nativeSymbol,
        alert: "fund the relayer: recurring payments pause with relayer_out_of_gas once it cannot pay for one",
      });
    return status;
  } catch (err) {
    return {
      network,
      address: account.address,
      balance: "unknown",
      low: false,
      empty: false,
      error: (err as Error).message.split("\n")[0],
    };
  }
}

let cache: { at: number; value: RelayerStatus[] } | undefined;

/** Every configured relayer's status, cached 30 s (the health endpoint reads it). */
export async function relayersHealth(): Promise<RelayerStatus[]> {
  if (cache && Date.now() - cache.at < 30_000) return cache.value;
  const value = (await Promise.all(recurringNetworks().map(relayerStatus))).filter((s): s is RelayerStatus => s !== null);
  cache = { at: Date.now(), value };
  return value;
}
