"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { useTronSigningWallet } from "@/components/shared/tronlink";
import { walletErrorMessage } from "@/components/shared/wallet-errors";
import { Button } from "@/components/ui/button";
import { FormOutcome } from "@/components/ui/form-outcome";
import { TronProviders } from "@/components/wallet/tron-providers";
import type { DestinationActions, DestinationCurrency } from "./destination-types";

type Step = "idle" | "preparing" | "signing" | "saving";
const LABEL: Record<Step, string> = {
  idle: "Sign and save",
  preparing: "Preparing…",
  signing: "Sign in TronLink…",
  saving: "Saving…",
};

/**
 * Connect TronLink, sign the destination's text (TRON message v2: action, account, wallet,
 * currency, nonce, expiry), save: the server recovers the signer as Tron sign-in does and
 * registers the wallet with POST /v2/payee-destination's rules.
 */
function ConnectAndSign({
  currency,
  actions,
  hasActive,
}: {
  currency: DestinationCurrency;
  actions: DestinationActions;
  hasActive: boolean;
}) {
  const wallet = useTronSigningWallet();
  const router = useRouter();
  const [step, setStep] = useState<Step>("idle");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // The merchant already chose "Connect TronLink": ask the extension once, without a second click.
  const asked = useRef(false);
  const { address, connecting, notFound, connect } = wallet;
  useEffect(() => {
    if (address || connecting || notFound || asked.current) return;
    asked.current = true;
    connect();
  }, [address, connecting, notFound, connect]);

  async function signAndSave() {
    if (!address) return;
    setError(null);
    setDone(null);
    try {
      setStep("preparing");
      const prepared = await actions.tronMessage({ currency: currency.id, walletAddress: address });
      if (!prepared.data) throw new Error(prepared.error ?? "Could not prepare the signature");
      setStep("signing");
      const signature = await wallet.signMessage(prepared.data.message);
      setStep("saving");
      const saved = await actions.saveSigned({ currency: currency.id, walletAddress: address, nonce: prepared.data.nonce, signature });
      if (saved.error) throw new Error(saved.error);
      setDone(saved.done ?? "Saved");
      router.refresh();
    } catch (err) {
      setError(walletErrorMessage(err));
    } finally {
      setStep("idle");
    }
  }

  const failure = error ?? wallet.connectError ?? null;
  return (
    <div className="space-y-3">
      {!address ? (
        <>
          {notFound ? (
            <p className="text-sm text-slate-600">
              TronLink is not installed in this browser. Install the TronLink extension, reload this page and connect again.
            </p>
          ) : null}
          <Button variant="compact" disabled={connecting || notFound} onClick={connect}>
            {connecting ? "Connecting…" : "Connect TronLink"}
          </Button>
        </>
      ) : (
        <>
          <p className="text-sm text-slate-600">
            Connected:{" "}
            <span data-testid="connected-tron-address" className="break-all font-mono text-xs text-slate-900">
              {address}
            </span>
          </p>
          <p className="text-sm text-slate-600">
            Sign to receive {currency.symbol} on {currency.networkName} at this wallet. TronLink shows the message; signing is free and
            sends no transaction.{hasActive ? " It replaces your current destination for new links." : ""}
          </p>
          <Button variant="compact" disabled={step !== "idle"} onClick={() => void signAndSave()}>
            {LABEL[step]}
          </Button>
        </>
      )}
      <FormOutcome error={failure} done={done} />
    </div>
  );
}

/** Entry of the TronLink bundle for Settings: loaded only when the merchant connects. */
export function DestinationTronWallet({
  currency,
  actions,
  hasActive,
}: {
  currency: DestinationCurrency;
  actions: DestinationActions;
  hasActive: boolean;
}) {
  return (
    <TronProviders>
      <ConnectAndSign currency={currency} actions={actions} hasActive={hasActive} />
    </TronProviders>
  );
}
