"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/sign-in/actions";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";

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
