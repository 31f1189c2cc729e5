import { env } from "@/lib/env";
import type { RateTier } from "@/lib/generated/prisma/enums";

/** What a rate limit allows (whole numbers; see limiter.ts for how it is counted). */
export interface RatePolicy {
  /** Requests per 1-second window (integer ≥ 1); also the most that may be sent at once. */
  rate: number;
  /**
   * Sustained-breach rule. A window is *breaching* when the client sends again after a 429 in
   * the same window, i.e. without waiting the Retry-After (1 s) it was given. More than
   * `windows` breaching windows within `withinSeconds` is a sustained breach and starts the block.
   *
   * With windows = 10 and withinSeconds = 15: a client that keeps sending over its limit while
   * ignoring 429s is blocked ~10 s into the breach (the 11th breaching second). A brief burst,
   * however large, makes one breaching window. A client that waits Retry-After after each 429,
   * or sends at most rate + 1 requests per second, gets at most one 429 per window and is
   * throttled by the 429s alone, never blocked.
   */
  breach: { windows: number; withinSeconds: number };
  /** How long a sustained breach blocks the (credential, IP) pair, in ms (whole seconds). */
  blockMs: number;
}

/** Requests per second of each tier in production (×60 per minute: basic 120/min, default 300/min). */
export const TIER_RATES: Readonly<Record<RateTier, number>> = { basic: 2, default: 5, premium: 10, high_volume: 20 };

/** Client-ID management endpoints: a console or script creating/rotating IDs may legitimately burst more. */
export const RELAXED_FACTOR = 4;

export const BREACH_WINDOWS = 10;
export const BREACH_WITHIN_SECONDS = 15;
export const BLOCK_MS = 300_000;

/**
 * Every limit is multiplied by this: `RATE_LIMIT_MULTIPLIER` when set, else 1 in production and
 * 10 elsewhere (development, test, benchmarks and demos must not trip production limits).
 */
export function rateLimitMultiplier(): number {
  const e = env();
  return e.RATE_LIMIT_MULTIPLIER ?? (e.NODE_ENV === "production" ? 1 : 10);
}

/**
 * The policy of a credential's tier. The rate is rounded down to an integer (never below 1/s) so
 * a fractional multiplier cannot make the limit more generous than documented.
 */
export function policyForTier(tier: RateTier, opts: { relaxed?: boolean; multiplier?: number } = {}): RatePolicy {
  const multiplier = opts.multiplier ?? rateLimitMultiplier();
  const rate = Math.max(1, Math.floor(TIER_RATES[tier] * multiplier * (opts.relaxed ? RELAXED_FACTOR : 1)));
  return { rate, breach: { windows: BREACH_WINDOWS, withinSeconds: BREACH_WITHIN_SECONDS }, blockMs: BLOCK_MS };
}
