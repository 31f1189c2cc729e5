import { z } from "zod";
import type { FormFields } from "@/lib/errors";
import { FEE_LABEL_MAX, feeAddressRule, feeConfigFieldsSchema } from "@/lib/fees/fee-config-schema";
import { optionalText } from "@/lib/forms/form-state";

export const FEE_FORM_FIELDS = {
  bps: { label: "Fee (basis points)" },
  cap: { label: "Cap (USD)" },
  bearer: { label: "Paid by" },
  label: { label: "Label shown to payers" },
  evm: { label: "Fee address (EVM)" },
  tron: { label: "Fee address (Tron)" },
} as const satisfies FormFields;

/**
 * setFeeConfig's schema, with the basis points typed as text: digits only, then the same integer
 * bounds (0 to 10000).
 */
const bpsText = z
  .string()
  .regex(/^\d{1,5}$/, "must be an integer from 0 to 10000")
  .transform(Number)
  .pipe(feeConfigFieldsSchema.shape.bps);

export const feeFormSchema = feeConfigFieldsSchema.extend({ bps: bpsText }).refine(...feeAddressRule);

export function feeFormBody(v: Record<string, string | undefined>) {
  return {
    bps: (v.bps ?? "").trim(),
    cap: optionalText(v.cap),
    bearer: v.bearer ?? "",
    label: optionalText(v.label),
    evm: optionalText(v.evm),
    tron: optionalText(v.tron),
  };
}

export const FEE_MAX_LENGTHS = { bps: 5, cap: 12, label: FEE_LABEL_MAX, evm: 42, tron: 34 } as const;

/**
 * The operators' fee form (/admin/accounts/[id], the CLI's `fee:set`): the merchant's fields plus
 * the flow the fee applies to (a merchant's Settings sets the get-paid one only).
 */
export const ADMIN_FEE_FORM_FIELDS = { flow: { label: "Flow" }, ...FEE_FORM_FIELDS } as const satisfies FormFields;

export const adminFeeFormSchema = feeConfigFieldsSchema
  .extend({ flow: z.enum(["get_paid", "pay"], "must be get_paid or pay"), bps: bpsText })
  .refine(...feeAddressRule);

export function adminFeeFormBody(v: Record<string, string | undefined>) {
  return { flow: v.flow ?? "", ...feeFormBody(v) };
}
