/**
 * The 8 networks Duebill supports (docs/spec/chain-data.md). Network IDs are the
 * Request Network names, which integrators already use in currency IDs (`USDC-matic`).
 */
export type NetworkKind = "evm" | "tron";

export interface Network {
  readonly id: NetworkId;
  readonly name: string;
  readonly chainId: number;
  readonly kind: NetworkKind;
  readonly nativeSymbol: string;
  readonly testnet: boolean;
  readonly explorerTxUrl: string;
}

export const NETWORK_IDS = ["mainnet", "arbitrum-one", "optimism", "base", "matic", "bsc", "tron", "sepolia"] as const;

export type NetworkId = (typeof NETWORK_IDS)[number];

export const TRON_CHAIN_ID = 728126428;

export const NETWORKS: Readonly<Record<NetworkId, Network>> = {
  mainnet: {
    id: "mainnet",
    name: "Ethereum",
    chainId: 1,
    kind: "evm",
    nativeSymbol: "ETH",
    testnet: false,
    explorerTxUrl: "https://etherscan.io/tx/",
  },
  "arbitrum-one": {
    id: "arbitrum-one",
    name: "Arbitrum One",
    chainId: 42161,
    kind: "evm",
    nativeSymbol: "ETH",
    testnet: false,
    explorerTxUrl: "https://arbiscan.io/tx/",
  },
  optimism: {
    id: "optimism",
    name: "Optimism",
    chainId: 10,
    kind: "evm",
    nativeSymbol: "ETH",
    testnet: false,
    explorerTxUrl: "https://optimistic.etherscan.io/tx/",
  },
  base: {
    id: "base",
    name: "Base",
    chainId: 8453,
    kind: "evm",
    nativeSymbol: "ETH",
    testnet: false,
    explorerTxUrl: "https://basescan.org/tx/",
  },
  matic: {
    id: "matic",
    name: "Polygon",
    chainId: 137,
    kind: "evm",
    nativeSymbol: "POL",
    testnet: false,
    explorerTxUrl: "https://polygonscan.com/tx/",
  },
  bsc: {
    id: "bsc",
    name: "BNB Smart Chain",
    chainId: 56,
    kind: "evm",
    nativeSymbol: "BNB",
    testnet: false,
    explorerTxUrl: "https://bscscan.com/tx/",
  },
  tron: {
    id: "tron",
    name: "Tron",
    chainId: TRON_CHAIN_ID,
    kind: "tron",
    nativeSymbol: "TRX",
    testnet: false,
    explorerTxUrl: "https://tronscan.org/#/transaction/",
  },
  sepolia: {
    id: "sepolia",
    name: "Sepolia",
    chainId: 11155111,
    kind: "evm",
    nativeSymbol: "ETH",
    testnet: true,
    explorerTxUrl: "https://sepolia.etherscan.io/tx/",
  },
};

export function isNetworkId(value: string): value is NetworkId {
  return Object.hasOwn(NETWORKS, value);
}

/** A network's name for people ("Sepolia", "Arbitrum One"); an unknown ID as it is. */
export function networkName(id: string): string {
  return isNetworkId(id) ? NETWORKS[id].name : id;
}
