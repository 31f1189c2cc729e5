"use server";

import { redirect } from "next/navigation";
import { revokeSession } from "@/lib/auth/sessions";
import { login, register } from "@/lib/auth/sign-in/email";
import { AppError, toFormState } from "@/lib/errors";
import { clearSessionCookie, currentUser, limitAnonymousAction, safeNext, setSessionCookie } from "@/lib/http/page-session";
import { parseWith } from "@/lib/http/parse";
import { credentialsBodySchema } from "@/lib/operations/auth";

export interface FormState {
  error: string | null;
  /** The field at fault, as the API names it. */
  field?: string;
  email?: string;
}

const fields = (form: FormData) => ({ email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") });

/** Email/password sign-in: the same lib call, validation and lockout as POST /v1/auth/login. */
export async function signInWithPassword(_prev: FormState, form: FormData): Promise<FormState> {
  const input = fields(form);
  try {
    await limitAnonymousAction();
    const body = parseWith(credentialsBodySchema, input);
    const session = await login(body.email, body.password);
    await setSessionCookie(session);
  } catch (err) {
    return { ...toFormState(err), email: input.email };
  }
  redirect(safeNext(String(form.get("next") ?? "")));
}

/** Registration as POST /v1/auth/register, then signed in with the same email and password. */
export async function registerWithPassword(_prev: FormState, form: FormData): Promise<FormState> {
  const input = fields(form);
  try {
    await limitAnonymousAction();
    const body = parseWith(credentialsBodySchema, input);
    // Registration answers alike for new and existing emails (it tells no one which exist); signing
    // in with the password just chosen then works for a new account, or for the owner of an existing one.
    await register(body.email, body.password);
    const session = await login(body.email, body.password).catch((err: unknown) => {
      if (err instanceof AppError && err.code === "unauthorized")
        throw new AppError(
          "unauthorized",
          "Could not sign you in with this email and password. If you already have an account, sign in instead.",
        );
      throw err;
    });
    await setSessionCookie(session);
  } catch (err) {
    return { ...toFormState(err), email: input.email };
  }
  redirect("/dashboard");
}

/** Sign-out revokes the session on the server (as POST /v1/auth/logout), then drops the cookie. */
export async function signOut(): Promise<void> {
  const user = await currentUser();
  if (user) await revokeSession(user.session.sessionId);
  await clearSessionCookie();
  redirect("/sign-in");
}
