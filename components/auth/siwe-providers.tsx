"use client";

import "@rainbow-me/rainbowkit/styles.css";
import { lightTheme, RainbowKitProvider } from "@rainbow-me/rainbowkit";
import { RainbowKitSiweNextAuthProvider } from "@rainbow-me/rainbowkit-siwe-next-auth";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { SessionProvider } from "next-auth/react";
import { type ReactNode, useCallback, useMemo, useState } from "react";
import { WagmiProvider } from "wagmi";
import { createPaymentWagmiConfig, type PaymentNetwork, paymentChain } from "@/components/wallet/evm-config";
import { WALLETCONNECT_PROJECT_ID } from "@/components/wallet/wallet-env";

const THEME = lightTheme({ accentColor: "#4f46e5", borderRadius: "medium" });
/** As a /v1 challenge (lib/auth/sign-in/wallet.ts): the same statement, valid for 5 minutes. */
const STATEMENT = "Sign in to Duebill.";
const TTL_MS = 5 * 60 * 1000;

/** Where the app says it lives (APP_URL): the SIWE domain and URI the server checks. */
export interface SiweOrigin {
  domain: string;
  uri: string;
}

/**
 * Sign-in with Ethereum through next-auth: wagmi + react-query + next-auth's SessionProvider +
 * RainbowKit's SIWE adapter for next-auth + RainbowKit. Connecting in the RainbowKit modal then asks
 * for the signature; the adapter signs in with next-auth's "credentials" provider (nonce: the CSRF token).
 */
export function SiweProviders({ network, origin, children }: { network: PaymentNetwork; origin: SiweOrigin; children: ReactNode }) {
  const [config] = useState(() => createPaymentWagmiConfig(network, WALLETCONNECT_PROJECT_ID, []));
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } }));
  const chain = useMemo(() => paymentChain(network), [network]);
  const messageOptions = useCallback(() => {
    const issuedAt = new Date();
    return { ...origin, statement: STATEMENT, issuedAt, expirationTime: new Date(issuedAt.getTime() + TTL_MS) };
  }, [origin]);
  return (
    <WagmiProvider config={config}>
      <SessionProvider refetchOnWindowFocus={false}>
        <QueryClientProvider client={queryClient}>
          <RainbowKitSiweNextAuthProvider getSiweMessageOptions={messageOptions}>
            <RainbowKitProvider theme={THEME} modalSize="compact" initialChain={chain} appInfo={{ appName: "Duebill" }} locale="en-US">
              {children}
            </RainbowKitProvider>
          </RainbowKitSiweNextAuthProvider>
        </QueryClientProvider>
      </SessionProvider>
    </WagmiProvider>
  );
}
