import type { RatePolicy } from "@/lib/http/rate-limit/policy";

/**
 * Token bucket with burst = capacity, in exact integer arithmetic.
 *
 * Tokens are counted in milli-tokens: one request costs 1000 and the bucket gains `rate`
 * milli-tokens per millisecond (= `rate` requests per second). Rates such as 3/s or 80/s do
 * not divide 1000 ms, so a GCRA emission interval in whole ms would have to be rounded (making
 * the limiter either leaky or stricter than documented); milli-tokens keep every value an exact
 * integer, far below 2^53, in JavaScript and in Redis Lua (doubles) alike. Hence, for any
 * arrival pattern, accepted requests in t ms ≤ burst + rate·t/1000, and a client sending evenly
 * spaced at ≤ rate/s is never limited.
 *
 * This file is the reference implementation: the memory store runs `step` directly and the
 * Redis store runs the same transition as a Lua script (redis-store.ts), checked against each
 * other by the tests. `decide` (state → decision/headers) is shared by both.
 *
 * Timestamps are integer epoch milliseconds ≥ 0 supplied by the caller (injected clock).
 */

export interface RateLimitDecision {
  allowed: boolean;
  /** Requests available at once when the bucket is full (= requests per 1-second window). */
  limit: number;
  /** Whole requests still available right after this one. */
  remaining: number;
  /** Seconds until the bucket is full again (the quota is fully available); 0 if already full. */
  resetSeconds: number;
  /** 0 when allowed; otherwise whole seconds ≥ 1 after which one request is allowed again. */
  retryAfterSeconds: number;
  /** Denied because of (or while starting) a sustained-breach block. */
  blocked: boolean;
  /** The store failed and the request was let through unchecked (see index.ts). */
  failedOpen?: boolean;
}

export interface RateLimitStore {
  check(key: string, policy: RatePolicy, nowMs: number): Promise<RateLimitDecision>;
  close?(): Promise<void>;
}

export interface BucketState {
  /** Milli-tokens in the bucket as of `ts`. */
  tokens: number;
  /** When `tokens` was computed; during a block, the end of the block (refill starts there). */
  ts: number;
  /** Start of the current rejection run, -1 for none. */
  runStart: number;
  /** Last rejection of the current run, -1 for none. */
  lastReject: number;
  /** End of the block, 0 for none. */
  blockedUntil: number;
  /** When this state becomes equivalent to no state at all (full bucket, no run, no block). */
  expiresAt: number;
}

export interface StepResult {
  allowed: boolean;
  blocked: boolean;
  /** The new state; the very same object as `prev` when nothing changed (a blocked request). */
  state: BucketState;
}

export const MILLI = 1000;

/** Equivalent of a missing key: a full bucket. */
export function freshState(policy: RatePolicy, now: number): BucketState {
  return { tokens: policy.burst * MILLI, ts: now, runStart: -1, lastReject: -1, blockedUntil: 0, expiresAt: now };
}

/** One request at `now`. Pure: never mutates `prev`. */
export function step(prev: BucketState | undefined, policy: RatePolicy, now: number): StepResult {
  const cur = prev && prev.expiresAt > now ? prev : freshState(policy, now);
  // During a block, requests are refused without touching the state, so hammering a blocked
  // pair neither extends nor shortens the block, and costs no write in Redis.
  if (now < cur.blockedUntil) return { allowed: false, blocked: true, state: cur };

  const cap = policy.burst * MILLI;
  // now < ts happens after a block (ts = block end) or with clock skew between instances;
  // clamping avoids a negative refill and keeping the later ts avoids refilling twice.
  const elapsed = Math.max(0, now - cur.ts);
  let tokens = Math.min(cap, cur.tokens + elapsed * policy.rate);
  let ts = Math.max(cur.ts, now);
  let { runStart, lastReject, blockedUntil } = cur;
  let allowed = false;
  let blocked = false;

  if (tokens >= MILLI) {
    tokens -= MILLI;
    allowed = true;
  } else {
    if (lastReject < 0 || now - lastReject >= policy.breach.gapMs) runStart = now;
    lastReject = now;
    if (now - runStart >= policy.breach.windowMs) {
      // Sustained breach: block, and start the refill from an empty bucket at the block's end,
      // so the first request is allowed one refill interval (1000/rate ms) after the block.
      blocked = true;
      blockedUntil = now + policy.blockMs;
      tokens = 0;
      ts = blockedUntil;
      runStart = -1;
      lastReject = -1;
    }
  }
  return { allowed, blocked, state: { tokens, ts, runStart, lastReject, blockedUntil, expiresAt: expiryOf(tokens, ts, lastReject, policy) } };
}

/** When the state stops mattering: the bucket is full again and the rejection run cannot continue. */
export function expiryOf(tokens: number, ts: number, lastReject: number, policy: RatePolicy): number {
  const fullAt = ts + Math.ceil((policy.burst * MILLI - tokens) / policy.rate);
  return lastReject < 0 ? fullAt : Math.max(fullAt, lastReject + policy.breach.gapMs);
}

/** Decision and header values from the state after a request; identical for both stores. */
export function decide(allowed: boolean, blocked: boolean, tokens: number, ts: number, policy: RatePolicy, now: number): RateLimitDecision {
  const ahead = Math.max(0, ts - now); // time before refill starts (the rest of a block)
  const resetSeconds = Math.ceil((ahead + Math.ceil((policy.burst * MILLI - tokens) / policy.rate)) / 1000);
  // ceil keeps the promise: a retry exactly Retry-After seconds later finds ≥ 1 token.
  const retryAfterSeconds = allowed ? 0 : Math.max(1, Math.ceil((ahead + Math.ceil((MILLI - tokens) / policy.rate)) / 1000));
  return { allowed, limit: policy.burst, remaining: Math.floor(tokens / MILLI), resetSeconds, retryAfterSeconds, blocked };
}
