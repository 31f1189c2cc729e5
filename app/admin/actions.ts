"use server";

import { revalidatePath } from "next/cache";
import {
  createOrchestratorKey,
  RATE_TIERS,
  revokeApiKey,
  revokeOrchestratorKey,
  setClientIdStatus,
  setRateTier,
} from "@/lib/accounts/issue-credentials";
import { adminForAction } from "@/lib/admin/access";
import { audited } from "@/lib/admin/audit";
import { credentialOwner, userOwner } from "@/lib/admin/owners";
import { revokeUserSessions } from "@/lib/auth/sessions";
import { invalidField, toFormState } from "@/lib/errors";
import { checkForm, type FormState, formValues, refusedState } from "@/lib/forms/form-state";
import { credentialNameSchema, ORCHESTRATOR_KEY_FORM_FIELDS } from "@/lib/forms/key-forms";
import { parseWith } from "@/lib/http/parse";
import { idPrefix } from "@/lib/ids";

export interface AdminFormState extends FormState {
  /** A new orchestrator key's secret: shown once. */
  secret?: string;
  done?: string;
}

const field = (form: FormData, k: string) => String(form.get(k) ?? "").trim();

/** Issues an orchestrator key to an account (docs/spec/DECISIONS.md: admins only); the secret is shown once. */
export async function issueOrchestratorKeyAction(_prev: AdminFormState, form: FormData): Promise<AdminFormState> {
  const values = formValues(form, Object.keys(ORCHESTRATOR_KEY_FORM_FIELDS));
  try {
    const admin = await adminForAction();
    const accountId = field(form, "accountId");
    const checked = checkForm(credentialNameSchema, values, ORCHESTRATOR_KEY_FORM_FIELDS);
    if (!checked.ok) return refusedState(checked.fieldErrors, values);
    const name = parseWith(credentialNameSchema, values).name || "orchestrator";
    const key = await audited(
      { actor: admin.actor, action: "orchestrator_key.issue", target: accountId, accountId, details: { name } },
      () => createOrchestratorKey(accountId, name),
    );
    revalidatePath("/admin", "layout");
    return { error: null, secret: key.secret, done: key.id };
  } catch (err) {
    return { ...toFormState(err, ORCHESTRATOR_KEY_FORM_FIELDS), values };
  }
}

export async function revokeOrchestratorKeyAction(form: FormData): Promise<void> {
  const admin = await adminForAction();
  const id = field(form, "id");
  const accountId = await credentialOwner("orchestratorKey", id);
  await audited({ actor: admin.actor, action: "orchestrator_key.revoke", target: id, accountId }, () => revokeOrchestratorKey(id));
  revalidatePath("/admin", "layout");
}

export async function revokeApiKeyAdminAction(form: FormData): Promise<void> {
  const admin = await adminForAction();
  const id = field(form, "id");
  const accountId = await credentialOwner("apiKey", id);
  await audited({ actor: admin.actor, action: "api_key.revoke", target: id, accountId }, () => revokeApiKey(id));
  revalidatePath("/admin", "layout");
}

const STATUSES = { restrict: "restricted", activate: "active", revoke: "revoked" } as const;

/** Restrict (read-only for its holder), activate again, or revoke a client ID. */
export async function setClientIdStatusAction(form: FormData): Promise<void> {
  const admin = await adminForAction();
  const id = field(form, "id");
  const op = field(form, "op") as keyof typeof STATUSES;
  if (!(op in STATUSES)) throw invalidField("op", "must be restrict, activate or revoke");
  const accountId = await credentialOwner("clientId", id);
  await audited({ actor: admin.actor, action: `client_id.${op}`, target: id, accountId }, () => setClientIdStatus(id, STATUSES[op]));
  revalidatePath("/admin", "layout");
}

/** The rate-limit tier of a client ID, API key or orchestrator key. */
export async function setTierAction(form: FormData): Promise<void> {
  const admin = await adminForAction();
  const id = field(form, "id");
  const tier = field(form, "tier");
  if (!(RATE_TIERS as readonly string[]).includes(tier)) throw invalidField("tier", `must be one of ${RATE_TIERS.join(", ")}`);
  const kind = id.startsWith(idPrefix.clientId) ? "clientId" : id.startsWith(idPrefix.orchestratorKey) ? "orchestratorKey" : "apiKey";
  const accountId = await credentialOwner(kind, id);
  await audited({ actor: admin.actor, action: "rate_tier.set", target: id, accountId, details: { tier } }, () =>
    setRateTier(id, tier as (typeof RATE_TIERS)[number]),
  );
  revalidatePath("/admin", "layout");
}

/** Signs a user out everywhere (every live session revoked on the server). */
export async function revokeUserSessionsAction(form: FormData): Promise<void> {
  const admin = await adminForAction();
  const userId = field(form, "userId");
  const accountId = await userOwner(userId);
  await audited({ actor: admin.actor, action: "user.revoke_sessions", target: userId, accountId }, async () => ({
    revoked: await revokeUserSessions(userId),
  }));
  revalidatePath("/admin", "layout");
}
