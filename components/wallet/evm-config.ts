import { connectorsForWallets } from "@rainbow-me/rainbowkit";
import { injectedWallet, walletConnectWallet } from "@rainbow-me/rainbowkit/wallets";
import { type Chain, defineChain } from "viem";
import { type Config, cookieStorage, createConfig, createStorage, http } from "wagmi";

/** What the wallet needs to know of the link's network (from `PaymentPageData`). */
export interface PaymentNetwork {
  chainId: number;
  name: string;
  /** Set for local devnets (e.g. anvil standing in for Sepolia); the chain's public RPC otherwise. */
  rpcUrl: string | null;
  testnet: boolean;
}

interface KnownChain {
  native: { name: string; symbol: string; decimals: number };
  /** Public RPC (viem's default for the chain), used when the page names none. */
  rpc: string;
  explorer: { name: string; url: string };
}

const ETHER = { name: "Ether", symbol: "ETH", decimals: 18 };

/**
 * What the wallet needs of the networks Duebill serves (values as in viem/chains). Kept here
 * instead of importing viem's definitions: those of OP-stack chains (Optimism, Base) carry
 * block/receipt formatters and predeploy tables the pay page never uses, and they would load
 * before the connect modal does.
 */
const KNOWN_CHAINS: Record<number, KnownChain> = {
  1: { native: ETHER, rpc: "https://ethereum.reth.rs/rpc", explorer: { name: "Etherscan", url: "https://etherscan.io" } },
  42161: { native: ETHER, rpc: "https://arb1.arbitrum.io/rpc", explorer: { name: "Arbiscan", url: "https://arbiscan.io" } },
  10: {
    native: ETHER,
    rpc: "https://mainnet.optimism.io",
    explorer: { name: "Optimism Explorer", url: "https://optimistic.etherscan.io" },
  },
  8453: { native: ETHER, rpc: "https://mainnet.base.org", explorer: { name: "Basescan", url: "https://basescan.org" } },
  137: {
    native: { name: "POL", symbol: "POL", decimals: 18 },
    rpc: "https://polygon.drpc.org",
    explorer: { name: "PolygonScan", url: "https://polygonscan.com" },
  },
  56: {
    native: { name: "BNB", symbol: "BNB", decimals: 18 },
    rpc: "https://56.rpc.thirdweb.com",
    explorer: { name: "BscScan", url: "https://bscscan.com" },
  },
  11155111: {
    native: { name: "Sepolia Ether", symbol: "ETH", decimals: 18 },
    rpc: "https://11155111.rpc.thirdweb.com",
    explorer: { name: "Etherscan", url: "https://sepolia.etherscan.io" },
  },
};

/** The viem chain of the page: the known definition (native currency, explorers) with the page's name and RPC. */
export function paymentChain(network: PaymentNetwork): Chain {
  const known = KNOWN_CHAINS[network.chainId];
  const rpc = network.rpcUrl ?? known?.rpc;
  return defineChain({
    id: network.chainId,
    name: network.name,
    nativeCurrency: known?.native ?? ETHER,
    rpcUrls: { default: { http: rpc ? [rpc] : [] } },
    ...(known ? { blockExplorers: { default: known.explorer } } : {}),
    testnet: network.testnet,
  });
}

/**
 * One wagmi config per page, for the link's single chain. Injected wallets only (EIP-6963
 * discovery lists every installed extension; `injectedWallet` covers legacy
 * `window.ethereum`). WalletConnect joins the list only with a project ID: its connector
 * reaches its relay as soon as it is set up, and the SDK itself is a lazy chunk that is
 * never fetched otherwise. State lives in a cookie so the server page can hand it back.
 */
export function createPaymentWagmiConfig(
  network: PaymentNetwork,
  walletConnectProjectId: string | undefined,
  /** Other chains the payer may pay from (cross-chain sources). */
  extra: readonly PaymentNetwork[] = [],
): Config {
  const chain = paymentChain(network);
  const others = extra.filter((n) => n.chainId !== network.chainId);
  const wallets = walletConnectProjectId ? [injectedWallet, walletConnectWallet] : [injectedWallet];
  const connectors = connectorsForWallets([{ groupName: "Browser wallets", wallets }], {
    appName: "Duebill",
    projectId: walletConnectProjectId ?? "",
  });
  return createConfig({
    chains: [chain, ...others.map(paymentChain)],
    connectors,
    transports: Object.fromEntries([network, ...others].map((n) => [n.chainId, http(n.rpcUrl ?? undefined)])),
    multiInjectedProviderDiscovery: true,
    ssr: true,
    storage: createStorage({ storage: cookieStorage }),
    pollingInterval: 1_500,
  });
}
