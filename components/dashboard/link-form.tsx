"use client";

import { useActionState } from "react";
import type { LinkFormState } from "@/app/dashboard/links/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field as UiField } from "@/components/ui/field";

function Field({ name, label, hint, invalid }: { name: string; label: string; hint?: string; invalid: boolean }) {
  return <UiField id={`link-${name}`} name={name} label={label} hint={hint} aria-invalid={invalid || undefined} />;
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
          <Alert as="p" role="alert">
            {state.error}
          </Alert>
        ) : null}
        {state.created ? (
          <Alert role="status" tone="success">
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
          </Alert>
        ) : null}
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create payment link"}
        </Button>
      </div>
    </form>
  );
}
