"use client";

import type { LinkFormState } from "@/app/dashboard/links/actions";
import { useCheckedForm } from "@/components/shared/use-checked-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { checkForm } from "@/lib/forms/form-state";
import { LINK_FORM_FIELDS, linkFormBody, linkFormMaxLengths, linkFormSchema } from "@/lib/forms/link-form";

const EMPTY = { amount: "", reference: "", description: "", redirectUrl: "" };

/**
 * Make a payment link to the account's active payee destination; the URL is shown to copy once
 * created. Checked in the browser with POST /v2/secure-payments' schema (the amount bounded by the
 * currency's `decimals`), then by the server with the same schema and the domain's rules.
 */
export function LinkForm({
  action,
  currency,
  decimals,
}: {
  action: (p: LinkFormState, f: FormData) => Promise<LinkFormState>;
  currency: string;
  /** The destination currency's decimals (USDC 6); the API's bound (18) when not given. */
  decimals?: number;
}) {
  const schema = linkFormSchema(decimals);
  const max = linkFormMaxLengths(decimals);
  const form = useCheckedForm({
    action,
    initial: EMPTY,
    check: (v) => checkForm(schema, linkFormBody(v), LINK_FORM_FIELDS),
    clearOnSuccess: (s) => Boolean(s.created),
  });
  const { state } = form;
  return (
    <form ref={form.formRef} action={form.formAction} onSubmit={form.onSubmit} noValidate className="grid gap-4 sm:grid-cols-2">
      <Field
        id="link-amount"
        label={`Amount (${currency})`}
        hint={`A decimal such as "12.50", at most ${decimals ?? 18} decimals`}
        inputMode="decimal"
        autoComplete="off"
        maxLength={max.amount}
        required
        {...form.field("amount")}
      />
      <Field
        id="link-reference"
        label="Reference (optional)"
        hint="Your invoice or order number"
        maxLength={max.reference}
        {...form.field("reference")}
      />
      <Field
        id="link-description"
        label="Description (optional)"
        hint="Shown to the payer"
        maxLength={max.description}
        {...form.field("description")}
      />
      <Field
        id="link-redirectUrl"
        label="Redirect after payment (optional)"
        hint="https://…"
        type="url"
        maxLength={max.redirectUrl}
        {...form.field("redirectUrl")}
      />
      <div className="min-w-0 space-y-3 sm:col-span-2">
        {form.formError ? (
          <Alert as="p" role="alert">
            {form.formError}
          </Alert>
        ) : null}
        {state.created ? (
          <Alert role="status" tone="success">
            <p className="font-medium">Link created. Send it to your payer:</p>
            <p className="mt-1 flex flex-wrap items-center gap-2">
              <a href={state.created.url} data-testid="created-link" className="break-all font-mono text-[13px] text-indigo-700 underline">
                {state.created.url}
              </a>
              <CopyButton text={state.created.url} name="Copy the new link" />
            </p>
          </Alert>
        ) : null}
        <Button type="submit" disabled={form.pending}>
          {form.pending ? "Creating…" : "Create payment link"}
        </Button>
      </div>
    </form>
  );
}
