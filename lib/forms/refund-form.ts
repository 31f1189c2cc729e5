import type { FormFields } from "@/lib/errors";
import { maxLengthOf, optionalText } from "@/lib/forms/form-state";
import { createRefundBodySchema } from "@/lib/operations/refunds-schemas";
import { AMOUNT_MAX_FRACTION_DIGITS, AMOUNT_MAX_WHOLE_DIGITS, decimalAmountSchema } from "@/lib/operations/secure-payments-schemas";

/**
 * The request page's refund form (app/dashboard/requests/actions.ts prepareRefundAction): how much
 * and where to, both optional — empty means what the API defaults to (everything still refundable,
 * the payer). The wallet is never typed: it is the request's payee.
 */
export const REFUND_FORM_FIELDS = {
  amount: { label: "Amount" },
  to: { label: "Refund to" },
} as const satisfies FormFields;

export type RefundFormValues = Record<keyof typeof REFUND_FORM_FIELDS, string>;

/** The body of POST /v2/request/{requestId}/refunds that the form's inputs make. */
export function refundFormBody(v: Partial<RefundFormValues>) {
  return { amount: optionalText(v.amount), to: optionalText(v.to) };
}

/**
 * POST /v2/request/{requestId}/refunds' body schema, its amount bounded by the payment currency's
 * decimals (the API's is any decimal string; lib/money's parseAmount refuses more decimals than the
 * token has): the browser and the server action check the same input in the same words.
 */
export function refundFormSchema(decimals: number = AMOUNT_MAX_FRACTION_DIGITS) {
  return createRefundBodySchema.pick({ amount: true, to: true }).extend({
    amount: decimalAmountSchema(Math.min(decimals, AMOUNT_MAX_FRACTION_DIGITS)).optional(),
  });
}

/** Each input's maxLength: what the API accepts. */
export function refundFormMaxLengths(decimals: number = AMOUNT_MAX_FRACTION_DIGITS): Record<keyof typeof REFUND_FORM_FIELDS, number> {
  return {
    amount: AMOUNT_MAX_WHOLE_DIGITS + 1 + Math.min(decimals, AMOUNT_MAX_FRACTION_DIGITS),
    to: maxLengthOf(createRefundBodySchema.shape.to) ?? 100,
  };
}
