"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/sign-in/actions";
import { primaryButtonClass } from "@/components/pay/panels/paid-panel";

const input =
  "mt-1 block min-h-11 w-full rounded-xl border-0 bg-white px-3 py-2 text-base text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600 sm:text-sm";

/** Email and password, posted to a server action that calls the same lib functions as /v1/auth/login and /register. */
export function PasswordForm({
  action,
  submit,
  next,
  autoComplete,
}: {
  action: (prev: FormState, form: FormData) => Promise<FormState>;
  submit: string;
  next?: string;
  autoComplete: "current-password" | "new-password";
}) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  return (
    <form action={formAction} className="space-y-4" noValidate>
      {next ? <input type="hidden" name="next" value={next} /> : null}
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
