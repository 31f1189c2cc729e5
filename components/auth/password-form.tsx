"use client";

import { signIn } from "next-auth/react";
import { useActionState } from "react";
import type { FormState } from "@/app/sign-in/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";

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
      {next ? <input type="hidden" name="next" value={next} /> : null}
      <Field
        id="email"
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        defaultValue={state.email}
        aria-invalid={state.field === "email" || undefined}
      />
      <Field
        id="password"
        label="Password"
        hint={autoComplete === "new-password" ? "8 to 100 characters." : undefined}
        name="password"
        type="password"
        autoComplete={autoComplete}
        required
        minLength={8}
        aria-invalid={state.field === "password" || undefined}
      />
      {state.error ? (
        <Alert as="p" role="alert">
          {state.error}
        </Alert>
      ) : null}
      <Button type="submit" block disabled={pending}>
        {pending ? "Please wait…" : submit}
      </Button>
    </form>
  );
}
