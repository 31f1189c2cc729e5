"use client";

import { useConnectModal } from "@rainbow-me/rainbowkit";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { useAccount, useSignTypedData, useSwitchChain } from "wagmi";
import { walletErrorMessage } from "@/components/shared/wallet-errors";
import { Button } from "@/components/ui/button";
import { FormOutcome } from "@/components/ui/form-outcome";
import { EvmProviders } from "@/components/wallet/evm-providers";
import type { DestinationActions, DestinationCurrency } from "./destination-types";

type Step = "idle" | "preparing" | "switching" | "signing" | "saving";
const LABEL: Record<Step, string> = {
  idle: "Sign and save",
  preparing: "Preparing…",
  switching: "Switch network in your wallet…",
  signing: "Sign in your wallet…",
  saving: "Saving…",
};

/** Connect (RainbowKit), sign the signing data on the currency's chain, save: the two server actions do the API's checks. */
function ConnectAndSign({ currency, actions }: { currency: DestinationCurrency; actions: DestinationActions }) {
  const { address, chainId, isConnected } = useAccount();
  const { openConnectModal, connectModalOpen } = useConnectModal();
  const { switchChainAsync } = useSwitchChain();
  const { signTypedDataAsync } = useSignTypedData();
  const router = useRouter();
  const [step, setStep] = useState<Step>("idle");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const target = currency.wallet!.chainId;
  // The merchant already chose "Connect wallet": open the modal once, without a second click.
  const opened = useRef(false);
  useEffect(() => {
    if (isConnected || opened.current || !openConnectModal) return;
    opened.current = true;
    openConnectModal();
  }, [isConnected, openConnectModal]);

  async function signAndSave() {
    if (!address) return;
    setError(null);
    try {
      setStep("preparing");
      const prepared = await actions.signingData({ currency: currency.id, walletAddress: address });
      if (!prepared.data) throw new Error(prepared.error ?? "Could not prepare the signature");
      const { domain, types, primaryType, message, nonce } = prepared.data;
      // Wallets sign typed data for the chain they are on: the domain names the currency's chain.
      if (chainId !== target) {
        setStep("switching");
        await switchChainAsync({ chainId: target });
      }
      setStep("signing");
      const signature = await signTypedDataAsync({
        domain,
        types,
        primaryType,
        message: { ...message, chainId: BigInt(message.chainId ?? "0"), expiresAt: BigInt(message.expiresAt ?? "0") },
      });
      setStep("saving");
      const saved = await actions.saveSigned({ currency: currency.id, walletAddress: address, nonce, signature });
      if (saved.error) throw new Error(saved.error);
      setDone(saved.done ?? "Saved");
      router.refresh();
    } catch (err) {
      setError(walletErrorMessage(err));
    } finally {
      setStep("idle");
    }
  }

  if (!isConnected || !address)
    return (
      <Button variant="compact" disabled={connectModalOpen || !openConnectModal} onClick={() => openConnectModal?.()}>
        {connectModalOpen ? "Connecting…" : "Connect wallet"}
      </Button>
    );
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        Connected:{" "}
        <span data-testid="connected-address" className="break-all font-mono text-xs text-slate-900">
          {address}
        </span>
      </p>
      <p className="text-sm text-slate-600">
        Sign to receive {currency.symbol} on {currency.networkName} at this wallet. It replaces your current destination for new links.
      </p>
      <Button variant="compact" disabled={step !== "idle"} onClick={() => void signAndSave()}>
        {LABEL[step]}
      </Button>
      <FormOutcome error={error} done={done} />
    </div>
  );
}

/** Entry of the wallet bundle for Settings (wagmi + RainbowKit): loaded only when the merchant connects. */
export function DestinationEvmWallet({
  currency,
  networks,
  actions,
}: {
  currency: DestinationCurrency;
  networks: DestinationCurrency[];
  actions: DestinationActions;
}) {
  const extra = networks.flatMap((c) => (c.wallet && c.wallet.chainId !== currency.wallet!.chainId ? [c.wallet] : []));
  return (
    <EvmProviders network={currency.wallet!} extraNetworks={extra} cookie={null}>
      <ConnectAndSign currency={currency} actions={actions} />
    </EvmProviders>
  );
}
