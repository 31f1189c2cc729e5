"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { PaymentNetwork } from "@/components/wallet/evm-config";
import type { SiweOrigin } from "./siwe-providers";

const loading = () => (
  <p role="status" className="text-sm text-slate-600">
    Loading wallet options…
  </p>
);
// The wallet stacks load only when a wallet sign-in is chosen: the dashboards carry no wallet code.
const EvmSignInPanel = dynamic(() => import("./evm-sign-in-panel").then((m) => m.EvmSignInPanel), { ssr: false, loading });
const TronSignInPanel = dynamic(() => import("./tron-sign-in-panel").then((m) => m.TronSignInPanel), { ssr: false, loading });

export function WalletSignIn({ network, origin, next }: { network: PaymentNetwork; origin: SiweOrigin; next: string }) {
  const [kind, setKind] = useState<"evm" | "tron" | null>(null);
  if (kind === "evm") return <EvmSignInPanel network={network} origin={origin} next={next} />;
  if (kind === "tron") return <TronSignInPanel next={next} />;
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      <Button variant="secondary" onClick={() => setKind("evm")}>
        EVM wallet
      </Button>
      <Button variant="secondary" onClick={() => setKind("tron")}>
        TronLink
      </Button>
    </div>
  );
}
