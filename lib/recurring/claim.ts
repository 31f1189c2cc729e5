import { db } from "@/lib/db";
import type { RecurringPaymentStatus, RecurringScheduleStatus } from "@/lib/generated/prisma/client";
import type { ChainSchedule } from "@/lib/recurring/chain";

/** A claimed schedule, as the executor reads it: the chain's view plus the sweep's state. */
export interface ClaimedSchedule extends ChainSchedule {
  status: RecurringScheduleStatus;
  processedPayments: number;
  leaseUntil: Date;
  accountId: string;
  clientId: string | null;
  paymentCurrency: string;
  failureCount: number;
  /** Dunning (dunning-retry.ts): the schedule's own policy, and the payment it is past due on. */
  dunningPolicy: unknown;
  pastDueIndex: number | null;
  pastDueSince: Date | null;
}

export interface PaymentRow {
  id: string;
  index: number;
  status: RecurringPaymentStatus;
  txHash: string | null;
  txNonce: number | null;
  sentAt: Date | null;
}

/**
 * Claims up to `limit` active schedules whose next payment is due at `chainTime` (the latest
 * block's time) and that no other sweep holds: FOR UPDATE SKIP LOCKED makes concurrent claims
 * disjoint, the lease keeps the row away from other sweeps after this statement commits, and an
 * expired lease (a crashed sweep) lets the next sweep take over.
 */
export async function claimDueSchedules(
  network: string,
  chainTime: Date,
  now: Date,
  leaseMs: number,
  limit: number,
  exclude: readonly string[] = [],
): Promise<ClaimedSchedule[]> {
  const leaseUntil = new Date(now.getTime() + leaseMs);
  return db().$queryRaw<ClaimedSchedule[]>`
    UPDATE "RecurringSchedule" SET "leaseUntil" = ${leaseUntil}
    WHERE "id" IN (
      SELECT "id" FROM "RecurringSchedule"
      WHERE "status" = 'active' AND "network" = ${network} AND "nextDueAt" <= ${chainTime} AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})
        AND NOT ("id" = ANY(${exclude as string[]}::text[]))
      ORDER BY "nextDueAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING "id", "network", "token", "payer", "payee", "amount"::text AS "amount", "feeAmount"::text AS "feeAmount",
      "feeAddress", "totalPayments", "dueTimes", "deadline", "nonce", "scheduleId", "permitSignature", "status"::text AS "status",
      "processedPayments", "leaseUntil", "accountId", "clientId", "paymentCurrency", "failureCount",
      "dunningPolicy", "pastDueIndex", "pastDueSince"`;
}

/** Gives a claimed schedule back (only while this sweep's lease is the one on it). */
export async function releaseLease(id: string, leaseUntil: Date): Promise<void> {
  await db().recurringSchedule.updateMany({ where: { id, leaseUntil }, data: { leaseUntil: null } });
}
