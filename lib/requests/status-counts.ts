import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { RequestKind, RequestStatus } from "@/lib/generated/prisma/enums";

/**
 * How many requests an account has per kind and status, read without counting its requests (issue 33:
 * the dashboard overview read every one of them, 1 030 980 rows at 10^6). Postgres keeps the numbers:
 * triggers on PaymentRequest (migration 20261202070000_request_status_counts) append +1/-1 rows to
 * RequestStatusDelta for every insert, delete and change of kind, status or account, whichever code wrote
 * it. Writers never update a shared counter, so parallel payments of one account never wait on each other.
 *
 * `requestStatusCounts` reads the folded counts plus the account's rows not yet folded in ONE statement
 * (one snapshot: a fold commits atomically, so the read sees it wholly or not at all). It is exact whether
 * the fold has run or not; the fold only keeps the unfolded part small.
 */
export type StatusCount = { kind: RequestKind; status: RequestStatus; count: number };

export async function requestStatusCounts(accountId: string): Promise<StatusCount[]> {
  const rows = await db().$queryRaw<{ kind: RequestKind; status: RequestStatus; count: bigint }[]>`
    SELECT "kind", "status", sum("n")::bigint AS count FROM (
      SELECT "kind", "status", "count" AS "n" FROM "RequestStatusCount" WHERE "accountId" = ${accountId}
      UNION ALL
      SELECT "kind", "status", "delta" AS "n" FROM "RequestStatusDelta" WHERE "accountId" = ${accountId}
    ) t GROUP BY 1, 2 HAVING sum("n") <> 0`;
  return rows.map((r) => ({ kind: r.kind, status: r.status, count: Number(r.count) }));
}

/** Appended rows folded per statement: one fold transaction stays short however far behind it is. */
export const FOLD_BATCH = 20_000;
/** Two folds at once would both be correct (each moves the rows it deleted); the lock just spares the work. */
const FOLD_LOCK = Prisma.sql`hashtext('duebill:request-status-fold')`;

/**
 * Moves appended rows into RequestStatusCount: each batch deletes up to FOLD_BATCH of the oldest rows and
 * adds their sums in the same statement, so a row is counted in exactly one place at every snapshot and a
 * crash mid-fold loses nothing (the statement's transaction rolls back whole). Rows of a deleted account
 * (its requests' -1 rows, written by its cascade) are dropped. Upserts go in key order, so two folds on
 * two instances could not deadlock even without the lock. Returns the rows folded.
 */
export async function foldRequestStatusCounts(): Promise<number> {
  let folded = 0;
  for (;;) {
    const moved = await db().$transaction(async (tx) => {
      const [lock] = await tx.$queryRaw<{ ok: boolean }[]>`SELECT pg_try_advisory_xact_lock(${FOLD_LOCK}) AS ok`;
      if (!lock?.ok) return 0;
      const [r] = await tx.$queryRaw<{ moved: bigint }[]>`
        WITH moved AS (
          DELETE FROM "RequestStatusDelta"
          WHERE "id" IN (SELECT "id" FROM "RequestStatusDelta" ORDER BY "id" LIMIT ${FOLD_BATCH})
          RETURNING "accountId", "kind", "status", "delta"
        ), summed AS (
          SELECT m."accountId", m."kind", m."status", sum(m."delta")::bigint AS n
          FROM moved m JOIN "Account" a ON a."id" = m."accountId"
          GROUP BY 1, 2, 3
        ), upserted AS (
          INSERT INTO "RequestStatusCount" ("accountId", "kind", "status", "count")
          SELECT "accountId", "kind", "status", n FROM summed ORDER BY 1, 2, 3
          ON CONFLICT ("accountId", "kind", "status") DO UPDATE SET "count" = "RequestStatusCount"."count" + EXCLUDED."count"
        )
        SELECT count(*) AS moved FROM moved`;
      return Number(r?.moved ?? 0);
    });
    folded += moved;
    if (moved < FOLD_BATCH) return folded;
  }
}
