import { z } from "zod";

/** Schemas of the gasless-pay operations (lib/operations/gasless.ts, lib/gasless). */
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const units = z.string().regex(/^\d+$/).meta({ description: "Base units of the token (integer string)" });
const decimal = z.string().meta({ description: "Human decimal in the token" });
const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/);

export const gaslessQuerySchema = z.strictObject({
  wallet: z.string().min(1).max(100).meta({ description: "The payer's wallet (an EOA): the signer and the `from` of the authorization" }),
});

export const gaslessPlanSchema = z
  .object({
    requestId: z.string(),
    network: z.object({ id: z.string(), name: z.string(), chainId: z.number().int() }),
    token: z.object({ symbol: z.string(), address, decimals: z.number().int() }),
    contract: address.meta({ description: "DuebillGaslessPayments on the network: the authorization's `to`" }),
    amounts: z
      .object({ amount: decimal, fee: decimal, relayerFee: decimal, total: decimal })
      .meta({ description: "What the payer's signature commits to: the request's amount and fee (its fee rule) and the relayer's fee" }),
    payment: z
      .object({
        token: address,
        from: address,
        payee: address,
        amount: units,
        feeAddress: address,
        feeAmount: units,
        relayerFeeAddress: address,
        relayerFee: units,
        paymentReference: z.string(),
        salt: hex32,
      })
      .meta({ description: "The contract's Payment struct; the nonce is keccak256 of it with the chain ID and the contract" }),
    balance: decimal.nullable().meta({ description: "The wallet's balance of the token now (null: the node could not be read)" }),
    hasEnoughBalance: z.boolean().nullable().meta({ description: "Whether that balance covers `amounts.total`" }),
    validBefore: z.string().meta({ description: "Unix seconds: sign and submit before it" }),
    expiresAt: z.string().meta({ description: "validBefore as ISO 8601" }),
    typedData: z
      .object({
        domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int(), verifyingContract: address }),
        types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
        primaryType: z.literal("ReceiveWithAuthorization"),
        message: z.object({ from: address, to: address, value: units, validAfter: units, validBefore: units, nonce: hex32 }),
      })
      .meta({ description: "EIP-712 typed data for eth_signTypedData_v4 (EIP-3009 ReceiveWithAuthorization)" }),
  })
  .meta({ id: "GaslessPlan" });

// Formats are checked by lib/gasless/submit.ts (a 400 naming the field), so the documented example's placeholders fit the schema.
export const gaslessSubmitBodySchema = z.strictObject({
  wallet: z.string().min(1).max(100).meta({ description: "The wallet the plan was asked for" }),
  salt: z.string().min(1).max(66).meta({ description: "The plan's `payment.salt` (0x + 32 bytes)" }),
  validBefore: z.string().min(1).max(20).meta({ description: "The plan's `validBefore` (unix seconds)" }),
  signature: z
    .string()
    .min(1)
    .max(132)
    .meta({ description: "The wallet's eth_signTypedData_v4 signature of the plan's `typedData` (0x + 65 bytes)" }),
});

export const gaslessResultSchema = z
  .object({
    requestId: z.string(),
    status: z.literal("confirmed"),
    txHash: z.string(),
    blockNumber: z.string(),
    gasUsed: z.string().meta({ description: "Gas the relayer paid (accounted per payment)" }),
    replayed: z.boolean().meta({ description: "True when an earlier submission for this link made the payment: this one sent nothing" }),
    amounts: z.object({ amount: decimal, fee: decimal, relayerFee: decimal, total: decimal }),
  })
  .meta({ id: "GaslessResult" });
