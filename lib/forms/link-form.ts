import { z } from "zod";
import type { FormFields } from "@/lib/errors";
import { maxLengthOf, optionalText } from "@/lib/forms/form-state";
import {
  AMOUNT_MAX_FRACTION_DIGITS,
  AMOUNT_MAX_WHOLE_DIGITS,
  createSecurePaymentBodySchema,
  decimalAmountSchema,
} from "@/lib/operations/secure-payments-schemas";

/** The dashboard's link form: one amount in the account's destination currency, and the optional texts. */
export const LINK_FORM_FIELDS = {
  amount: { label: "Amount", path: "requests.0.amount" },
  reference: { label: "Reference" },
  description: { label: "Description" },
  redirectUrl: { label: "Redirect after payment" },
} as const satisfies FormFields;

export type LinkFormValues = Record<keyof typeof LINK_FORM_FIELDS, string>;

/** The body of POST /v2/secure-payments that the form's inputs make. */
export function linkFormBody(v: Partial<LinkFormValues>) {
  return {
    requests: [{ amount: (v.amount ?? "").trim() }],
    reference: optionalText(v.reference),
    description: optionalText(v.description),
    redirectUrl: optionalText(v.redirectUrl),
  };
}

/**
 * The API's body schema, its amount bounded by the currency's own decimals (the API's is 18): the
 * browser's check and the dashboard's server action (app/dashboard/links/actions.ts) both use it,
 * with the destination currency's decimals, so both refuse the same input in the same words.
 */
export function linkFormSchema(decimals: number = AMOUNT_MAX_FRACTION_DIGITS) {
  const shape = createSecurePaymentBodySchema.shape;
  return createSecurePaymentBodySchema.extend({
    requests: z.array(z.strictObject({ amount: decimalAmountSchema(Math.min(decimals, AMOUNT_MAX_FRACTION_DIGITS)) })).length(1),
    reference: shape.reference,
  });
}

/** Each input's maxLength: what the API accepts, so that a paste is cut where the server would refuse. */
export function linkFormMaxLengths(decimals: number = AMOUNT_MAX_FRACTION_DIGITS): Record<keyof typeof LINK_FORM_FIELDS, number> {
  const shape = createSecurePaymentBodySchema.shape;
  return {
    amount: AMOUNT_MAX_WHOLE_DIGITS + 1 + Math.min(decimals, AMOUNT_MAX_FRACTION_DIGITS),
    reference: maxLengthOf(shape.reference) ?? 255,
    description: maxLengthOf(shape.description) ?? 500,
    redirectUrl: maxLengthOf(shape.redirectUrl) ?? 2048,
  };
}
