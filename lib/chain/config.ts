import { readFileSync } from "node:fs";
import { z } from "zod";
import { DEPLOYMENTS, type NetworkDeployments } from "@/lib/chain/deployments";
import { explorerTxPrefix } from "@/lib/chain/explorer";
import { NETWORK_IDS, NETWORKS, type Network, type NetworkId } from "@/lib/chain/networks";
import { TOKENS, type Token } from "@/lib/chain/tokens";
import { env } from "@/lib/env";

/**
 * Runtime view of the networks: the committed tables of docs/spec/chain-data.md with per-network
 * overrides from configuration (RPC URLs, confirmation depth, contract and token
 * addresses). A local devnet is just such an override (scripts/devnet).
 */
export interface NetworkRuntime {
  network: Network;
  rpcUrl: string | null;
  confirmations: number;
  /** Where the network's contracts are deployed (lib/chain/deployments.ts, CHAIN_CONFIG's "contracts" overrides). */
  contracts: NetworkDeployments;
  tokens: readonly Token[];
  /**
   * The explorer's transaction-page prefix, or null where no explorer knows this chain (a devnet:
   * a local RPC or another chain ID than the committed one). The rule: lib/chain/explorer.ts.
   */
  explorerTxUrl: string | null;
}

/** Blocks to wait before a payment counts: deep enough for each chain's reorg risk. */
const DEFAULT_CONFIRMATIONS: Record<NetworkId, number> = {
  mainnet: 6,
  "arbitrum-one": 10,
  optimism: 10,
  base: 10,
  matic: 32,
  bsc: 15,
  tron: 19,
  sepolia: 3,
};

const overrideSchema = z.partialRecord(
  z.enum(NETWORK_IDS),
  z.strictObject({
    rpcUrl: z.string().url().optional(),
    chainId: z.number().int().optional(),
    confirmations: z.number().int().min(0).max(1000).optional(),
    contracts: z
      .strictObject({
        erc20FeeProxy: z.string().optional(),
        erc20FeeProxyCreationBlock: z.number().int().min(0).optional(),
        erc20ConversionProxy: z.string().nullable().optional(),
        chainlinkConversionPath: z.string().nullable().optional(),
        batchPayments: z.string().optional(),
        recurringPaymentProxy: z.string().nullable().optional(),
        recurringPayments: z.string().nullable().optional(),
        singleRequestProxyFactory: z.string().nullable().optional(),
        depositFactory: z.string().nullable().optional(),
        gaslessPayments: z.string().nullable().optional(),
        commerceEscrow: z.string().nullable().optional(),
        devnetBridge: z.string().nullable().optional(),
        devnetBridgeCreationBlock: z.number().int().min(0).optional(),
      })
      .optional(),
    tokens: z.record(z.string(), z.string()).optional(),
    /** The explorer's transaction-page prefix for this chain; null: no explorer links. */
    explorerTxUrl: z.string().url().nullable().optional(),
  }),
);

type Overrides = z.infer<typeof overrideSchema>;

const RPC_ENV: Partial<Record<NetworkId, () => string | undefined>> = {
  mainnet: () => env().RPC_URL_MAINNET,
  "arbitrum-one": () => env().RPC_URL_ARBITRUM_ONE,
  optimism: () => env().RPC_URL_OPTIMISM,
  base: () => env().RPC_URL_BASE,
  matic: () => env().RPC_URL_MATIC,
  bsc: () => env().RPC_URL_BSC,
  sepolia: () => env().RPC_URL_SEPOLIA,
};

function loadOverrides(): Overrides {
  const { CHAIN_CONFIG, CHAIN_CONFIG_FILE } = env();
  const sources: string[] = [];
  if (CHAIN_CONFIG_FILE) sources.push(readFileSync(CHAIN_CONFIG_FILE, "utf8"));
  if (CHAIN_CONFIG) sources.push(CHAIN_CONFIG);
  const merged: Overrides = {};
  for (const text of sources) {
    const parsed = overrideSchema.safeParse(JSON.parse(text));
    if (!parsed.success)
      throw new Error(`Invalid chain configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    for (const [id, o] of Object.entries(parsed.data) as [NetworkId, NonNullable<Overrides[NetworkId]>][]) {
      const prev = merged[id] ?? {};
      merged[id] = { ...prev, ...o, contracts: { ...prev.contracts, ...o.contracts }, tokens: { ...prev.tokens, ...o.tokens } };
    }
  }
  return merged;
}

let cached: Map<NetworkId, NetworkRuntime> | undefined;

function build(): Map<NetworkId, NetworkRuntime> {
  const overrides = loadOverrides();
  const out = new Map<NetworkId, NetworkRuntime>();
  for (const id of NETWORK_IDS) {
    const o = overrides[id];
    const network = o?.chainId ? { ...NETWORKS[id], chainId: o.chainId } : NETWORKS[id];
    const tokens = TOKENS.filter((t) => t.network === id).map((t) => {
      const address = o?.tokens?.[t.symbol] ?? (t.paymentAliasOf ? o?.tokens?.[t.paymentAliasOf] : undefined);
      return address ? { ...t, address } : t;
    });
    const rpcUrl = o?.rpcUrl ?? RPC_ENV[id]?.() ?? null;
    out.set(id, {
      network,
      rpcUrl,
      confirmations: o?.confirmations ?? DEFAULT_CONFIRMATIONS[id],
      contracts: { ...DEPLOYMENTS[id], ...o?.contracts },
      tokens,
      explorerTxUrl: explorerTxPrefix({ committed: NETWORKS[id], chainId: network.chainId, rpcUrl, configured: o?.explorerTxUrl }),
    });
  }
  return out;
}

export function networkRuntime(id: NetworkId): NetworkRuntime {
  cached ??= build();
  return cached.get(id)!;
}

/**
 * A network by ID, or its runtime already resolved. A payment's terms resolve the runtime once
 * (lib/payments/terms.ts) and hand it down; callers that only know the ID pass the ID.
 */
export type NetworkRef = NetworkId | NetworkRuntime;

export function runtimeOf(ref: NetworkRef): NetworkRuntime {
  return typeof ref === "string" ? networkRuntime(ref) : ref;
}

export function allNetworkRuntimes(): NetworkRuntime[] {
  cached ??= build();
  return [...cached.values()];
}

/** Tests and the devnet change the configuration at run time. */
export function resetChainConfig(): void {
  cached = undefined;
}
