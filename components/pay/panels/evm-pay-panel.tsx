"use client";

import { useMemo } from "react";
import { paymentChain } from "@/components/wallet/evm-config";
import { EvmProviders } from "@/components/wallet/evm-providers";
import type { PaymentPageData } from "@/lib/secure-payments/page-types";
import { EvmPayFlow } from "./evm-pay-flow";

/** Entry of the EVM wallet bundle (wagmi, RainbowKit, react-query): loaded on demand by PayPanelLoader. */
export function EvmPayPanel({ data, cookie }: { data: PaymentPageData; cookie: string | null }) {
  const { chainId, name, testnet } = data.network;
  const network = useMemo(() => ({ chainId, name, testnet, rpcUrl: data.rpcUrl }), [chainId, name, testnet, data.rpcUrl]);
  return (
    <EvmProviders network={network} extraNetworks={data.crossChainSources.map((s) => s.network)} cookie={cookie}>
      <EvmPayFlow data={data} nativeSymbol={paymentChain(network).nativeCurrency.symbol} />
    </EvmProviders>
  );
}
