"use server";

import { redirect } from "next/navigation";
import { revokeSession } from "@/lib/auth/sessions";
import { register } from "@/lib/auth/sign-in/email";
import { toFormState } from "@/lib/errors";
import { type FormState as CheckedFormState, checkForm, refusedState } from "@/lib/forms/form-state";
import { SIGN_IN_FORM_FIELDS, signInFormSchema } from "@/lib/forms/sign-in-form";
import { clearSessionCookie, currentUser, limitAnonymousAction } from "@/lib/http/page-session";
import { parseWith } from "@/lib/http/parse";
import { credentialsBodySchema } from "@/lib/operations/auth";

export interface FormState extends CheckedFormState {
  email?: string;
}

const fields = (form: FormData) => ({ email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") });

/** A refusal in words under its field; the email is given back (the password stays in the browser's own state). */
function refused(err: unknown, email: string): FormState {
  return { ...toFormState(err, SIGN_IN_FORM_FIELDS), email, values: { email } };
}

/**
 * The sign-in form's first step: the same validation as POST /v1/auth/login, answered in words. The
 * sign-in itself is next-auth's "password" provider (lib/http/next-auth.ts: login(), lockout, per-IP
 * limit), called by the form next (components/auth/password-form.tsx).
 */
export async function signInWithPassword(_prev: FormState, form: FormData): Promise<FormState> {
  const input = fields(form);
  const checked = checkForm(signInFormSchema, input, SIGN_IN_FORM_FIELDS);
  if (!checked.ok) return { ...refusedState(checked.fieldErrors, { email: input.email }), email: input.email };
  return { error: null, email: input.email };
}

/**
 * Registration as POST /v1/auth/register (same validation, same per-IP limit); the form then signs
 * in with the same email and password through next-auth (components/auth/password-form.tsx).
 */
export async function registerWithPassword(_prev: FormState, form: FormData): Promise<FormState> {
  const input = fields(form);
  try {
    await limitAnonymousAction();
    const checked = checkForm(signInFormSchema, input, SIGN_IN_FORM_FIELDS);
    if (!checked.ok) return { ...refusedState(checked.fieldErrors, { email: input.email }), email: input.email };
    const body = parseWith(credentialsBodySchema, input);
    // Registration answers alike for new and existing emails (it tells no one which exist); signing
    // in with the password just chosen then works for a new account, or for the owner of an existing one.
    await register(body.email, body.password);
  } catch (err) {
    return refused(err, input.email);
  }
  return { error: null, email: input.email };
}

/** Sign-out revokes the session row on the server (as POST /v1/auth/logout), then drops the page's cookies. */
export async function signOut(): Promise<void> {
  const user = await currentUser();
  if (user) await revokeSession(user.session.sessionId);
  await clearSessionCookie();
  redirect("/sign-in");
}
