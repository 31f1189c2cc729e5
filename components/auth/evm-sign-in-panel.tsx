"use client";

import { useConnectModal } from "@rainbow-me/rainbowkit";
import { useSession } from "next-auth/react";
import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import type { PaymentNetwork } from "@/components/wallet/evm-config";
import { type SiweOrigin, SiweProviders } from "./siwe-providers";

/** RainbowKit's connect-and-sign: the modal connects, then asks for the SIWE signature; signed in, the page moves on. */
function EvmSignIn({ next }: { next: string }) {
  const { openConnectModal, connectModalOpen } = useConnectModal();
  const { status } = useSession();
  useEffect(() => {
    if (status === "authenticated") window.location.assign(next);
  }, [status, next]);
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">Connect your wallet, then sign a message to prove it is yours. Signing costs nothing.</p>
      <Button block disabled={connectModalOpen || !openConnectModal || status !== "unauthenticated"} onClick={() => openConnectModal?.()}>
        {status === "authenticated" ? "Signed in…" : connectModalOpen || !openConnectModal ? "Connecting…" : "Connect wallet"}
      </Button>
    </div>
  );
}

/** Entry of the EVM wallet bundle for sign-in (RainbowKit + wagmi + SIWE for next-auth): loaded only when chosen. */
export function EvmSignInPanel({ network, origin, next }: { network: PaymentNetwork; origin: SiweOrigin; next: string }) {
  return (
    <SiweProviders network={network} origin={origin}>
      <EvmSignIn next={next} />
    </SiweProviders>
  );
}
