import { z } from "zod";
import { facilitatorRequestSchema, paymentRequirementsSchema, resourceInfoSchema } from "@/lib/x402/wire";

/** The x402 v2 bodies (lib/x402/wire.ts holds the request schemas, shared with the PAYMENT-SIGNATURE parser). */
export { facilitatorRequestSchema };

export const paymentRequiredSchema = z
  .object({
    x402Version: z.literal(2),
    error: z.string().optional().meta({ description: "Why the payment sent was refused (an x402 reason code)" }),
    resource: resourceInfoSchema,
    accepts: z.array(paymentRequirementsSchema).meta({
      description:
        "One entry: scheme `exact`, the request's network (CAIP-2), its token, its full due amount in base units (the fee " +
        "included), payTo = the request's deposit address, and extra {name, version} = the token's EIP-712 domain",
    }),
  })
  .meta({ id: "X402PaymentRequired" });

export const requestResourceSchema = z
  .object({
    requestId: z.string(),
    status: z.enum(["pending", "partially_paid", "paid"]),
    network: z.string(),
    currency: z.object({ symbol: z.string(), address: z.string(), decimals: z.number().int() }),
    amount: z.string(),
    amountPaid: z.string(),
    paidAt: z.string().nullable(),
  })
  .meta({ id: "X402RequestResource" });

export const verifyResponseSchema = z
  .object({
    isValid: z.boolean(),
    invalidReason: z.string().optional(),
    invalidMessage: z.string().optional(),
    payer: z.string().optional(),
  })
  .meta({ id: "X402VerifyResponse" });

export const settleResponseSchema = z
  .object({
    success: z.boolean(),
    errorReason: z.string().optional(),
    errorMessage: z.string().optional(),
    payer: z.string().optional(),
    transaction: z.string().meta({ description: "The transaction hash; empty when nothing was sent" }),
    network: z.string(),
    amount: z.string().optional(),
  })
  .meta({ id: "X402SettleResponse" });

export const supportedResponseSchema = z
  .object({
    kinds: z.array(z.object({ x402Version: z.number().int(), scheme: z.string(), network: z.string() })),
    extensions: z.array(z.string()),
    signers: z.record(z.string(), z.array(z.string())),
  })
  .meta({ id: "X402SupportedResponse" });
