"use client";

import { useConnectModal } from "@rainbow-me/rainbowkit";
import { useAccount, useDisconnect, useSignMessage } from "wagmi";
import type { PaymentNetwork } from "@/components/wallet/evm-config";
import { EvmProviders } from "@/components/wallet/evm-providers";
import { WalletSignInFlow } from "./wallet-sign-in-flow";

function EvmSignIn({ network, next }: { network: PaymentNetwork; next: string }) {
  const { address, connector } = useAccount();
  const { openConnectModal, connectModalOpen } = useConnectModal();
  const { disconnect } = useDisconnect();
  const { signMessageAsync } = useSignMessage();
  return (
    <WalletSignInFlow
      next={next}
      wallet={{
        kind: "evm",
        address,
        name: connector?.name,
        chainId: network.chainId,
        connecting: connectModalOpen || !openConnectModal,
        connect: () => openConnectModal?.(),
        disconnect: () => disconnect(),
        signMessage: (message) => signMessageAsync({ message }),
      }}
    />
  );
}

/** Entry of the EVM wallet bundle for sign-in (RainbowKit + wagmi): loaded only when chosen. */
export function EvmSignInPanel({ network, next }: { network: PaymentNetwork; next: string }) {
  return (
    <EvmProviders network={network} cookie={null}>
      <EvmSignIn network={network} next={next} />
    </EvmProviders>
  );
}
