"use client";

import { signIn } from "next-auth/react";
import { useActionState } from "react";
import type { FormState } from "@/app/sign-in/actions";
import { primaryButtonClass } from "@/components/payment/paid-panel";

const input =
  "mt-1 block min-h-11 w-full rounded-xl border-0 bg-white px-3 py-2 text-base text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600 sm:text-sm";

/** A "field: message" error names the field at fault (the API's words, as the server action's). */
function fieldOf(error: string): string | undefined {
  return /^(email|password): /.exec(error)?.[1];
}

/**
 * Email and password, signed in through next-auth's "password" provider (the same login() as
 * /v1/auth/login: validation, lockout, per-IP limit). `action` runs first, a server action: the
 * login's validation (sign-in) or the same register() as /v1/auth/register (registration).
 */
export function PasswordForm({
  action,
  submit,
  next = "/dashboard",
  autoComplete,
}: {
  action: (prev: FormState, form: FormData) => Promise<FormState>;
  submit: string;
  next?: string;
  autoComplete: "current-password" | "new-password";
}) {
  const [state, formAction, pending] = useActionState(
    async (prev: FormState, form: FormData): Promise<FormState> => {
      const email = String(form.get("email") ?? "");
      if (action) {
        const registered = await action(prev, form);
        if (registered.error) return registered;
      }
      const res = await signIn("password", { redirect: false, email, password: String(form.get("password") ?? "") });
      if (!res?.ok) {
        const error =
          autoComplete === "new-password" && res?.error === "Invalid email or password"
            ? "Could not sign you in with this email and password. If you already have an account, sign in instead."
            : (res?.error ?? "Sign-in failed");
        return { error, field: fieldOf(error), email };
      }
      window.location.assign(next);
      return { error: null, email };
    },
    { error: null },
  );
  return (
    <form action={formAction} className="space-y-4" noValidate>
      <div>
        <label htmlFor="email" className="text-sm font-medium text-slate-700">
          Email
        </label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={state.email}
          aria-invalid={state.field === "email" || undefined}
          className={input}
        />
      </div>
      <div>
        <label htmlFor="password" className="text-sm font-medium text-slate-700">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete={autoComplete}
          required
          minLength={8}
          aria-invalid={state.field === "password" || undefined}
          className={input}
        />
        {autoComplete === "new-password" ? <p className="mt-1 text-xs text-slate-500">8 to 100 characters.</p> : null}
      </div>
      {state.error ? (
        <p role="alert" className="rounded-xl bg-rose-50 p-3 text-sm text-rose-800 ring-1 ring-rose-200">
          {state.error}
        </p>
      ) : null}
      <button type="submit" disabled={pending} className={`${primaryButtonClass} sm:w-full`}>
        {pending ? "Please wait…" : submit}
      </button>
    </form>
  );
}
