"use client";

import { useWallet } from "@tronweb3/tronwallet-adapter-react-hooks";
import { TronLinkAdapterName } from "@tronweb3/tronwallet-adapter-tronlink";
import { useEffect, useState } from "react";
import { describeError, isUserRejection, REJECTED_MESSAGE } from "@/components/shared/wallet-errors";
import { TronProviders } from "@/components/wallet/tron-providers";
import { WalletSignInFlow } from "./wallet-sign-in-flow";

function TronSignIn({ next }: { next: string }) {
  const { wallets, wallet, address, connected, connecting, select, connect, disconnect, signMessage } = useWallet();
  const [wantConnect, setWantConnect] = useState(false);
  const [connectError, setConnectError] = useState<string | null>(null);
  const notFound = String(wallets.find((w) => w.adapter.name === TronLinkAdapterName)?.state) === "NotFound";
  useEffect(() => {
    if (!wantConnect || !wallet || connected) return;
    setWantConnect(false);
    connect().catch((err: unknown) => setConnectError(isUserRejection(err) ? REJECTED_MESSAGE : describeError(err)));
  }, [wantConnect, wallet, connected, connect]);
  return (
    <WalletSignInFlow
      next={next}
      wallet={{
        kind: "tron",
        address: connected && address ? address : undefined,
        name: "TronLink",
        connecting: connecting || wantConnect,
        notFound,
        connectError,
        connect: () => {
          setConnectError(null);
          if (!wallet) select(TronLinkAdapterName);
          setWantConnect(true);
        },
        disconnect: () => void disconnect(),
        signMessage: (message) => signMessage(message),
      }}
    />
  );
}

/** Entry of the Tron wallet bundle for sign-in (TronLink adapter): loaded only when chosen. */
export function TronSignInPanel({ next }: { next: string }) {
  return (
    <TronProviders>
      <TronSignIn next={next} />
    </TronProviders>
  );
}
