"use client";

import type { KeyFormState } from "@/app/dashboard/keys/actions";
import { useCheckedForm } from "@/components/shared/use-checked-form";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { checkForm } from "@/lib/forms/form-state";
import {
  API_KEY_FORM_FIELDS,
  CLIENT_ID_FORM_FIELDS,
  CLIENT_ID_MAX_LENGTHS,
  CREDENTIAL_NAME_MAX,
  clientIdFormBody,
  clientIdFormSchema,
  credentialNameSchema,
} from "@/lib/forms/key-forms";

type Action = (prev: KeyFormState, form: FormData) => Promise<KeyFormState>;
const button = buttonClass({ variant: "compact" });
const created = (s: KeyFormState) => Boolean(s.created);

function Outcome({ error, state }: { error: string | null; state: KeyFormState }) {
  if (error)
    return (
      <Alert as="p" role="alert">
        {error}
      </Alert>
    );
  if (state.error) return null;
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
      <p role="status" className="break-all text-sm text-emerald-800">
        Created <span className="font-mono">{state.created}</span>.
      </p>
    );
  return null;
}

/**
 * A new API key: its name is bounded as the server bounds it (100 characters), the secret shown once
 * and no longer once that key is revoked (`activeIds`: the account's keys still in use).
 */
export function ApiKeyForm({ action, activeIds }: { action: Action; activeIds: string[] }) {
  const form = useCheckedForm({
    action,
    initial: { name: "" },
    check: (v) => checkForm(credentialNameSchema, { name: v.name ?? "" }, API_KEY_FORM_FIELDS),
    clearOnSuccess: created,
  });
  return (
    <form ref={form.formRef} action={form.formAction} onSubmit={form.onSubmit} noValidate className="space-y-3">
      <Field
        id="api-key-name"
        size="sm"
        label="Name"
        placeholder="e.g. production server"
        hint={`Up to ${CREDENTIAL_NAME_MAX} characters; "dashboard" when empty.`}
        maxLength={CREDENTIAL_NAME_MAX}
        {...form.field("name")}
      />
      <button type="submit" disabled={form.pending} className={button}>
        Create API key
      </button>
      <Outcome
        error={form.formError}
        state={form.state.created && !activeIds.includes(form.state.created) ? { error: null } : form.state}
      />
    </form>
  );
}

/** A new client ID (POST /v2/client-ids' schema): a label, and the origins a browser may use it from. */
export function ClientIdForm({ action }: { action: Action }) {
  const form = useCheckedForm({
    action,
    initial: { label: "", allowedDomains: "" },
    check: (v) => checkForm(clientIdFormSchema, clientIdFormBody(v), CLIENT_ID_FORM_FIELDS),
    clearOnSuccess: created,
  });
  return (
    <form ref={form.formRef} action={form.formAction} onSubmit={form.onSubmit} noValidate className="space-y-3">
      <Field
        id="client-id-label"
        size="sm"
        label="Label"
        placeholder="e.g. Shop frontend"
        maxLength={CLIENT_ID_MAX_LENGTHS.label}
        required
        {...form.field("label")}
      />
      <Field
        id="client-id-origins"
        size="sm"
        label="Allowed origins (none: a backend client ID)"
        placeholder="https://shop.example, http://localhost:5173"
        hint="Up to 10, separated by commas."
        maxLength={CLIENT_ID_MAX_LENGTHS.allowedDomains}
        {...form.field("allowedDomains")}
      />
      <button type="submit" disabled={form.pending} className={button}>
        Create client ID
      </button>
      <Outcome error={form.formError} state={form.state} />
    </form>
  );
}
