"use client";

import dynamic from "next/dynamic";
import { useActionState, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import type { DestinationActions, DestinationCurrency } from "./destination-types";

const loading = () => (
  <p role="status" className="text-sm text-slate-600">
    Loading wallet options…
  </p>
);
// wagmi and RainbowKit load only when the merchant chooses to connect: the dashboard carries no wallet code.
const DestinationEvmWallet = dynamic(() => import("./destination-evm").then((m) => m.DestinationEvmWallet), { ssr: false, loading });
// Likewise the TronLink adapter, for a Tron currency.
const DestinationTronWallet = dynamic(() => import("./destination-tron").then((m) => m.DestinationTronWallet), { ssr: false, loading });

const isTron = (a: string | null) => Boolean(a && /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(a));

/**
 * Where the account gets paid: choose the currency, then prove the receiving wallet is yours —
 * connect it and sign the destination's signing data (EIP-712 with an EVM wallet, TRON message v2
 * with TronLink), or, signed in with a wallet, use that wallet (the session already proved it).
 * The server checks each as the API does.
 */
export function DestinationSetup({
  currencies,
  initialCurrency,
  sessionWallet,
  actions,
  hasActive,
}: {
  currencies: DestinationCurrency[];
  /** The active destination's currency, preselected. */
  initialCurrency?: string;
  sessionWallet: string | null;
  actions: DestinationActions;
  hasActive: boolean;
}) {
  const [currencyId, setCurrencyId] = useState(currencies.find((c) => c.id === initialCurrency)?.id ?? currencies[0]?.id ?? "");
  const [connecting, setConnecting] = useState(false);
  const [sessionState, sessionAction, pending] = useActionState(actions.registerSessionWallet, { error: null });
  const currency = currencies.find((c) => c.id === currencyId);
  if (!currency) return <p className="text-sm text-slate-600">This deployment serves no network a destination can receive on.</p>;
  const sessionFits = sessionWallet !== null && isTron(sessionWallet) === (currency.kind === "tron");
  return (
    <div className="space-y-4">
      <label className="block text-sm font-medium text-slate-700">
        {hasActive ? "Change to" : "Receive in"}
        <select
          className={inputClass("sm")}
          value={currencyId}
          onChange={(e) => {
            setCurrencyId(e.target.value);
            setConnecting(false);
          }}
        >
          {currencies.map((c) => (
            <option key={c.id} value={c.id}>
              {c.symbol} on {c.networkName}
            </option>
          ))}
        </select>
      </label>
      {connecting && currency.kind === "evm" && currency.wallet ? (
        <DestinationEvmWallet key={currency.id} currency={currency} networks={currencies} actions={actions} />
      ) : connecting && currency.kind === "tron" ? (
        <DestinationTronWallet key={currency.id} currency={currency} actions={actions} hasActive={hasActive} />
      ) : (
        <div className="space-y-2">
          <p className="text-sm text-slate-600">
            Connect the wallet that should receive payments, then sign a message proving it is yours. Signing is free and sends no
            transaction.
          </p>
          <Button variant="compact" onClick={() => setConnecting(true)}>
            {currency.kind === "tron" ? "Connect TronLink" : "Connect wallet"}
          </Button>
        </div>
      )}
      {sessionFits ? (
        <form action={sessionAction} className="space-y-2 border-t border-slate-100 pt-3">
          <input type="hidden" name="currency" value={currency.id} />
          <p className="break-all text-sm text-slate-600">
            Or receive at the wallet you signed in with, <span className="font-mono text-xs">{sessionWallet}</span>: no signature needed.
          </p>
          <button type="submit" disabled={pending} className={buttonClass({ variant: "compact" })}>
            Use my sign-in wallet
          </button>
          {sessionState.error ? (
            <Alert as="p" role="alert">
              {sessionState.error}
            </Alert>
          ) : null}
          {sessionState.done ? (
            <p role="status" className="break-words text-sm text-emerald-800">
              {sessionState.done}
            </p>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
