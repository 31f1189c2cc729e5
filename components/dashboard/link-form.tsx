"use client";

import { useActionState } from "react";
import type { LinkFormState } from "@/app/dashboard/links/actions";
import { primaryButtonClass } from "@/components/pay/panels/paid-panel";

const input =
  "mt-1 block min-h-11 w-full rounded-xl border-0 bg-white px-3 py-2 text-base text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600 sm:text-sm";

function Field({ name, label, hint, invalid }: { name: string; label: string; hint?: string; invalid: boolean }) {
  return (
    <div>
      <label htmlFor={`link-${name}`} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <input id={`link-${name}`} name={name} className={input} aria-invalid={invalid || undefined} />
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
    </div>
  );
}

/** Make a payment link to the account's active payee destination; the URL is shown to copy once created. */
export function LinkForm({ action, currency }: { action: (p: LinkFormState, f: FormData) => Promise<LinkFormState>; currency: string }) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  return (
    <form action={formAction} className="grid gap-4 sm:grid-cols-2">
      <Field
        name="amount"
        label={`Amount (${currency})`}
        hint='A decimal such as "12.50"'
        invalid={state.field?.includes("amount") ?? false}
      />
      <Field name="reference" label="Reference (optional)" hint="Your invoice or order number" invalid={state.field === "reference"} />
      <Field name="description" label="Description (optional)" hint="Shown to the payer" invalid={state.field === "description"} />
      <Field name="redirectUrl" label="Redirect after payment (optional)" hint="https://…" invalid={state.field === "redirectUrl"} />
      <div className="space-y-3 sm:col-span-2">
        {state.error ? (
          <p role="alert" className="rounded-xl bg-rose-50 p-3 text-sm text-rose-800 ring-1 ring-rose-200">
            {state.error}
          </p>
        ) : null}
        {state.created ? (
          <div role="status" className="rounded-xl bg-emerald-50 p-3 text-sm text-emerald-900 ring-1 ring-emerald-200">
            <p className="font-medium">Link created. Send it to your payer:</p>
            <p className="mt-1 flex flex-wrap items-center gap-2">
              <a href={state.created.url} data-testid="created-link" className="break-all font-mono text-[13px] text-indigo-700 underline">
                {state.created.url}
              </a>
              <button
                type="button"
                onClick={() => void navigator.clipboard?.writeText(state.created?.url ?? "")}
                className="rounded-md px-2 py-1 text-sm font-medium text-indigo-700 ring-1 ring-inset ring-indigo-200 hover:bg-indigo-50"
              >
                Copy
              </button>
            </p>
          </div>
        ) : null}
        <button type="submit" disabled={pending} className={primaryButtonClass}>
          {pending ? "Creating…" : "Create payment link"}
        </button>
      </div>
    </form>
  );
}
