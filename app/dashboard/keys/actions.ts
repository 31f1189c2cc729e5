"use server";

import { revalidatePath } from "next/cache";
import { revokeOwnApiKey } from "@/lib/accounts/api-keys";
import { createOwnClientId, revokeOwnClientId } from "@/lib/accounts/client-ids";
import { createApiKey } from "@/lib/accounts/issue-credentials";
import { toFormState } from "@/lib/errors";
import { userForAction } from "@/lib/http/page-session";
import { parseWith } from "@/lib/http/parse";
import { createClientIdOp } from "@/lib/operations/client-ids";
import { endLinkByPlatform } from "@/lib/orchestrators/links";

export interface KeyFormState {
  error: string | null;
  field?: string;
  /** A new API key's secret: shown once, never stored in clear. */
  secret?: string;
  created?: string;
  /** What was typed, kept after an error (React resets the form after an action). */
  values?: Record<string, string>;
}

/** A new API key for the signed-in account; the secret is returned to the page once. */
export async function createKeyAction(_prev: KeyFormState, form: FormData): Promise<KeyFormState> {
  try {
    const me = await userForAction();
    const name = String(form.get("name") ?? "").trim() || "dashboard";
    if (name.length > 100) return { error: "name: must be at most 100 characters" };
    const key = await createApiKey(me.account.id, name);
    revalidatePath("/dashboard/keys");
    return { error: null, secret: key.secret, created: key.id };
  } catch (err) {
    return toFormState(err);
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
  const values = { label: String(form.get("label") ?? ""), allowedDomains: String(form.get("allowedDomains") ?? "") };
  try {
    const me = await userForAction();
    const domains = String(form.get("allowedDomains") ?? "")
      .split(/[\s,]+/)
      .filter(Boolean);
    const body = parseWith(createClientIdOp.body!, { label: String(form.get("label") ?? ""), allowedDomains: domains });
    const created = await createOwnClientId(me.account.id, body);
    revalidatePath("/dashboard/keys");
    return { error: null, created: created.clientId };
  } catch (err) {
    return { ...toFormState(err), values };
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
