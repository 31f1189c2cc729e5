"use client";

import { useActionState } from "react";
import type { KeyFormState } from "@/app/dashboard/keys/actions";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";

type Action = (prev: KeyFormState, form: FormData) => Promise<KeyFormState>;
const input = inputClass("sm");
const button = buttonClass({ variant: "compact" });

function Outcome({ state }: { state: KeyFormState }) {
  if (state.error)
    return (
      <Alert as="p" role="alert">
        {state.error}
      </Alert>
    );
  if (state.secret)
    return (
      <Alert role="status" tone="warning">
        <p className="font-medium">Copy this key now: it is shown only once.</p>
        <p className="mt-1 break-all font-mono text-[13px]" data-testid="new-api-key">
          {state.secret}
        </p>
      </Alert>
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
