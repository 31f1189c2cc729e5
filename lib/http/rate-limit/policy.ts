import { env } from "@/lib/env";
import type { RateTier } from "@/lib/generated/prisma/enums";

/**
 * What a rate limit allows. All quantities are integers so the algorithm can work in exact
 * integer arithmetic (milli-tokens and milliseconds; see token-bucket.ts).
 */
export interface RatePolicy {
  /** Sustained requests per second (integer ≥ 1). */
  rate: number;
  /** Requests that may be sent at once: the bucket capacity. Always equal to `rate`. */
  burst: number;
  /**
   * Sustained-breach rule. A *rejection run* starts at a rejected request and goes on while each
   * further rejection comes less than `gapMs` after the previous one (accepted requests in
   * between neither end nor extend it). A rejection that arrives `windowMs` or more after the
   * start of its run is a sustained breach: it is refused and starts the block.
   *
   * With gapMs = 1000 and windowMs = 10000: "rejected again within 1 s of every rejection, for
   * 10 s". A brief burst, however large, produces rejections at one instant (or for as long as it
   * lasts) and never spans 10 s. A client that keeps sending over its rate while ignoring 429s
   * (retries at once, or keeps sending more than rate + 1 requests/s, i.e. draws more than one
   * rejection per second) is blocked 10–15 s into the breach; one only slightly over (≤ rate + 1
   * per second) is throttled by the 429s alone.
   * A client that, after a 429, waits Retry-After (≥ 1 s) before its next request is never
   * blocked: its rejections are ≥ 1 s apart, so every run ends at its first rejection.
   */
  breach: { windowMs: number; gapMs: number };
  /** How long a sustained breach blocks the (credential, IP) pair, in ms. */
  blockMs: number;
}

/** Requests per second of each tier in production (×60 per minute: basic 120/min, default 300/min). */
export const TIER_RATES: Readonly<Record<RateTier, number>> = { basic: 2, default: 5, premium: 10, high_volume: 20 };

/** Client-ID management endpoints: a console or script creating/rotating IDs may legitimately burst more. */
export const RELAXED_FACTOR = 4;

export const BREACH_WINDOW_MS = 10_000;
export const BREACH_GAP_MS = 1_000;
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
  return { rate, burst: rate, breach: { windowMs: BREACH_WINDOW_MS, gapMs: BREACH_GAP_MS }, blockMs: BLOCK_MS };
}
