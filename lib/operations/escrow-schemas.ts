import { z } from "zod";
import { txSchema } from "@/lib/operations/requests-schemas";

/** Commerce payments (lib/commerce, docs/guides/escrow.md): bodies and answers. Amounts are decimal strings. */
const decimal = (description: string, example = "60") => z.string().meta({ description, example });
const iso = (description: string) => z.string().max(40).meta({ description, example: "2026-12-31T23:59:59Z" });
const address = z.string().max(100);

export const authorizeCalldataBodySchema = z.strictObject({
  requestId: z.string().max(100).meta({ description: "The request the payer authorizes (its amount plus fee is escrowed)" }),
  payerAddress: address.meta({ description: "The payer's wallet: the signer (EIP-3009) or the sender (allowance)" }),
  method: z.enum(["signature", "allowance"]).optional().meta({
    description:
      "signature: the payer signs an EIP-3009 ReceiveWithAuthorization, Duebill's relayer submits it (no gas for the payer; native USDC). allowance: the payer approves and sends authorizeWithAllowance (USDT and tokens without EIP-3009). Default: signature where the token has EIP-3009",
  }),
  operatorWalletAddress: address.optional().meta({
    description:
      "Who may capture, void and refund: your operator wallet (use the /calldata variants) or, by default, Duebill's relayer (the plain variants)",
  }),
  preApprovalExpiry: iso(
    "No authorization after this time (the EIP-3009 validBefore). Default: one hour from now, by the chain's clock",
  ).optional(),
  authorizationExpiry: iso(
    "The capture deadline: no capture from this time on; then the payer may reclaim. Default: 7 days from now",
  ).optional(),
});

export const authorizeBodySchema = z.strictObject({
  signature: z.string().max(200).meta({ description: "The payer's signature of the typedData the calldata call returned (0x, 65 bytes)" }),
});

export const captureBodySchema = z.strictObject({
  amount: z
    .string()
    .max(80)
    .optional()
    .meta({ description: "What to capture (fee share included). Default: everything still capturable", example: "60" }),
});

export const refundBodySchema = z.strictObject({
  amount: z.string().max(80).meta({ description: "What goes back to the payer: at most captured minus refunded", example: "10" }),
  wallet: address.optional().meta({ description: "The wallet that sends the refund: the payee (default) or the operator" }),
});

export const refundSignedBodySchema = z.strictObject({
  amount: z.string().max(80).meta({ description: "The amount the payee signed (the typed data's value, as a decimal)", example: "10" }),
  validBefore: z.string().max(20).meta({ description: "The typed data's validBefore (unix seconds)", example: "1798761599" }),
  refundSalt: z.string().max(66).meta({ description: "The refundSalt POST …/refund/calldata returned with the typed data" }),
  signature: z.string().max(200).meta({ description: "The payee's signature of that typed data (0x, 65 bytes)" }),
});

const paymentInfoSchema = z.object({
  operator: z.string(),
  payer: z.string(),
  receiver: z.string(),
  token: z.string(),
  maxAmount: z.string().meta({ description: "Base units" }),
  preApprovalExpiry: z.number().int(),
  authorizationExpiry: z.number().int(),
  maxFeeBps: z.number().int(),
  feeReceiver: z.string(),
  paymentReference: z.string(),
  salt: z.string(),
});

export const commercePaymentSchema = z.object({
  requestId: z.string(),
  commercePaymentId: z.string(),
  paymentId: z
    .string()
    .meta({ description: "The escrow's id of the payment: keccak256(chainId, escrow, paymentInfo); the EIP-3009 nonce" }),
  status: z.enum(["created", "authorized", "partially_captured", "captured", "voided", "reclaimed", "partially_refunded", "refunded"]),
  method: z.enum(["signature", "allowance"]),
  network: z.string(),
  currency: z.string(),
  escrowAddress: z.string(),
  payerAddress: z.string(),
  payee: z.string(),
  operatorWalletAddress: z.string(),
  paymentReference: z.string(),
  authorizedAmount: decimal("Escrowed by the payer (fee included)", "100"),
  capturedAmount: decimal("Paid out to the payee (and fee address) so far"),
  capturedFeeAmount: decimal("Of capturedAmount, what went to the fee address", "0"),
  capturableAmount: decimal("Still in the escrow and capturable (0 once the capture deadline passed)", "0"),
  voidedAmount: decimal("Returned to the payer by a void", "40"),
  reclaimedAmount: decimal("Taken back by the payer after the deadline", "0"),
  reclaimableAmount: decimal("Still in the escrow after the capture deadline: the payer may reclaim it", "0"),
  refundedAmount: decimal("Refunded to the payer from captured funds", "10"),
  refundableAmount: decimal("Captured and not yet refunded", "50"),
  preApprovalExpiry: z.string(),
  authorizationExpiry: z.string(),
  captureDeadlinePassed: z.boolean(),
  paymentInfo: paymentInfoSchema,
});

export const authorizeCalldataResponseSchema = commercePaymentSchema.extend({
  typedData: z
    .object({
      domain: z.object({ name: z.string(), version: z.string(), chainId: z.number(), verifyingContract: z.string() }),
      types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
      primaryType: z.literal("ReceiveWithAuthorization"),
      message: z.record(z.string(), z.string()),
    })
    .optional()
    .meta({
      description: "method signature: what the payer signs (eth_signTypedData_v4), then POST /v2/commerce-payments/{requestId}/authorize",
    }),
  transactions: z
    .array(txSchema)
    .optional()
    .meta({ description: "method allowance: approve, then authorizeWithAllowance, sent by the payer" }),
});

const typedDataSchema = z.object({
  domain: z.object({ name: z.string(), version: z.string(), chainId: z.number(), verifyingContract: z.string() }),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.literal("ReceiveWithAuthorization"),
  message: z.record(z.string(), z.string()),
});

export const commerceCalldataResponseSchema = commercePaymentSchema.extend({
  from: z.string().meta({ description: "The wallet that must send the transactions (the contract checks msg.sender)" }),
  transactions: z.array(txSchema),
  refundSalt: z
    .string()
    .optional()
    .meta({ description: "Refunds by the payee of an EIP-3009 token: pass it to POST …/refund with the signature" }),
  typedData: typedDataSchema.optional().meta({
    description: "Refunds by the payee of an EIP-3009 token: the gasless variant the payee may sign instead of sending the transactions",
  }),
});
