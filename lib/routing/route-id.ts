import type { NetworkId } from "@/lib/chain/networks";

/** Chain labels of the reference API's route ids and `chain` query values (docs/spec/DECISIONS.md "Cross-chain and conversion"). */
export const ROUTE_CHAIN_LABEL: Readonly<Record<NetworkId, string>> = {
  mainnet: "ETHEREUM",
  "arbitrum-one": "ARBITRUM",
  optimism: "OPTIMISM",
  base: "BASE",
  matic: "POLYGON",
  bsc: "BSC",
  tron: "TRON",
  sepolia: "SEPOLIA",
};

/** `ARBITRUM_BASE_USDC_USDC`: source chain, destination chain, source token, destination token. */
export function crossChainRouteId(source: NetworkId, destination: NetworkId, sourceToken: string, destinationToken: string): string {
  return `${ROUTE_CHAIN_LABEL[source]}_${ROUTE_CHAIN_LABEL[destination]}_${sourceToken.toUpperCase()}_${destinationToken.toUpperCase()}`;
}
