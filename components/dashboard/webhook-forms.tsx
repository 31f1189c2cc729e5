"use client";

import { useActionState } from "react";
import type { WebhookFormState } from "@/app/dashboard/webhooks/actions";
import { useCheckedForm } from "@/components/shared/use-checked-form";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { Field, inputClass, SelectField } from "@/components/ui/field";
import { checkForm } from "@/lib/forms/form-state";
import { WEBHOOK_FORM_FIELDS, WEBHOOK_URL_MAX, webhookFormBody, webhookFormSchema } from "@/lib/forms/webhook-form";

type Action = (prev: WebhookFormState, form: FormData) => Promise<WebhookFormState>;
const input = inputClass("sm");
const button = buttonClass({ variant: "compact" });

function ErrorAlert({ text }: { text: string }) {
  return (
    <Alert as="p" role="alert">
      {text}
    </Alert>
  );
}

/**
 * Register an endpoint for one of the account's client IDs (POST /v1/webhook's schema, checked in
 * the browser first); its signing secret is shown once.
 */
export function WebhookForm({ action, clientIds }: { action: Action; clientIds: { id: string; label: string }[] }) {
  const form = useCheckedForm({
    action,
    initial: { url: "", clientId: clientIds[0]?.id ?? "" },
    check: (v) => checkForm(webhookFormSchema, webhookFormBody(v), WEBHOOK_FORM_FIELDS),
  });
  const { state } = form;
  return (
    <form ref={form.formRef} action={form.formAction} onSubmit={form.onSubmit} noValidate className="space-y-3">
      <Field
        id="webhook-url"
        size="sm"
        label="Endpoint URL (HTTPS, publicly reachable)"
        type="url"
        required
        placeholder="https://shop.example/webhooks/duebill"
        maxLength={WEBHOOK_URL_MAX}
        {...form.field("url")}
      />
      <SelectField id="webhook-client-id" size="sm" label="Client ID" {...form.field("clientId")}>
        {clientIds.map((c) => (
          <option key={c.id} value={c.id}>
            {c.label}
          </option>
        ))}
      </SelectField>
      <button type="submit" disabled={form.pending || clientIds.length === 0} className={button}>
        Register webhook
      </button>
      {clientIds.length === 0 ? <p className="text-sm text-slate-600">Create a client ID first (Keys).</p> : null}
      {form.formError ? <ErrorAlert text={form.formError} /> : null}
      {state.secret && !state.error ? (
        <Alert role="status" tone="warning">
          <p className="break-all font-medium">Signing secret for {state.url}: copy it now, it is shown only once.</p>
          <p className="mt-1 break-all font-mono text-[13px]" data-testid="webhook-secret">
            {state.secret}
          </p>
        </Alert>
      ) : null}
    </form>
  );
}

/** Sends a signed sample of an event to every active endpoint (x-duebill-test: true). */
export function TestWebhookForm({ action, eventTypes }: { action: Action; eventTypes: readonly string[] }) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-2">
      <label className="min-w-48 flex-1 text-sm font-medium text-slate-700">
        Event
        <select name="eventType" className={input}>
          {eventTypes.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={pending} className={button}>
        Send test
      </button>
      <div className="basis-full" aria-live="polite">
        {state.error ? <ErrorAlert text={state.error} /> : null}
        {state.url && !state.error ? <p className="text-sm text-emerald-800">{state.url}; the log below shows each attempt.</p> : null}
      </div>
    </form>
  );
}
