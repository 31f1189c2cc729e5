"use client";

import { signIn } from "next-auth/react";
import type { FormState } from "@/app/sign-in/actions";
import { useCheckedForm } from "@/components/shared/use-checked-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { checkForm } from "@/lib/forms/form-state";
import { SIGN_IN_FORM_FIELDS, SIGN_IN_MAX_LENGTHS, signInFormSchema } from "@/lib/forms/sign-in-form";

/**
 * Email and password, signed in through next-auth's "password" provider (the same login() as
 * /v1/auth/login: validation, lockout, per-IP limit). The browser checks both fields first with
 * the API's schema; `action` runs next, a server action: the login's validation (sign-in) or the
 * same register() as /v1/auth/register (registration). Nothing typed is cleared by an error.
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
  const form = useCheckedForm({
    action: async (prev: FormState, data: FormData): Promise<FormState> => {
      const email = String(data.get("email") ?? "");
      const checked = await action(prev, data);
      if (checked.error) return checked;
      const res = await signIn("password", { redirect: false, email, password: String(data.get("password") ?? "") });
      if (!res?.ok) {
        const error =
          autoComplete === "new-password" && res?.error === "Invalid email or password"
            ? "Could not sign you in with this email and password. If you already have an account, sign in instead."
            : (res?.error ?? "Sign-in failed");
        return { error, email, values: { email } };
      }
      window.location.assign(next);
      return { error: null, email };
    },
    initial: { email: "", password: "" },
    check: (v) => checkForm(signInFormSchema, { email: v.email ?? "", password: v.password ?? "" }, SIGN_IN_FORM_FIELDS),
  });
  return (
    <form ref={form.formRef} action={form.formAction} onSubmit={form.onSubmit} className="space-y-4" noValidate>
      {next ? <input type="hidden" name="next" value={next} /> : null}
      <Field
        id="email"
        label="Email"
        type="email"
        autoComplete="email"
        required
        maxLength={SIGN_IN_MAX_LENGTHS.email}
        {...form.field("email")}
      />
      <Field
        id="password"
        label="Password"
        hint={autoComplete === "new-password" ? "8 to 100 characters." : undefined}
        type="password"
        autoComplete={autoComplete}
        required
        maxLength={SIGN_IN_MAX_LENGTHS.password}
        {...form.field("password")}
      />
      {form.formError ? (
        <Alert as="p" role="alert">
          {form.formError}
        </Alert>
      ) : null}
      <Button type="submit" block disabled={form.pending}>
        {form.pending ? "Please wait…" : submit}
      </Button>
    </form>
  );
}
