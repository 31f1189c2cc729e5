"use client";

import { useWallet } from "@tronweb3/tronwallet-adapter-react-hooks";
import { TronLinkAdapterName } from "@tronweb3/tronwallet-adapter-tronlink";
import { useEffect, useState } from "react";
import type { SigningWallet } from "./signing-wallet";
import { walletErrorMessage } from "./wallet-errors";

/**
 * TronLink through its adapter, as the pay, sign-in and onboarding panels use it (inside
 * TronProviders). `connect()` selects TronLink first when needed: select() takes effect on the
 * next render, so the connection starts once the adapter is the selected one.
 */
export function useTronLink() {
  const { wallets, wallet, address, connected, connecting, select, connect, disconnect, signMessage, signTransaction } = useWallet();
  const [wantConnect, setWantConnect] = useState(false);
  const [connectError, setConnectError] = useState<string | null>(null);
  const notFound = String(wallets.find((w) => w.adapter.name === TronLinkAdapterName)?.state) === "NotFound";

  useEffect(() => {
    if (!wantConnect || !wallet || connected) return;
    setWantConnect(false);
    connect().catch((err: unknown) => setConnectError(walletErrorMessage(err)));
  }, [wantConnect, wallet, connected, connect]);

  return {
    /** The connected address; undefined until connected. */
    address: connected && address ? address : undefined,
    connecting: connecting || wantConnect,
    notFound,
    connectError,
    connect: () => {
      setConnectError(null);
      if (!wallet) select(TronLinkAdapterName);
      setWantConnect(true);
    },
    disconnect,
    signMessage,
    signTransaction,
  };
}

/** TronLink as a signing wallet: it signs TRON message v2 (what /v1/auth/wallet/verify checks for Tron). */
export function useTronSigningWallet(): SigningWallet {
  const tron = useTronLink();
  return {
    kind: "tron",
    address: tron.address,
    name: "TronLink",
    connecting: tron.connecting,
    notFound: tron.notFound,
    connectError: tron.connectError,
    connect: tron.connect,
    disconnect: () => void tron.disconnect(),
    signMessage: (message) => tron.signMessage(message),
  };
}
