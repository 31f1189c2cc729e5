import { z } from "zod";

/**
 * The signature-payment relayer's variables (lib/relayer, docs/guides/signature-payments.md), spread into
 * envSchema in lib/env/variables.ts. Each carries its VariableDoc like the others.
 */
const relayerDoc = <T extends z.ZodType>(schema: T, d: { description: string; default?: string; requiredWhen?: string }): T =>
  schema.meta({ ...d });

const hexKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key");

export const relayerVariables = {
  DEPOSIT_RELAYER_PRIVATE_KEY: relayerDoc(hexKey.optional(), {
    description:
      "key of the deposit relayer (lib/deposits): deploys a request's deposit address (a SingleRequestProxy) and forwards what is sent to it. Pays gas only; its own account, apart from the recurring relayer's nonces",
    default: "unset (the devnet's deposit relayer under `npm run dev`)",
    requiredWhen: "deposit addresses are wanted (unset: none are offered)",
  }),
  SIGNATURE_RELAYER_PRIVATE_KEY: relayerDoc(hexKey.optional(), {
    description:
      "key of the signature-payment relayer (lib/relayer): submits payers' signed EIP-3009 authorizations (gasless pay, escrow authorize/capture, x402 settle). Pays gas only, never holds tokens; its own account, apart from the recurring and deposit relayers' nonces. Fund it with the native token of every network it serves",
    default: "unset (the devnet's signature relayer under `npm run dev`)",
    requiredWhen: "gasless payments, escrow captured by Duebill, or x402 settlement are wanted (unset: refused by name)",
  }),
};
