import { z } from "zod";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";

/**
 * Dunning policy (issue 32): when a recurring payment would fail, the look-ahead warns
 * `reminderLeadTimes` seconds before its due time; when it does fail, it is retried after each of
 * `retryIntervals` (seconds, from the previous attempt; the last interval repeats) until
 * `graceSeconds` after the first failed attempt, then the schedule pauses with payment.failed.
 * The default is Loop's shape: every few minutes at first, then backing off to daily, over 7 days.
 */
export interface DunningPolicy {
  retryIntervals: number[];
  graceSeconds: number;
  reminderLeadTimes: number[];
}

const MIN = 60;
const HOUR = 3_600;
const DAY = 86_400;

export const DEFAULT_POLICY: DunningPolicy = {
  retryIntervals: [5 * MIN, 15 * MIN, 30 * MIN, HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR, 12 * HOUR, DAY],
  graceSeconds: 7 * DAY,
  reminderLeadTimes: [3 * DAY, DAY],
};

/** The longest lead time accepted: the look-ahead's window (lookahead.ts) is bounded by it. */
export const MAX_LEAD_SECONDS = 30 * DAY;
export const MAX_GRACE_SECONDS = 30 * DAY;

const seconds = (min: number, max: number) => z.number().int().min(min).max(max);

/** A partial policy, as the API takes it (per account or per schedule); unknown fields rejected. */
export const dunningPolicyInput = z
  .object({
    retryIntervals: z
      .array(seconds(MIN, 7 * DAY))
      .min(1)
      .max(50)
      .refine((xs) => xs.every((x, i) => i === 0 || x >= xs[i - 1]!), "must not decrease (retries back off)")
      .optional()
      .meta({
        description:
          "Seconds between retries of a missed payment, from the previous attempt; the last one repeats (60 to 604800 each, non-decreasing, 1 to 50 of them)",
        example: [300, 3600, 86400],
      }),
    graceSeconds: seconds(0, MAX_GRACE_SECONDS).optional().meta({
      description:
        "Seconds after the first failed attempt during which the schedule is past_due and retried (0 to 2592000); then it pauses",
      example: 604800,
    }),
    reminderLeadTimes: z
      .array(seconds(MIN, MAX_LEAD_SECONDS))
      .max(5)
      .refine((xs) => new Set(xs).size === xs.length, "must not repeat a lead time")
      .optional()
      .meta({
        description:
          "Seconds before each due time when the payer's balance, allowance and the relayer's gas are checked (60 to 2592000 each, up to 5; [] for no reminders)",
        example: [259200, 86400],
      }),
  })
  .strict();
export type DunningPolicyInput = z.infer<typeof dunningPolicyInput>;

/** Validates a body part named `field` (400 naming `field.sub`), never a 500. */
export function parsePolicy(value: unknown, field: string): DunningPolicyInput {
  const r = dunningPolicyInput.safeParse(value);
  if (r.success) return r.data;
  const errors = r.error.issues.map((i) => ({
    field: [field, ...i.path.filter((p) => typeof p !== "number").map(String)].join("."),
    message: i.code === "unrecognized_keys" ? `unknown field(s): ${i.keys.join(", ")}` : i.message,
  }));
  throw new AppError("validation_failed", "Validation failed", { errors });
}

/** The policy in force: the schedule's parts, else the account's, else the default. */
export function mergePolicy(account: Partial<DunningPolicy> | null, schedule: DunningPolicyInput | null): DunningPolicy {
  return {
    retryIntervals: schedule?.retryIntervals ?? account?.retryIntervals ?? DEFAULT_POLICY.retryIntervals,
    graceSeconds: schedule?.graceSeconds ?? account?.graceSeconds ?? DEFAULT_POLICY.graceSeconds,
    reminderLeadTimes: schedule?.reminderLeadTimes ?? account?.reminderLeadTimes ?? DEFAULT_POLICY.reminderLeadTimes,
  };
}

export async function accountPolicy(accountId: string): Promise<DunningPolicy> {
  const row = await db().dunningSettings.findUnique({ where: { accountId } });
  return mergePolicy(row, null);
}

/** A schedule's policy from its stored override (already validated when it was set). */
export async function schedulePolicy(s: { accountId: string; dunningPolicy: unknown }): Promise<DunningPolicy> {
  const row = await db().dunningSettings.findUnique({ where: { accountId: s.accountId } });
  return mergePolicy(row, (s.dunningPolicy as DunningPolicyInput | null) ?? null);
}

/** Sets the account's defaults (the parts given; the rest keep their value). */
export async function setAccountPolicy(accountId: string, input: DunningPolicyInput): Promise<DunningPolicy> {
  const merged = mergePolicy(await accountPolicy(accountId), input);
  await db().dunningSettings.upsert({ where: { accountId }, create: { accountId, ...merged }, update: merged });
  return merged;
}

/**
 * The chain time of the retry after one at `at`, of a payment first failed at `since`: the
 * intervals summed from `since`, the last one repeating, the first such time after `at`; capped at
 * the end of the grace period (one last attempt exactly then). Null when `at` is at or past it.
 */
export function nextRetryAt(policy: DunningPolicy, since: number, at: number): number | null {
  const end = since + policy.graceSeconds;
  if (at >= end) return null;
  let t = since;
  for (let i = 0; t <= at; i++) t += policy.retryIntervals[Math.min(i, policy.retryIntervals.length - 1)]!;
  return Math.min(t, end);
}
