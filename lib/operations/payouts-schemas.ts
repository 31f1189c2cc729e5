import { z } from "zod";
import { customerInfoSchema, payMetadataSchema, txSchema } from "@/lib/operations/requests-schemas";

const address = z.string().min(1).max(100);

export const createPayoutBodySchema = z.strictObject({
  payee: address.meta({ description: "Receiving address: EVM 0x... or Tron T..." }),
  amount: z.string().max(80).meta({ description: "Decimal string in the invoice currency", example: "25.50" }),
  invoiceCurrency: z.string().min(1).max(96).meta({ example: "USD" }),
  paymentCurrency: z.string().min(1).max(96).meta({ example: "USDC-base" }),
  feePercentage: z.string().max(20).optional(),
  feeAddress: address.optional(),
  payerWallet: address.optional().meta({ description: "Payer wallet: its allowance decides whether an approval is returned" }),
  payerAddress: address.optional().meta({ description: "Alias of payerWallet" }),
  recurrence: z
    .strictObject({
      startDate: z.string(),
      frequency: z.enum(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]),
      totalPayments: z.number().int(),
      payer: address,
    })
    .optional(),
  customerInfo: customerInfoSchema.optional(),
  reference: z.string().min(1).max(255).optional(),
});

export const payoutResponseSchema = z
  .object({ requestId: z.string(), paymentReference: z.string(), transactions: z.array(txSchema), metadata: payMetadataSchema })
  .meta({ id: "PayoutResponse" });

const batchItemSchema = z.strictObject({
  payee: address,
  amount: z.string().max(80),
  invoiceCurrency: z.string().min(1).max(96),
  paymentCurrency: z.string().min(1).max(96),
});

export const createBatchPayoutBodySchema = z.strictObject({
  requests: z.array(batchItemSchema).min(1).max(200).optional().meta({ description: "New payouts, all on one EVM network" }),
  requestIds: z
    .array(z.string().max(100))
    .min(1)
    .max(200)
    .optional()
    .meta({ description: "Existing unpaid requests of this account, all on one EVM network" }),
  payer: address.optional(),
  feePercentage: z.string().max(20).optional(),
  feeAddress: address.optional(),
});

export const batchPayoutResponseSchema = z
  .object({
    requestIds: z.array(z.string()),
    ERC20ApprovalTransactions: z.array(
      z.object({
        data: z.string(),
        to: z.string(),
        value: z.literal(0).meta({ description: "Always 0 for ERC-20 approvals (a number, as in the reference)" }),
      }),
    ),
    ERC20BatchPaymentTransaction: txSchema,
    batchPaymentTransaction: txSchema.meta({ description: "Same transaction as ERC20BatchPaymentTransaction" }),
    metadata: payMetadataSchema,
  })
  .meta({ id: "BatchPayoutResponse" });

export type CreatePayoutBody = z.infer<typeof createPayoutBodySchema>;
export type CreateBatchPayoutBody = z.infer<typeof createBatchPayoutBodySchema>;
