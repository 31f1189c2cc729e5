import { z } from "zod";
import { dunningViewShape } from "@/lib/operations/dunning-schemas";
import { txSchema } from "@/lib/operations/requests-schemas";

const dateTime = z.string().meta({ format: "date-time" });

export const recurringIdParamsSchema = z.object({
  id: z.string().max(100).meta({ description: "The schedule's ID (a ULID) returned at creation" }),
});

export const activateBodySchema = z.strictObject({
  permitSignature: z
    .string()
    .max(8200)
    .regex(/^0x(?:[0-9a-fA-F]{2})+$/, "must be a 0x-prefixed hex signature")
    .meta({
      description:
        "The payer's EIP-712 signature of `recurringPaymentPermit` (65-byte EOA signature, or an ERC-1271 smart-account signature)",
    }),
});

export const manageBodySchema = z.strictObject({
  action: z.string().max(40).meta({ description: "`cancel` or `unpause`", example: "cancel" }),
});

export const recurrenceStoppedBodySchema = z.strictObject({
  isRecurrenceStopped: z.boolean().meta({
    description: "true stops the recurring request the request belongs to (or pauses its recurring payout); false resumes it",
  }),
});

const permitSchema = z.object({
  domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int(), verifyingContract: z.string() }),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.string(),
  values: z.record(z.string(), z.unknown()),
});

export const recurringCreatedSchema = z
  .object({
    id: z.string(),
    status: z.literal("pending"),
    recurringPaymentPermit: permitSchema,
    transactions: z.array(txSchema).meta({ description: "approve(contract, total) when the payer's allowance is short; empty otherwise" }),
    metadata: z.object({
      stepsRequired: z.number().int(),
      totalNeededAllowance: z.string(),
      currentAllowance: z.string(),
      additionalAllowanceNeeded: z.string(),
      existingPaymentsAmount: z.string(),
      perPaymentAmount: z.string(),
      dueDates: z.array(dateTime),
      requests: z.array(z.object({ requestId: z.string(), paymentReference: z.string() })),
    }),
  })
  .meta({ id: "RecurringPayoutCreated" });

export const activatedSchema = z
  .object({ message: z.string(), id: z.string(), status: z.literal("active") })
  .meta({ id: "RecurringActivated" });

const onChainCancelSchema = z
  .object({
    status: z.enum(["not_needed", "pending", "sent", "confirmed"]).meta({
      description:
        "`not_needed`: never activated, the relayer never held the signature; `pending`: cancelSchedule not sent yet or the last attempt failed (retried by the sweep); `sent`: broadcast, not yet seen mined; `confirmed`: the contract says cancelled, no payment can be triggered any more",
    }),
    txHash: z.string().nullable().meta({ description: "The relayer's latest cancelSchedule transaction" }),
    confirmedAt: dateTime.nullable(),
    attempts: z.number().int(),
    lastError: z.string().nullable().meta({ description: "Why the latest attempt failed (cleared once one succeeds)" }),
  })
  .meta({
    id: "RecurringOnChainCancel",
    description:
      "After a cancel: where the relayer's cancelSchedule on the contract stands. The cancel itself is final at once: no payment is sent after it.",
  });

export const scheduleSchema = z
  .object({
    id: z.string(),
    status: z.enum(["pending", "active", "past_due", "paused", "completed", "cancelled"]).meta({
      description:
        "past_due: active, retrying a missed payment (balance or allowance short) until the grace period ends, then paused with payment.failed",
    }),
    network: z.string(),
    paymentCurrency: z.string(),
    invoiceCurrency: z.string(),
    amount: z.string(),
    payer: z.string(),
    payee: z.string(),
    frequency: z.enum(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]),
    startDate: dateTime,
    totalPayments: z.number().int(),
    processedPayments: z.number().int(),
    lastPaymentDate: dateTime.nullable(),
    nextPaymentDate: dateTime.nullable(),
    deadline: dateTime,
    dueDates: z.array(dateTime),
    requests: z.array(z.object({ requestId: z.string(), paymentReference: z.string(), index: z.number().int().nullable() })),
    payments: z.array(
      z.object({ id: z.string(), index: z.number().int(), amount: z.string(), timestamp: dateTime, txHash: z.string().nullable() }),
    ),
    failureCode: z.string().optional(),
    failureReason: z.string().nullable().optional(),
    failureCount: z.number().int(),
    onChainCancel: onChainCancelSchema.nullable().optional(),
    ...dunningViewShape,
    createdAt: dateTime,
  })
  .meta({ id: "RecurringSchedule" });

export const manageResponseSchema = z
  .union([
    z.object({
      id: z.string(),
      status: z.literal("cancelled"),
      onChainCancel: onChainCancelSchema.nullable(),
      transactions: z.array(txSchema),
      metadata: z.object({
        remainingPayments: z.number().int(),
        remainingAmount: z.string(),
        processedPayments: z.number().int(),
        totalPayments: z.number().int(),
      }),
    }),
    z.object({
      id: z.string(),
      status: z.literal("active"),
      metadata: z.object({ processedPayments: z.number().int(), totalPayments: z.number().int(), nextPaymentDate: dateTime }),
    }),
  ])
  .meta({ id: "RecurringManaged" });

export const recurrenceStoppedSchema = z.object({
  requestId: z.string(),
  recurringPaymentId: z.string().meta({ description: "The recurring request's series, or the recurring payout" }),
  isRecurrenceStopped: z.boolean(),
  status: z.string().meta({ description: "A recurring request: stopped or active; a recurring payout: its status (paused, active)" }),
});
