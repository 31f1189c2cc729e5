"use client";

import { useTronSigningWallet } from "@/components/shared/tronlink";
import { TronProviders } from "@/components/wallet/tron-providers";
import { WalletSignInFlow } from "./wallet-sign-in-flow";

function TronSignIn({ next }: { next: string }) {
  return <WalletSignInFlow next={next} wallet={useTronSigningWallet()} />;
}

/** Entry of the Tron wallet bundle for sign-in (TronLink adapter): loaded only when chosen. */
export function TronSignInPanel({ next }: { next: string }) {
  return (
    <TronProviders>
      <TronSignIn next={next} />
    </TronProviders>
  );
}
