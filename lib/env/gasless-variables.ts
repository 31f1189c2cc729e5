import { z } from "zod";

/**
 * Gasless pay's variables (lib/gasless, docs/guides/signature-payments.md), spread into envSchema in
 * lib/env/variables.ts. The relayer's key itself is SIGNATURE_RELAYER_PRIVATE_KEY (relayer-variables.ts).
 */
const gaslessDoc = <T extends z.ZodType>(schema: T, d: { description: string; default?: string; requiredWhen?: string }): T =>
  schema.meta({ ...d });

export const gaslessVariables = {
  GASLESS_RELAYER_FEE: gaslessDoc(
    z
      .string()
      .regex(/^\d{1,12}(\.\d{1,18})?$/, "must be a decimal amount, e.g. 0.05")
      .default("0"),
    {
      description:
        "what a gasless payment charges the payer for the relayer's gas, in whole tokens of the paid token (e.g. 0.05 = 5 cents of USDC); shown in the plan before signing and committed in the signature",
      default: "0 (the relayer's gas is Duebill's cost)",
    },
  ),
  GASLESS_RELAYER_FEE_ADDRESS: gaslessDoc(
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address")
      .optional(),
    {
      description: "where the gasless relayer fee goes",
      default: "the signature relayer's own address",
    },
  ),
};
