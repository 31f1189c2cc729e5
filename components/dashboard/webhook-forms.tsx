"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { TestEventState, WebhookFormState } from "@/app/dashboard/webhooks/actions";
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
      {clientIds.length === 0 ? (
        <p className="text-sm text-slate-600">
          A webhook belongs to a client ID:{" "}
          <Link href="/dashboard/keys" className="font-medium text-indigo-700 underline">
            create a client ID first
          </Link>
          .
        </p>
      ) : null}
      {form.formError ? <ErrorAlert text={form.formError} /> : null}
      {state.secret && !state.error ? (
        <Alert role="status" tone="warning">
          <p className="break-all font-medium">Signing secret for {state.url}: copy it now, it is shown only once.</p>
          <p className="mt-1 break-all font-mono text-[13px]" data-testid="webhook-secret">
            {state.secret}
          </p>
          {state.warning ? <p className="mt-1">{state.warning}</p> : null}
        </Alert>
      ) : null}
    </form>
  );
}

/**
 * Beside one endpoint: sends it a signed sample of an event (x-duebill-test: true) at once and
 * says what the receiver answered; the log below shows the attempt's request and response.
 */
export function TestWebhookForm({
  action,
  endpointId,
  url,
  eventTypes,
  disabled,
}: {
  action: (prev: TestEventState, form: FormData) => Promise<TestEventState>;
  endpointId: string;
  url: string;
  eventTypes: readonly string[];
  /** The endpoint is disabled: nothing would be sent. */
  disabled?: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  const sent = state.sent;
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-2" aria-label={`Send a test event to ${url}`}>
      <input type="hidden" name="endpointId" value={endpointId} />
      <label className="min-w-0 flex-1 basis-48 text-sm font-medium text-slate-700">
        Test event
        <select name="eventType" className={input} defaultValue="payment.confirmed" disabled={disabled}>
          {eventTypes.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={pending || disabled} className={button}>
        {pending ? "Sending…" : "Send test event"}
      </button>
      <div className="basis-full" aria-live="polite">
        {disabled ? <p className="text-sm text-slate-600">Enable this webhook to send it a test event.</p> : null}
        {state.error ? <ErrorAlert text={state.error} /> : null}
        {sent && !state.error ? (
          <p className={`text-sm ${sent.ok ? "text-emerald-800" : "text-rose-700"}`} data-testid="test-result">
            {sent.ok
              ? `Delivered: your endpoint answered HTTP ${sent.statusCode}.`
              : `Not delivered (${sent.error ?? "no response"}); it will be retried.`}{" "}
            The log below shows the request and the response.
          </p>
        ) : null}
      </div>
    </form>
  );
}
