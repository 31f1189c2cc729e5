"use client";

import { useActionState } from "react";
import type { SettingsFormState } from "@/app/dashboard/settings/actions";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";

type Action = (prev: SettingsFormState, form: FormData) => Promise<SettingsFormState>;
const input = inputClass("sm");
const button = buttonClass({ variant: "compact" });

function Outcome({ state }: { state: SettingsFormState }) {
  if (state.error)
    return (
      <Alert as="p" role="alert">
        {state.error}
      </Alert>
    );
  if (state.done)
    return (
      <p role="status" className="break-words text-sm text-emerald-800">
        {state.done}
      </p>
    );
  return null;
}

export function DestinationForm({ action, currencies, wallet }: { action: Action; currencies: string[]; wallet: string | null }) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  return (
    <form action={formAction} className="space-y-3">
      <label className="block text-sm font-medium text-slate-700">
        Receive
        <select name="currency" className={input} defaultValue={state.values?.currency} key={`c${state.error}`}>
          {currencies.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </label>
      <label className="block text-sm font-medium text-slate-700">
        Wallet address
        <input
          name="walletAddress"
          className={`${input} font-mono`}
          placeholder={wallet ?? "0x…"}
          defaultValue={state.values?.walletAddress}
          key={`w${state.error}`}
        />
        <span className="mt-1 block text-xs font-normal text-slate-500">
          {wallet
            ? "Empty: the wallet you signed in with. Another address must prove control (the API's signing data)."
            : "Sign in with the receiving wallet to register it, or register it through the API with a signed proof."}
        </span>
      </label>
      <button type="submit" disabled={pending} className={button}>
        Save destination
      </button>
      <Outcome state={state} />
    </form>
  );
}

export function FeeForm({ action, current }: { action: Action; current: Record<string, string> }) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  const v = state.values ?? current;
  return (
    <form action={formAction} className="grid gap-3 sm:grid-cols-2">
      <label className="text-sm font-medium text-slate-700">
        Fee (basis points, 100 = 1%)
        <input name="bps" inputMode="numeric" className={input} defaultValue={v.bps} key={`b${state.error}`} />
      </label>
      <label className="text-sm font-medium text-slate-700">
        Cap (USD, optional)
        <input name="cap" inputMode="decimal" className={input} defaultValue={v.cap} key={`p${state.error}`} />
      </label>
      <label className="text-sm font-medium text-slate-700">
        Paid by
        <select name="bearer" className={input} defaultValue={v.bearer || "payer"} key={`r${state.error}`}>
          <option value="payer">the payer (added on top)</option>
          <option value="payee">the payee (taken from the amount)</option>
        </select>
      </label>
      <label className="text-sm font-medium text-slate-700">
        Label shown to payers
        <input name="label" className={input} defaultValue={v.label} placeholder="Platform fee" key={`l${state.error}`} />
      </label>
      <label className="text-sm font-medium text-slate-700">
        Fee address (EVM)
        <input name="evm" className={`${input} font-mono`} defaultValue={v.evm} key={`e${state.error}`} />
      </label>
      <label className="text-sm font-medium text-slate-700">
        Fee address (Tron)
        <input name="tron" className={`${input} font-mono`} defaultValue={v.tron} key={`t${state.error}`} />
      </label>
      <div className="sm:col-span-2 space-y-3">
        <button type="submit" disabled={pending} className={button}>
          Save fee
        </button>
        <Outcome state={state} />
      </div>
    </form>
  );
}
