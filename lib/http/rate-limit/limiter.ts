import { env } from "@/lib/env";
import type { RateTier } from "@/lib/generated/prisma/enums";
import { MemoryStore } from "@/lib/http/rate-limit/memory-store";
import { policyForTier } from "@/lib/http/rate-limit/policy";
import { RedisStore } from "@/lib/http/rate-limit/redis-store";
import type { RateLimitDecision, RateLimitStore } from "@/lib/http/rate-limit/token-bucket";
import { log } from "@/lib/log";

export type { RatePolicy } from "@/lib/http/rate-limit/policy";
export { policyForTier, rateLimitMultiplier } from "@/lib/http/rate-limit/policy";
export type { RateLimitDecision, RateLimitStore } from "@/lib/http/rate-limit/token-bucket";

/**
 * The API's rate limiter: a token bucket per (credential, client IP) with burst = rate, a 5-minute
 * block after a sustained breach (policy.ts), Redis-backed when REDIS_URL is set so every instance
 * shares the counters, per-process memory otherwise.
 *
 * Failure mode: if Redis is unreachable or slow (> 500 ms), checks FAIL OPEN: the request is
 * allowed unchecked and a warning is logged (at most every 30 s). An outage of a counter store
 * must not take the payment API down; the cost is that limits are not enforced meanwhile.
 */

let store: RateLimitStore | undefined;

export function rateLimitStore(): RateLimitStore {
  if (!store) {
    const { REDIS_URL, SERVICE_NAME } = env();
    store = REDIS_URL ? new RedisStore({ url: REDIS_URL, prefix: `${SERVICE_NAME}:rl:`, onError: (err) => warnFailure("connection", err) }) : new MemoryStore();
  }
  return store;
}

/** Scope of a limit: one bucket per credential and client IP. */
export function rateLimitKey(credentialId: string, clientIp: string): string {
  return `${credentialId}|${clientIp}`;
}

/**
 * Checks and counts one request at `Date.now()`. Relaxed (client-ID management) endpoints use a
 * separate bucket, so their larger allowance cannot be spent on the rest of the API and a block
 * on one does not carry over to the other.
 */
export async function checkRateLimit(key: string, tier: RateTier, opts: { relaxed?: boolean } = {}): Promise<RateLimitDecision> {
  const policy = policyForTier(tier, opts);
  try {
    return await rateLimitStore().check(opts.relaxed ? `${key}|relaxed` : key, policy, Date.now());
  } catch (err) {
    warnFailure("check", err);
    return { allowed: true, limit: policy.burst, remaining: policy.burst, resetSeconds: 0, retryAfterSeconds: 0, blocked: false, failedOpen: true };
  }
}

/**
 * Response headers (draft-ietf-httpapi-ratelimit-headers, the RateLimit-Limit/-Remaining/-Reset
 * form). Limit: requests the client may send at once = its quota per 1-second window (burst =
 * rate). Remaining: whole requests left right now. Reset: delta-seconds until the quota is fully
 * available again (bucket full), including the rest of a block. Retry-After (only on a 429):
 * seconds ≥ 1 after which one request is allowed again. A failed-open check sends none, rather
 * than invent numbers.
 */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  if (decision.failedOpen) return {};
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(decision.limit),
    "RateLimit-Remaining": String(decision.remaining),
    "RateLimit-Reset": String(decision.resetSeconds),
  };
  if (!decision.allowed) headers["Retry-After"] = String(Math.max(1, decision.retryAfterSeconds));
  return headers;
}

const WARN_EVERY_MS = 30_000;
let lastWarnAt = 0;
let suppressed = 0;

/** A down Redis fails every request; one line per 30 s says so without flooding the log. */
function warnFailure(kind: "check" | "connection", err: unknown): void {
  const now = Date.now();
  if (now - lastWarnAt < WARN_EVERY_MS) {
    suppressed++;
    return;
  }
  log.warn("rate limiter unavailable: requests are allowed unchecked (fail open)", { kind, err, suppressed });
  lastWarnAt = now;
  suppressed = 0;
}

/** Drops the singleton (closing its connection) so the next call reads the environment again. */
export async function resetRateLimitStoreForTests(): Promise<void> {
  const s = store;
  store = undefined;
  lastWarnAt = 0;
  suppressed = 0;
  await s?.close?.();
}
