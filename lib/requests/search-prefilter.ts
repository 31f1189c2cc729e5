import { db } from "@/lib/db";

/**
 * Payment search at scale (issue 33's search curve): what lets GET /v2/payments read the payments it
 * finds rather than every payment of the account.
 *
 * A wallet or transaction-hash filter is case-insensitive (Prisma's `ILIKE`, which no b-tree index
 * serves): the account's payments were all read to find one wallet's. candidateIdsOf looks the value up
 * through the (accountId, lower(column)) indexes (prisma/migrations/20261201050000_payment_search_indexes)
 * and returns the ids of every payment that can match — a superset, since `lower(a) = lower(b)` holds
 * whenever `a ILIKE b` does for a value without LIKE's wildcards (`%`, `_`, `\`), so the search keeps its
 * own filter and adds `id IN (…)`. Past CANDIDATES matches (a merchant's own payee address matches all of
 * its payments) it returns null and the search runs as written: its cost is then that of the matches.
 */
export const CANDIDATES = 1000;

const WILDCARDS = /[%_\\]/;

export async function candidateIdsOf(accountId: string, q: { walletAddress?: string; txHash?: string }): Promise<string[] | null> {
  const wallet = q.walletAddress && !WILDCARDS.test(q.walletAddress) ? q.walletAddress.toLowerCase() : undefined;
  const tx = q.txHash && !WILDCARDS.test(q.txHash) ? q.txHash.toLowerCase() : undefined;
  if (wallet === undefined && tx === undefined) return null;
  // Each arm reads one index; UNION dedupes the payments where the wallet is both payer and payee.
  const rows =
    wallet !== undefined && tx !== undefined
      ? await db().$queryRaw<{ id: string }[]>`
          SELECT "id" FROM "Payment" WHERE "accountId" = ${accountId} AND lower("txHash") = ${tx}
            AND (lower("payer") = ${wallet} OR lower("payee") = ${wallet}) LIMIT ${CANDIDATES + 1}`
      : wallet !== undefined
        ? await db().$queryRaw<{ id: string }[]>`
            (SELECT "id" FROM "Payment" WHERE "accountId" = ${accountId} AND lower("payer") = ${wallet} LIMIT ${CANDIDATES + 1})
            UNION
            (SELECT "id" FROM "Payment" WHERE "accountId" = ${accountId} AND lower("payee") = ${wallet} LIMIT ${CANDIDATES + 1})`
        : await db().$queryRaw<{ id: string }[]>`
            SELECT "id" FROM "Payment" WHERE "accountId" = ${accountId} AND lower("txHash") = ${tx} LIMIT ${CANDIDATES + 1}`;
  return rows.length > CANDIDATES ? null : rows.map((r) => r.id);
}
