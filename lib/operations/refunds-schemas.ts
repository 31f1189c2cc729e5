import { z } from "zod";
import { decimal, refundSchema, refundTotalsShape } from "@/lib/operations/refund-view-schemas";
import { payMetadataSchema, txSchema } from "@/lib/operations/requests-schemas";

export { refundSchema, refundTotalsShape };

const address = z.string().min(1).max(100);

export const refundParamsSchema = z.object({
  requestId: z.string().max(100),
  refundId: z.string().max(64).meta({ description: "The refund's `id` (rfd_…)" }),
});

export const createRefundBodySchema = z.strictObject({
  amount: z.string().max(80).optional().meta({
    description:
      "Decimal string in the payment currency (e.g. USDC). Default: everything that can still be refunded (what the payee received, fee excluded, minus refunds confirmed, sent or prepared)",
    example: "5",
  }),
  to: address.optional().meta({
    description:
      "Where the refund goes. Default: the payer (the request's `payer`, else its first payment's). Another address gets a `warning`: an exchange's hot wallet or deposit address may lose it",
  }),
  wallet: address.optional().meta({
    description: "The wallet that will send the refund (its allowance and balance are read). Default: the request's payee",
  }),
});

export const markRefundSentBodySchema = z.strictObject({
  txHash: z
    .string()
    .min(1)
    .max(100)
    .meta({
      description: "The hash of the transaction the wallet sent (EVM: 0x + 64 hex; Tron: the 64-hex transaction ID)",
      example: `0x${"ab".repeat(32)}`,
    }),
});

export const getRefundQuerySchema = z.object({
  wallet: address.optional().meta({ description: "The wallet that will send a prepared refund (default: the request's payee)" }),
});

export const refundMetadataSchema = payMetadataSchema.omit({ conversion: true }).extend({
  wallet: z.string().meta({ description: "The wallet the transactions are for" }),
  feeKept: decimal(
    "The fee of the original payments, in the payment currency: it stays with the fee address (a refund returns what the payee received, not the fee)",
    "0.1",
  ),
  refundable: decimal("What can still be refunded after this refund"),
  warning: z.string().nullable().meta({ description: "The refund's warning (an address other than the payer's, a contract), or null" }),
});

export const preparedRefundSchema = z
  .object({
    refund: refundSchema,
    transactions: z.array(txSchema).meta({
      description:
        "Send in order from the wallet: approvals when its allowance is short, then ERC20FeeProxy.transferFromWithReferenceAndFee(token, to, amount, refundReference, 0, 0x0)",
    }),
    metadata: refundMetadataSchema,
  })
  .meta({ id: "PreparedRefund" });

export const refundListSchema = z
  .object({
    ...refundTotalsShape,
    feeKept: decimal("The fee of the request's payments, kept by the fee address (not refunded)", "0"),
  })
  .meta({ id: "RequestRefunds" });

export const getRefundResponseSchema = z.object({
  refund: refundSchema,
  transactions: z.array(txSchema).meta({ description: "While the refund is prepared: the transactions that send it; else empty" }),
  metadata: payMetadataSchema.omit({ conversion: true }).nullable(),
});
