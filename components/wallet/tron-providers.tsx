"use client";

import { WalletProvider } from "@tronweb3/tronwallet-adapter-react-hooks";
import { TronLinkAdapter } from "@tronweb3/tronwallet-adapter-tronlink";
import { type ReactNode, useState } from "react";

/** Errors are shown by the pay panel where they happen; the provider's default only logs them. */
function ignore(): void {}

/**
 * TronLink only (not the all-wallets adapter bundle). The adapter discovers TronLink by
 * TIP-6963 announcement, falling back to `window.tronLink` after `checkTimeout`.
 * No auto-connect: connecting is always the payer's click.
 */
export function TronProviders({ children }: { children: ReactNode }) {
  const [adapters] = useState(() => [new TronLinkAdapter({ checkTimeout: 2_500, openUrlWhenWalletNotFound: false, dappName: "Duebill" })]);
  return (
    <WalletProvider adapters={adapters} autoConnect={false} localStorageKey="duebill.tronWallet" onError={ignore}>
      {children}
    </WalletProvider>
  );
}
