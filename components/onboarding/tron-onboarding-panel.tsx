"use client";

import { useWallet } from "@tronweb3/tronwallet-adapter-react-hooks";
import { TronLinkAdapterName } from "@tronweb3/tronwallet-adapter-tronlink";
import { useEffect, useState } from "react";
import { describeError, isUserRejection, REJECTED_MESSAGE } from "@/components/shared/wallet-errors";
import { TronProviders } from "@/components/wallet/tron-providers";
import type { OnboardingPageData } from "@/lib/orchestrators/onboarding-page";
import { OnboardingFlow } from "./onboarding-flow";

function TronOnboarding({ data }: { data: OnboardingPageData }) {
  const { wallets, wallet, address, connected, connecting, select, connect, disconnect, signMessage } = useWallet();
  const [wantConnect, setWantConnect] = useState(false);
  const [connectError, setConnectError] = useState<string | null>(null);
  const notFound = String(wallets.find((w) => w.adapter.name === TronLinkAdapterName)?.state) === "NotFound";

  // select() takes effect on the next render; connect once the adapter is the selected one (as on the pay page).
  useEffect(() => {
    if (!wantConnect || !wallet || connected) return;
    setWantConnect(false);
    connect().catch((err: unknown) => setConnectError(isUserRejection(err) ? REJECTED_MESSAGE : describeError(err)));
  }, [wantConnect, wallet, connected, connect]);

  return (
    <OnboardingFlow
      data={data}
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
        // TronLink signs TRON message v2 (what /v1/auth/wallet/verify checks for Tron).
        signMessage: (message) => signMessage(message),
      }}
    />
  );
}

/** Entry of the Tron wallet bundle for onboarding (TronLink adapter + hooks): loaded on demand. */
export function TronOnboardingPanel({ data }: { data: OnboardingPageData }) {
  return (
    <TronProviders>
      <TronOnboarding data={data} />
    </TronProviders>
  );
}
