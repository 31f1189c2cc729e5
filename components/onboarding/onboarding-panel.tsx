"use client";

import { useConnectModal } from "@rainbow-me/rainbowkit";
import { useAccount, useDisconnect, useSignMessage } from "wagmi";
import { EvmProviders } from "@/components/wallet/evm-providers";
import type { OnboardingPageData } from "@/lib/orchestrators/onboarding-page";
import { OnboardingFlow } from "./onboarding-flow";

function EvmOnboarding({ data }: { data: OnboardingPageData }) {
  const { address, connector } = useAccount();
  const { openConnectModal, connectModalOpen } = useConnectModal();
  const { disconnect } = useDisconnect();
  const { signMessageAsync } = useSignMessage();
  return (
    <OnboardingFlow
      data={data}
      wallet={{
        kind: "evm",
        address,
        name: connector?.name,
        connecting: connectModalOpen || !openConnectModal,
        connect: () => openConnectModal?.(),
        disconnect: () => disconnect(),
        signMessage: (message) => signMessageAsync({ message }),
      }}
    />
  );
}

/** Entry of the EVM wallet bundle for onboarding (the pay page's wallet code): loaded on demand. */
export function OnboardingPanel({ data, cookie }: { data: OnboardingPageData; cookie: string | null }) {
  return (
    <EvmProviders network={data.wallet} cookie={cookie}>
      <EvmOnboarding data={data} />
    </EvmProviders>
  );
}
