"use client";

import { useActionState } from "react";
import type { KeyFormState } from "@/app/dashboard/keys/actions";

type Action = (prev: KeyFormState, form: FormData) => Promise<KeyFormState>;
const input =
  "mt-1 block min-h-10 w-full rounded-lg border-0 bg-white px-2.5 py-1.5 text-sm text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600";
const button = "rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500 disabled:opacity-60";

function Outcome({ state }: { state: KeyFormState }) {
  if (state.error)
    return (
      <p role="alert" className="rounded-xl bg-rose-50 p-3 text-sm text-rose-800 ring-1 ring-rose-200">
        {state.error}
      </p>
    );
  if (state.secret)
    return (
      <div role="status" className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
        <p className="font-medium">Copy this key now: it is shown only once.</p>
        <p className="mt-1 break-all font-mono text-[13px]" data-testid="new-api-key">
          {state.secret}
        </p>
      </div>
    );
  if (state.created)
    return (
      <p role="status" className="text-sm text-emerald-800">
        Created <span className="font-mono">{state.created}</span>.
      </p>
    );
  return null;
}

export function ApiKeyForm({ action }: { action: Action }) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  return (
    <form action={formAction} className="space-y-3">
      <label className="block text-sm font-medium text-slate-700">
        Name
        <input name="name" className={input} placeholder="e.g. production server" maxLength={100} />
      </label>
      <button type="submit" disabled={pending} className={button}>
        Create API key
      </button>
      <Outcome state={state} />
    </form>
  );
}

export function ClientIdForm({ action }: { action: Action }) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  return (
    <form action={formAction} className="space-y-3">
      <label className="block text-sm font-medium text-slate-700">
        Label
        <input name="label" className={input} placeholder="e.g. Shop frontend" defaultValue={state.values?.label} key={`l${state.error}`} />
      </label>
      <label className="block text-sm font-medium text-slate-700">
        Allowed origins (none: a backend client ID)
        <input
          name="allowedDomains"
          className={input}
          placeholder="https://shop.example, http://localhost:5173"
          defaultValue={state.values?.allowedDomains}
          key={`d${state.error}`}
        />
      </label>
      <button type="submit" disabled={pending} className={button}>
        Create client ID
      </button>
      <Outcome state={state} />
    </form>
  );
}
