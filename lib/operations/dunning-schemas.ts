import { z } from "zod";
import { dunningPolicyInput } from "@/lib/recurring/dunning-policy";

/** Dunning (issue 32): the policy, and what GET /v2/payouts/recurring/{id} adds about retries and warnings. */
const dateTime = z.string().meta({ format: "date-time" });

export const dunningPolicySchema = z
  .object({
    retryIntervals: z.array(z.number().int()).meta({ description: "Seconds between retries of a missed payment (the last repeats)" }),
    graceSeconds: z.number().int().meta({ description: "Seconds after the first failed attempt before the schedule pauses" }),
    reminderLeadTimes: z.array(z.number().int()).meta({ description: "Seconds before each due time when the look-ahead checks the payer" }),
  })
  .meta({ id: "DunningPolicy" });

/** A partial policy (PUT bodies): the parts given replace those in force; unknown fields are a 400. */
export const dunningPolicyBodySchema = dunningPolicyInput.meta({ id: "DunningPolicyInput" });

export const dunningViewShape = {
  nextRetryDate: dateTime.nullable().meta({ description: "While past_due: when the missed payment is tried again (chain time)" }),
  pastDue: z
    .object({ paymentIndex: z.number().int(), since: dateTime, gracePeriodEndsAt: dateTime })
    .nullable()
    .meta({ description: "The payment being retried, its first failed attempt and when the grace period ends" }),
  attempts: z.array(
    z.object({
      paymentIndex: z.number().int(),
      attempt: z.number().int(),
      timestamp: dateTime,
      reason: z.string().meta({ description: "insufficient_balance or insufficient_allowance" }),
      amountMissing: z.string().nullable(),
      nextRetryDate: dateTime.nullable(),
    }),
  ),
  upcomingFailures: z.array(
    z.object({
      paymentIndex: z.number().int(),
      reason: z.enum(["insufficient_balance", "insufficient_allowance", "permit_expiring", "relayer_unfunded"]),
      amountMissing: z.string(),
      dueDate: dateTime,
      leadTimeSeconds: z.number().int(),
      createdAt: dateTime,
    }),
  ),
  dunningPolicy: dunningPolicySchema,
  payerUrl: z.string().nullable().meta({ description: "The payer's hosted page for this schedule (linked from every reminder)" }),
};

export const schedulePolicyResponseSchema = z.object({ id: z.string(), dunningPolicy: dunningPolicySchema });
