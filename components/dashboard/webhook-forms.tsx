"use client";

import { useActionState } from "react";
import type { WebhookFormState } from "@/app/dashboard/webhooks/actions";

type Action = (prev: WebhookFormState, form: FormData) => Promise<WebhookFormState>;
const input =
  "mt-1 block min-h-10 w-full rounded-lg border-0 bg-white px-2.5 py-1.5 text-sm text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600";
const button = "rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500 disabled:opacity-60";

function Alert({ text }: { text: string }) {
  return (
    <p role="alert" className="rounded-xl bg-rose-50 p-3 text-sm text-rose-800 ring-1 ring-rose-200">
      {text}
    </p>
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
      {state.error ? <Alert text={state.error} /> : null}
      {state.secret ? (
        <div role="status" className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
          <p className="font-medium">Signing secret for {state.url}: copy it now, it is shown only once.</p>
          <p className="mt-1 break-all font-mono text-[13px]" data-testid="webhook-secret">
            {state.secret}
          </p>
        </div>
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
        {state.error ? <Alert text={state.error} /> : null}
        {state.url && !state.error ? <p className="text-sm text-emerald-800">{state.url}; the log below shows each attempt.</p> : null}
      </div>
    </form>
  );
}
