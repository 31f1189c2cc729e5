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
