import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * How many requests, payouts and payment links an account has per status, read without counting its rows
 * (issue 33: the dashboard overview read every request, 1 030 980 rows at 10^6). Postgres keeps the
 * numbers: triggers on PaymentRequest and SecurePayment (migration 20261202070000_status_counts) append
 * +1/-1 rows to StatusCountDelta for every insert, delete and change of status (kind, account), whichever
 * code wrote it. Writers never update a shared counter, so parallel payments of one account never wait
 * on each other.
 *
 * `statusCounts` reads the folded counts plus the account's rows not yet folded in ONE statement (one
 * snapshot: a fold commits atomically, so the read sees it wholly or not at all). It is exact whether the
 * fold has run or not; the fold only keeps the unfolded part small.
 *
 * `request`/`payout`: a PaymentRequest of that kind; `link`: a SecurePayment.
 */
export type CountSubject = "request" | "payout" | "link";
export type StatusCounts = { count(subject: CountSubject, status: string): number };

export async function statusCounts(accountId: string): Promise<StatusCounts> {
  const rows = await db().$queryRaw<{ subject: string; status: string; n: bigint }[]>`
    SELECT "subject", "status", sum("n")::bigint AS n FROM (
      SELECT "subject", "status", "count" AS "n" FROM "StatusCount" WHERE "accountId" = ${accountId}
      UNION ALL
      SELECT "subject", "status", "delta" AS "n" FROM "StatusCountDelta" WHERE "accountId" = ${accountId}
    ) t GROUP BY 1, 2`;
  const byKey = new Map(rows.map((r) => [`${r.subject}/${r.status}`, Number(r.n)]));
  return { count: (subject, status) => byKey.get(`${subject}/${status}`) ?? 0 };
}

/** Appended rows folded per statement: one fold transaction stays short however far behind it is. */
export const FOLD_BATCH = 20_000;
/** Two folds at once would both be correct (each moves the rows it deleted); the lock just spares the work. */
const FOLD_LOCK = Prisma.sql`hashtext('duebill:status-count-fold')`;

/**
 * Moves appended rows into StatusCount: each batch deletes up to FOLD_BATCH of the oldest rows and
 * adds their sums in the same statement, so a row is counted in exactly one place at every snapshot and a
 * crash mid-fold loses nothing (the statement's transaction rolls back whole). Rows of a deleted account
 * (its requests' -1 rows, written by its cascade) are dropped. Upserts go in key order, so two folds on
 * two instances could not deadlock even without the lock. Returns the rows folded.
 */
export async function foldStatusCounts(): Promise<number> {
  let folded = 0;
  for (;;) {
    const moved = await db().$transaction(async (tx) => {
      const [lock] = await tx.$queryRaw<{ ok: boolean }[]>`SELECT pg_try_advisory_xact_lock(${FOLD_LOCK}) AS ok`;
      if (!lock?.ok) return 0;
      const [r] = await tx.$queryRaw<{ moved: bigint }[]>`
        WITH moved AS (
          DELETE FROM "StatusCountDelta"
          WHERE "id" IN (SELECT "id" FROM "StatusCountDelta" ORDER BY "id" LIMIT ${FOLD_BATCH})
          RETURNING "accountId", "subject", "status", "delta"
        ), summed AS (
          SELECT m."accountId", m."subject", m."status", sum(m."delta")::bigint AS n
          FROM moved m JOIN "Account" a ON a."id" = m."accountId"
          GROUP BY 1, 2, 3
        ), upserted AS (
          INSERT INTO "StatusCount" ("accountId", "subject", "status", "count")
          SELECT "accountId", "subject", "status", n FROM summed ORDER BY 1, 2, 3
          ON CONFLICT ("accountId", "subject", "status") DO UPDATE SET "count" = "StatusCount"."count" + EXCLUDED."count"
        )
        SELECT count(*) AS moved FROM moved`;
      return Number(r?.moved ?? 0);
    });
    folded += moved;
    if (moved < FOLD_BATCH) return folded;
  }
}
