"use client";

import { useActionState } from "react";
import type { TestEventState, WebhookFormState } from "@/app/dashboard/webhooks/actions";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";

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

/** Register an endpoint for one of the account's client IDs; its signing secret is shown once. */
export function WebhookForm({ action, clientIds }: { action: Action; clientIds: { id: string; label: string }[] }) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  return (
    <form action={formAction} className="space-y-3">
      <label className="block text-sm font-medium text-slate-700">
        Endpoint URL (HTTPS, publicly reachable)
        <input
          name="url"
          type="url"
          required
          className={input}
          placeholder="https://shop.example/webhooks/duebill"
          defaultValue={state.values?.url}
          key={`u${state.error}`}
        />
      </label>
      <label className="block text-sm font-medium text-slate-700">
        Client ID
        <select name="clientId" className={input} defaultValue={state.values?.clientId ?? clientIds[0]?.id} key={`c${state.error}`}>
          {clientIds.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={pending || clientIds.length === 0} className={button}>
        Register webhook
      </button>
      {clientIds.length === 0 ? <p className="text-sm text-slate-600">Create a client ID first (Keys).</p> : null}
      {state.error ? <ErrorAlert text={state.error} /> : null}
      {state.secret ? (
        <Alert role="status" tone="warning">
          <p className="font-medium">Signing secret for {state.url}: copy it now, it is shown only once.</p>
          <p className="mt-1 break-all font-mono text-[13px]" data-testid="webhook-secret">
            {state.secret}
          </p>
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
