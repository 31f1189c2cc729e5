"use server";

import { revalidatePath } from "next/cache";
import { revokeOwnApiKey } from "@/lib/accounts/api-keys";
import { createOwnClientId, revokeOwnClientId } from "@/lib/accounts/client-ids";
import { createApiKey } from "@/lib/accounts/issue-credentials";
import { toFormState } from "@/lib/errors";
import { checkForm, type FormState, formValues, refusedState } from "@/lib/forms/form-state";
import {
  API_KEY_FORM_FIELDS,
  CLIENT_ID_FORM_FIELDS,
  clientIdFormBody,
  clientIdFormSchema,
  credentialNameSchema,
} from "@/lib/forms/key-forms";
import { userForAction } from "@/lib/http/page-session";
import { parseWith } from "@/lib/http/parse";
import { createClientIdOp } from "@/lib/operations/client-ids";
import { endLinkByPlatform } from "@/lib/orchestrators/links";

export interface KeyFormState extends FormState {
  /** A new API key's secret: shown once, never stored in clear. */
  secret?: string;
  created?: string;
}

/** A new API key for the signed-in account; the secret is returned to the page once. */
export async function createKeyAction(_prev: KeyFormState, form: FormData): Promise<KeyFormState> {
  const values = formValues(form, Object.keys(API_KEY_FORM_FIELDS));
  try {
    const me = await userForAction();
    const checked = checkForm(credentialNameSchema, values, API_KEY_FORM_FIELDS);
    if (!checked.ok) return refusedState(checked.fieldErrors, values);
    const { name } = parseWith(credentialNameSchema, values);
    const key = await createApiKey(me.account.id, name || "dashboard");
    revalidatePath("/dashboard/keys");
    return { error: null, secret: key.secret, created: key.id };
  } catch (err) {
    return { ...toFormState(err, API_KEY_FORM_FIELDS), values };
  }
}

/** Revokes one of the account's API keys (another account's is "not found"). */
export async function revokeKeyAction(form: FormData): Promise<void> {
  const me = await userForAction();
  await revokeOwnApiKey(me.account.id, String(form.get("id") ?? ""));
  revalidatePath("/dashboard/keys");
}

/** POST /v2/client-ids from the dashboard: the same schema and domain function. */
export async function createClientIdAction(_prev: KeyFormState, form: FormData): Promise<KeyFormState> {
  const values = formValues(form, Object.keys(CLIENT_ID_FORM_FIELDS));
  try {
    const me = await userForAction();
    const body = clientIdFormBody(values);
    const checked = checkForm(clientIdFormSchema, body, CLIENT_ID_FORM_FIELDS);
    if (!checked.ok) return refusedState(checked.fieldErrors, values);
    const created = await createOwnClientId(me.account.id, parseWith(createClientIdOp.body!, body));
    revalidatePath("/dashboard/keys");
    return { error: null, created: created.clientId };
  } catch (err) {
    return { ...toFormState(err, CLIENT_ID_FORM_FIELDS), values };
  }
}

export async function revokeClientIdAction(form: FormData): Promise<void> {
  const me = await userForAction();
  await revokeOwnClientId(me.account.id, String(form.get("id") ?? ""));
  revalidatePath("/dashboard/keys");
}

/**
 * Ends the orchestrator link of one of the account's client IDs (DELETE /v2/client-ids/{id}/orchestrator-link's
 * function): another account's client ID is "not found". Recorded in the audit log as this user.
 */
export async function endOrchestratorLinkAction(form: FormData): Promise<void> {
  const me = await userForAction();
  await endLinkByPlatform(me.account.id, String(form.get("clientId") ?? ""), `session:${me.user.id}`);
  revalidatePath("/dashboard/keys");
}
