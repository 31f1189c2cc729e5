import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";

/**
 * The stored side of `Idempotency-Key`: one row per (account, credential, method, path, key)
 * hash, holding the request's hash and, once it succeeded, its response. HTTP handling lives
 * in lib/http/idempotency.ts; the expiry sweep purges through here.
 */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export async function purgeExpiredIdempotencyKeys(): Promise<number> {
  const { count } = await db().idempotencyRecord.deleteMany({ where: { createdAt: { lt: new Date(nowMs() - IDEMPOTENCY_TTL_MS) } } });
  return count;
}
