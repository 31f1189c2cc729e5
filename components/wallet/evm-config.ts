import { connectorsForWallets } from "@rainbow-me/rainbowkit";
import { injectedWallet, walletConnectWallet } from "@rainbow-me/rainbowkit/wallets";
import { type Chain, defineChain } from "viem";
import { arbitrum, base, bsc, mainnet, optimism, polygon, sepolia } from "viem/chains";
import { type Config, cookieStorage, createConfig, createStorage, http } from "wagmi";

/** What the wallet needs to know of the link's network (from `PaymentPageData`). */
export interface PaymentNetwork {
  chainId: number;
  name: string;
  /** Set for local devnets (e.g. anvil standing in for Sepolia); the chain's public RPC otherwise. */
  rpcUrl: string | null;
  testnet: boolean;
}

const KNOWN_CHAINS: Record<number, Chain> = Object.fromEntries(
  [mainnet, arbitrum, optimism, base, polygon, bsc, sepolia].map((c) => [c.id, c]),
);

/** The viem chain of the page: the known definition (native currency, explorers) with the page's name and RPC. */
export function paymentChain(network: PaymentNetwork): Chain {
  const rpcUrls = network.rpcUrl ? { default: { http: [network.rpcUrl] } } : undefined;
  const known = KNOWN_CHAINS[network.chainId];
  if (known) return { ...known, name: network.name, ...(rpcUrls ? { rpcUrls } : {}) };
  return defineChain({
    id: network.chainId,
    name: network.name,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: rpcUrls ?? { default: { http: [] } },
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
