"use client";

import { useActionState } from "react";
import type { AccountFormState } from "@/app/admin/accounts/[id]/actions";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { FEE_MAX_LENGTHS } from "@/lib/forms/fee-form";

type Action = (prev: AccountFormState, form: FormData) => Promise<AccountFormState>;
const input = inputClass("sm");
const labelClass = "block text-sm font-medium text-slate-700";
const hintClass = "mt-1 block text-xs font-normal text-slate-500";

function Outcome({ state }: { state: AccountFormState }) {
  if (state.error)
    return (
      <Alert as="p" role="alert" className="sm:col-span-2">
        {state.error}
      </Alert>
    );
  if (state.done)
    return (
      <p role="status" className="break-words text-sm text-emerald-800 sm:col-span-2">
        {state.done}
      </p>
    );
  return null;
}

/** Props of an input that shows the refused field and keeps what was typed (React resets a form after its action). */
const keep = (state: AccountFormState, name: string, initial = "") => ({
  name,
  defaultValue: state.values?.[name] ?? initial,
  "aria-invalid": state.field === name || undefined,
});

/** `npm run admin -- fee:set` as a form: the fee the account's links carry, for one flow. */
export function AdminFeeForm({ accountId, action }: { accountId: string; action: Action }) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  return (
    <form action={formAction} className="grid gap-3 sm:grid-cols-2" key={JSON.stringify(state.values ?? {})} noValidate>
      <input type="hidden" name="accountId" value={accountId} />
      <label className={labelClass}>
        Flow
        <select {...keep(state, "flow", "get_paid")} className={input}>
          <option value="get_paid">Get paid (payment links)</option>
          <option value="pay">Pay (payout links)</option>
        </select>
      </label>
      <label className={labelClass}>
        Fee (basis points)
        <input {...keep(state, "bps")} inputMode="numeric" maxLength={FEE_MAX_LENGTHS.bps} className={input} placeholder="250" />
        <span className={hintClass}>100 = 1%; 0 to 10000.</span>
      </label>
      <label className={labelClass}>
        Cap (USD, optional)
        <input {...keep(state, "cap")} inputMode="decimal" maxLength={FEE_MAX_LENGTHS.cap} className={input} placeholder="5.00" />
      </label>
      <label className={labelClass}>
        Paid by
        <select {...keep(state, "bearer", "payer")} className={input}>
          <option value="payer">the payer (added on top)</option>
          <option value="payee">the payee (taken from the amount)</option>
        </select>
      </label>
      <label className={`${labelClass} sm:col-span-2`}>
        Fee address (EVM)
        <input
          {...keep(state, "evm")}
          maxLength={FEE_MAX_LENGTHS.evm}
          className={`${input} font-mono`}
          placeholder="0x…"
          spellCheck={false}
        />
      </label>
      <label className={`${labelClass} sm:col-span-2`}>
        Fee address (Tron)
        <input
          {...keep(state, "tron")}
          maxLength={FEE_MAX_LENGTHS.tron}
          className={`${input} font-mono`}
          placeholder="T…"
          spellCheck={false}
        />
      </label>
      <label className={`${labelClass} sm:col-span-2`}>
        Label (optional)
        <input {...keep(state, "label")} maxLength={FEE_MAX_LENGTHS.label} className={input} placeholder="Platform fee" />
        <span className={hintClass}>What payers see the fee called.</span>
      </label>
      <div className="sm:col-span-2">
        <button type="submit" disabled={pending} className={buttonClass({ variant: "compact" })}>
          Save fee
        </button>
      </div>
      <Outcome state={state} />
    </form>
  );
}

/** `npm run admin -- account:brand` as a form: the name and logo payers see on the account's pay pages. */
export function AdminBrandForm({
  accountId,
  current,
  action,
}: {
  accountId: string;
  current: { name: string; logoUrl: string | null };
  action: Action;
}) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  return (
    <form action={formAction} className="grid gap-3" key={JSON.stringify(state.values ?? {})} noValidate>
      <input type="hidden" name="accountId" value={accountId} />
      <label className={labelClass}>
        Display name
        <input {...keep(state, "name", current.name)} maxLength={200} className={input} />
        <span className={hintClass}>Shown to payers as the merchant on hosted pay pages.</span>
      </label>
      <label className={labelClass}>
        Logo URL (optional)
        <input
          {...keep(state, "logoUrl", current.logoUrl ?? "")}
          type="url"
          maxLength={2048}
          className={input}
          placeholder="https://…/logo.png"
          spellCheck={false}
        />
        <span className={hintClass}>An https image; empty removes the logo.</span>
      </label>
      <div>
        <button type="submit" disabled={pending} className={buttonClass({ variant: "compact" })}>
          Save branding
        </button>
      </div>
      <Outcome state={state} />
    </form>
  );
}
