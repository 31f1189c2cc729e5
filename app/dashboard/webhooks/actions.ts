"use server";

import { revalidatePath } from "next/cache";
import { toFormState } from "@/lib/errors";
import { checkForm, type FormState, formValues, refusedState } from "@/lib/forms/form-state";
import { WEBHOOK_FORM_FIELDS, webhookFormBody, webhookFormSchema } from "@/lib/forms/webhook-form";
import { type PageUser, userForAction } from "@/lib/http/page-session";
import { parseWith } from "@/lib/http/parse";
import { testWebhookOp } from "@/lib/operations/webhooks";
import { createWebhook, deleteWebhook, ownerFor, setWebhookActive } from "@/lib/webhooks/endpoints";
import { redeliverForOwner, sendTestToEndpoint } from "@/lib/webhooks/manage-deliveries";

export interface WebhookFormState extends FormState {
  /** The new endpoint's signing secret: shown once (it is stored encrypted). */
  secret?: string;
  url?: string;
  /** Only `npm run dev` (or WEBHOOK_ALLOW_PRIVATE) accepted the URL: production would refuse it. */
  warning?: string;
}

/** The account's webhooks, every client ID's (a dashboard user sees the whole account). */
const accountOwner = (me: PageUser) => ({ accountId: me.account.id, clientId: null });

/** POST /v1/webhook from the dashboard: the same schema, URL policy (no private addresses) and owner rules. */
export async function registerWebhookAction(_prev: WebhookFormState, form: FormData): Promise<WebhookFormState> {
  const values = formValues(form, Object.keys(WEBHOOK_FORM_FIELDS));
  try {
    const me = await userForAction();
    const checked = checkForm(webhookFormSchema, webhookFormBody(values), WEBHOOK_FORM_FIELDS);
    if (!checked.ok) return refusedState(checked.fieldErrors, values);
    const body = parseWith(webhookFormSchema, webhookFormBody(values));
    const owner = await ownerFor(me.session, body.clientId);
    const created = await createWebhook(owner, body.url);
    revalidatePath("/dashboard/webhooks");
    return { error: null, secret: created.secret, url: created.url, ...(created.warning ? { warning: created.warning } : {}) };
  } catch (err) {
    return { ...toFormState(err, WEBHOOK_FORM_FIELDS), values };
  }
}

/** PUT /v1/webhook/{id} without a body: toggles it. */
export async function toggleWebhookAction(form: FormData): Promise<void> {
  const me = await userForAction();
  await setWebhookActive(accountOwner(me), String(form.get("id") ?? ""), undefined);
  revalidatePath("/dashboard/webhooks");
}

export async function deleteWebhookAction(form: FormData): Promise<void> {
  const me = await userForAction();
  await deleteWebhook(accountOwner(me), String(form.get("id") ?? ""));
  revalidatePath("/dashboard/webhooks");
}

/** What "Send test event" answers: the attempt's outcome, or why it was not sent. */
export interface TestEventState {
  error: string | null;
  sent?: { ok: boolean; statusCode: number | null; error: string | null };
}

/**
 * "Send test event" beside one endpoint: a signed sample of the event to that endpoint, attempted
 * at once (the same headers, signatures and SSRF-safe POST as every delivery), answered with what
 * the receiver did. Another account's endpoint: not found; a disabled one: refused.
 */
export async function sendTestAction(_prev: TestEventState, form: FormData): Promise<TestEventState> {
  try {
    const me = await userForAction();
    const body = parseWith(testWebhookOp.body!, { eventType: String(form.get("eventType") ?? "") });
    const sent = await sendTestToEndpoint(accountOwner(me), String(form.get("endpointId") ?? "").slice(0, 64), body.eventType);
    revalidatePath("/dashboard/webhooks");
    return { error: null, sent: { ok: sent.ok, statusCode: sent.statusCode, error: sent.error } };
  } catch (err) {
    return toFormState(err);
  }
}

/** "Send again": redelivers one of the account's deliveries under the same delivery ID. */
export async function redeliverAction(form: FormData): Promise<void> {
  const me = await userForAction();
  await redeliverForOwner(accountOwner(me), String(form.get("endpointId") ?? ""), String(form.get("deliveryId") ?? ""));
  revalidatePath("/dashboard", "layout");
}
