import { credentialsBodySchema } from "@/lib/auth/schemas";
import type { FormFields } from "@/lib/errors";
import { maxLengthOf } from "@/lib/forms/form-state";

/** Sign-in and registration: the body of /v1/auth/login and /v1/auth/register, checked alike in the browser. */
export const SIGN_IN_FORM_FIELDS = { email: { label: "Email" }, password: { label: "Password" } } as const satisfies FormFields;
export const signInFormSchema = credentialsBodySchema;
export const SIGN_IN_MAX_LENGTHS = {
  email: maxLengthOf(credentialsBodySchema.shape.email) ?? 255,
  password: maxLengthOf(credentialsBodySchema.shape.password) ?? 100,
};
