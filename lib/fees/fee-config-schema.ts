import { z } from "zod";

/**
 * An account's fee configuration as the admin CLI (`fee:set`), the operators' and the dashboard's
 * forms give it: the one set of rules setFeeConfig applies, zod only so that a form checks it in the
 * browser too (lib/forms/fee-form.ts). Field names are the CLI's flags; the EIP-55 checksum and the
 * Tron base58check are verified by setFeeConfig on top of these shapes.
 */
export const FEE_LABEL_MAX = 60;

/** The fields alone; feeConfigSchema adds the one rule across them (a receiving address). */
export const feeConfigFieldsSchema = z.object({
  bps: z
    .number()
    .int("must be an integer from 0 to 10000")
    .min(0, "must be an integer from 0 to 10000")
    .max(10_000, "must be an integer from 0 to 10000"),
  cap: z
    .string()
    .max(12, "must be a USD amount such as 5 or 2.50, at most 9 digits before the point")
    .regex(/^\d{1,9}(\.\d{1,2})?$/, "must be a USD amount such as 5 or 2.50")
    .optional(),
  bearer: z.enum(["payer", "payee"], "must be payer or payee"),
  label: z.string().trim().min(1).max(FEE_LABEL_MAX, `must be at most ${FEE_LABEL_MAX} characters`).optional(),
  evm: z
    .string()
    .max(42)
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be a checksummed 0x address")
    .optional(),
  tron: z
    .string()
    .max(34)
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, "must be a Tron base58 address")
    .optional(),
});

/** A fee needs somewhere to go: an EVM or a Tron address (or both). */
export const feeAddressRule = [
  (c: { evm?: string; tron?: string }) => c.evm !== undefined || c.tron !== undefined,
  { path: ["evm"], message: "is required: a fee needs a receiving address (EVM and/or Tron)" },
] as [(c: { evm?: string; tron?: string }) => boolean, { path: string[]; message: string }];

export const feeConfigSchema = feeConfigFieldsSchema.refine(...feeAddressRule);

export type FeeConfigFields = z.infer<typeof feeConfigSchema>;
