"use client";

import "@rainbow-me/rainbowkit/styles.css";
import { lightTheme, RainbowKitProvider } from "@rainbow-me/rainbowkit";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useMemo, useState } from "react";
import { cookieToInitialState, WagmiProvider } from "wagmi";
import { createPaymentWagmiConfig, type PaymentNetwork, paymentChain } from "./evm-config";
import { WALLETCONNECT_PROJECT_ID } from "./wallet-env";

const THEME = lightTheme({ accentColor: "#4f46e5", borderRadius: "medium" });

/**
 * WagmiProvider + react-query + RainbowKit for one payment page. The config is built here,
 * on the client, from the page's network; `cookie` is wagmi's cookie from the request,
 * passed down by the server page so a returning payer's connection is restored without a flash.
 */
export function EvmProviders({
  network,
  extraNetworks = [],
  cookie,
  children,
}: {
  network: PaymentNetwork;
  extraNetworks?: readonly PaymentNetwork[];
  cookie: string | null;
  children: ReactNode;
}) {
  const [config] = useState(() => createPaymentWagmiConfig(network, WALLETCONNECT_PROJECT_ID, extraNetworks));
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } }));
  const initialState = useMemo(() => {
    try {
      return cookieToInitialState(config, cookie);
    } catch {
      return undefined; // a stale or hand-edited cookie: start disconnected
    }
  }, [config, cookie]);
  const chain = useMemo(() => paymentChain(network), [network]);
  return (
    <WagmiProvider config={config} initialState={initialState}>
      <QueryClientProvider client={queryClient}>
        <RainbowKitProvider theme={THEME} modalSize="compact" initialChain={chain} appInfo={{ appName: "Duebill" }} locale="en-US">
          {children}
        </RainbowKitProvider>
      </QueryClientProvider>
    </WagmiProvider>
  );
}
