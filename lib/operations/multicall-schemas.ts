import { z } from "zod";
import { feePlanSchema } from "@/lib/operations/secure-payments-schemas";

/** The reference's multicall payout shapes (docs/spec/reference-notes.md §1.6; the OpenAPI's multicall variants). */
const childToken = z.string().min(1).max(64);

export const multicallBodySchema = z.strictObject({
  childTokens: z.array(childToken).min(2).max(1000).meta({
    description:
      "Pending single payout links of the account, in order (at most 150 are accepted: the cap failure says by how many to reduce)",
  }),
  requestedExecutionKind: z
    .enum(["evm_same_chain", "evm_cross_chain", "tron_batch"])
    .optional()
    .meta({ description: "Only evm_same_chain is supported: the children are paid on their EVM network in one transaction" }),
});

export const multicallCreatedSchema = z.object({
  type: z.literal("multicall"),
  token: z.string(),
  securePaymentUrl: z.string(),
  status: z.enum(["pending", "expired"]),
  expiresAt: z.string(),
  createdAt: z.string(),
  items: z.array(
    z.object({
      securePaymentToken: z.string(),
      requestId: z.string(),
      position: z.number().int(),
      eligibility: z.enum(["eligible", "stale"]),
    }),
  ),
});

/** Token amounts of a payment and its fees (the reference's amountSummary), human decimals. */
export const amountSummarySchema = z.object({
  grossAmount: z.string(),
  netRecipientAmount: z.string(),
  totalFees: z.string(),
  payeeBorneFees: z.string(),
  payerBorneFees: z.string(),
  payerTotal: z.string(),
});

const blockReason = z.enum([
  "not_found",
  "not_owned",
  "not_outgoing",
  "not_single_payment",
  "invalid_child_linkage",
  "already_paid",
  "request_processing",
  "secure_payment_expired",
  "secure_payment_not_pending",
  "compliance_failed",
  "not_payable_child",
]);

export const multicallViewSchema = z
  .object({
    paymentType: z.literal("multicall"),
    status: z.enum(["pending", "expired", "completed", "partially_settled"]),
    redirectUrl: z.string().nullable(),
    redirectLabel: z.string().nullable(),
    orchestratorId: z.string().nullable(),
    branding: z.record(z.string(), z.unknown()).nullable(),
    analytics: z.object({
      creationTimestamp: z.string(),
      numberOfPaymentsExcludingFees: z.number().int(),
      destinationIds: z.array(z.string()),
    }),
    requestIds: z.array(z.string()),
    token: z.string(),
    network: z.string(),
    canExecute: z.boolean(),
    expiresAt: z.string(),
    createdAt: z.string(),
    children: z.array(
      z.object({
        securePaymentToken: z.string(),
        requestId: z.string(),
        position: z.number().int(),
        executable: z.boolean(),
        blockReason: blockReason.nullable(),
        messageKey: z.string().nullable(),
        context: z.record(z.string(), z.unknown()),
        recoveryAction: z.enum(["remove_child"]).nullable(),
        feePlan: feePlanSchema.nullable(),
        amount: z.string().nullable(),
        payee: z.string().nullable(),
        reference: z.string().nullable(),
      }),
    ),
    totals: z.object({
      childCount: z.number().int(),
      blockedChildCount: z.number().int(),
      byDestinationCurrency: z.array(z.object({ network: z.string(), currency: z.string(), totalAmount: z.string() })),
      amountSummary: amountSummarySchema,
    }),
  })
  .meta({ id: "MulticallPayout" });
