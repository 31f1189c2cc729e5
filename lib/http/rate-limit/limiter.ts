import Redis from "ioredis";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { env } from "@/lib/env";
import type { RateTier } from "@/lib/generated/prisma/enums";
import { policyForTier, type RatePolicy } from "@/lib/http/rate-limit/policy";
import { log } from "@/lib/log";

export type { RatePolicy } from "@/lib/http/rate-limit/policy";
export { policyForTier, rateLimitMultiplier } from "@/lib/http/rate-limit/policy";

/**
 * The API's rate limiter, on rate-limiter-flexible: per (credential, client IP), `rate` requests
 * per 1-second window, a 5-minute block after a sustained breach (policy.ts), in Redis when
 * REDIS_URL is set so every instance shares the counters, in per-process memory otherwise.
 *
 * Counting (what differs from the token bucket this replaced, and why): rate-limiter-flexible
 * counts in FIXED windows (a window opens at a key's first request and lasts 1 s; points =
 * rate). It has no token bucket; BurstyRateLimiter is two fixed windows too. So:
 * - Up to 2 × rate requests can pass within a few ms around a window boundary (token bucket:
 *   rate + rate·t/1000). Over any t ms at most rate · (1 + ⌈t/1000⌉) pass, so per minute the
 *   bound is the same as before: 61 × rate (default tier: 305 in any 60 s).
 * - After a 429 the whole quota returns when the window ends (≤ 1 s), not one request per
 *   1000/rate ms; Retry-After is therefore always 1 s outside a block.
 * - A client evenly spaced at ≤ rate/s, or one that waits Retry-After, is still never limited
 *   or blocked.
 *
 * Blocking: rate-limiter-flexible's `blockDuration` blocks on the first request over the limit,
 * which would turn every brief burst into a 5-minute block. Instead a second limiter (points =
 * breach.windows, duration = breach.withinSeconds) counts breaching windows, and when it
 * refuses, the pair's counter is `set` to BLOCKED for blockMs (library API, same storage and
 * TTL as blockDuration uses). Requests during the block increment that counter without touching
 * its expiry, so hammering neither extends nor shortens the block.
 *
 * Redis outage (fail soft): each Redis limiter has an `insuranceLimiter` (a RateLimiterMemory
 * with the same points and duration). While Redis is unreachable (rejectIfRedisNotReady: no
 * queueing) or slow (> 500 ms command timeout), requests are counted in this instance's memory:
 * limits still hold per instance (N instances let N × the limit through), nothing is refused for
 * the outage itself, and counters restart from Redis' state when it is back. Connection errors
 * are logged at most every 30 s. The first checks wait up to 2 s for the initial connection.
 */

export interface RateLimitDecision {
  allowed: boolean;
  /** Requests allowed per 1-second window (= requests that may be sent at once). */
  limit: number;
  /** Requests still available in the current window. */
  remaining: number;
  /** Seconds until the quota is fully available again (end of the window or of a block), ≥ 1. */
  resetSeconds: number;
  /** 0 when allowed; otherwise whole seconds ≥ 1 after which one request is allowed again. */
  retryAfterSeconds: number;
  /** Denied because of (or while starting) a sustained-breach block. */
  blocked: boolean;
}

/** Consumed-points value that marks a blocked pair (far above any rate). */
const BLOCKED = 1_000_000_000;

export interface RedisLimiterOptions {
  /** redis:// URL; ignored when `client` is given. */
  url?: string;
  /** An existing connection (not closed by `close`). */
  client?: Redis;
  /** Key prefix, e.g. "duebill:rl" (keys are "<prefix>:<key>" and "<prefix>:breach:<key>"). */
  prefix: string;
  /** Connection errors (the client reconnects by itself; checks meanwhile use memory). */
  onError?: (err: Error) => void;
}

export class RateLimiter {
  private readonly requestLimiters = new Map<number, RateLimiterAbstract>();
  private readonly breachLimiters = new Map<string, RateLimiterAbstract>();
  /** Until the first connection is ready (or fails, or 2 s pass), checks wait for it. */
  private pending: Promise<void> | undefined;

  private constructor(
    private readonly prefix: string,
    private readonly redis?: { client: Redis; owned: boolean },
  ) {
    const client = redis?.client;
    if (client && client.status !== "ready") {
      this.pending = new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.pending = undefined;
          resolve();
        };
        const timer = setTimeout(done, 2_000);
        timer.unref();
        for (const event of ["ready", "error", "end"]) client.once(event, done);
      });
    }
  }

  static memory(): RateLimiter {
    return new RateLimiter("rl");
  }

  static redis(opts: RedisLimiterOptions): RateLimiter {
    const client =
      opts.client ??
      new Redis(opts.url ?? "redis://127.0.0.1:6379", {
        // While disconnected, fail at once (the insurance limiter takes over) rather than queue
        // every request behind a reconnect; a stuck server is cut off by commandTimeout.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        commandTimeout: 500,
        connectTimeout: 2_000,
        retryStrategy: (times: number) => Math.min(times * 200, 5_000),
      });
    client.on("error", (err: Error) => opts.onError?.(err));
    return new RateLimiter(opts.prefix, { client, owned: !opts.client });
  }

  /** Resolves once the first Redis connection attempt is over (at once for memory). */
  async ready(): Promise<void> {
    await this.pending;
  }

  private make(points: number, duration: number, keyPrefix: string): RateLimiterAbstract {
    const opts = { points, duration, keyPrefix };
    if (!this.redis) return new RateLimiterMemory(opts);
    return new RateLimiterRedis({
      ...opts,
      storeClient: this.redis.client,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(opts),
    });
  }

  private requests(rate: number): RateLimiterAbstract {
    let l = this.requestLimiters.get(rate);
    if (!l) {
      l = this.make(rate, 1, this.prefix);
      this.requestLimiters.set(rate, l);
    }
    return l;
  }

  private breaches({ windows, withinSeconds }: RatePolicy["breach"]): RateLimiterAbstract {
    const id = `${windows}/${withinSeconds}`;
    let l = this.breachLimiters.get(id);
    if (!l) {
      l = this.make(windows, withinSeconds, `${this.prefix}:breach`);
      this.breachLimiters.set(id, l);
    }
    return l;
  }

  /** Counts one request now (Date.now(); Redis' clock for the Redis store). */
  async check(key: string, policy: RatePolicy): Promise<RateLimitDecision> {
    if (this.pending) await this.pending;
    const requests = this.requests(policy.rate);
    let res: RateLimiterRes;
    try {
      return decide(true, await requests.consume(key), policy.rate);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      res = err;
    }
    // The second 429 of a window: the client did not wait its Retry-After. Counted once per window.
    if (res.consumedPoints === policy.rate + 2 && !(await consumed(this.breaches(policy.breach), key))) {
      res = await requests.set(key, BLOCKED, policy.blockMs / 1000);
      await this.noteBlock(key, Date.now() + policy.blockMs);
    }
    return decide(false, res, policy.rate);
  }

  /** Blocks started here, for operators: in memory, and in a Redis sorted set shared by every instance. */
  private readonly memoryBlocks = new Map<string, number>();

  private async noteBlock(key: string, until: number): Promise<void> {
    this.memoryBlocks.set(key, until);
    if (this.redis?.client.status === "ready") {
      const set = `${this.prefix}:blocks`;
      await this.redis.client
        .multi()
        .zadd(set, until, key)
        .zremrangebyscore(set, "-inf", Date.now())
        .exec()
        .catch(() => undefined);
    }
  }

  /** The sustained-breach blocks in force now: key (credential|IP) and when each ends. */
  async activeBlocks(): Promise<{ key: string; until: Date }[]> {
    const now = Date.now();
    const found = new Map<string, number>();
    for (const [k, until] of this.memoryBlocks) {
      if (until > now) found.set(k, until);
      else this.memoryBlocks.delete(k);
    }
    if (this.redis?.client.status === "ready") {
      const rows = await this.redis.client.zrangebyscore(`${this.prefix}:blocks`, now, "+inf", "WITHSCORES").catch(() => [] as string[]);
      for (let i = 0; i + 1 < rows.length; i += 2) found.set(rows[i]!, Math.max(found.get(rows[i]!) ?? 0, Number(rows[i + 1])));
    }
    return [...found].map(([key, until]) => ({ key, until: new Date(until) })).sort((a, b) => a.until.getTime() - b.until.getTime());
  }

  async close(): Promise<void> {
    if (!this.redis?.owned) return;
    try {
      await this.redis.client.quit();
    } catch {
      this.redis.client.disconnect();
    }
  }
}

/** True when the limiter allowed the point, false when it refused. */
async function consumed(limiter: RateLimiterAbstract, key: string): Promise<boolean> {
  try {
    await limiter.consume(key);
    return true;
  } catch (err) {
    if (err instanceof RateLimiterRes) return false;
    throw err;
  }
}

function decide(allowed: boolean, res: RateLimiterRes, limit: number): RateLimitDecision {
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return {
    allowed,
    limit,
    remaining: res.remainingPoints,
    resetSeconds: seconds,
    retryAfterSeconds: allowed ? 0 : seconds,
    blocked: res.consumedPoints >= BLOCKED,
  };
}

/** Scope of a limit: one counter per credential and client IP. */
export function rateLimitKey(credentialId: string, clientIp: string): string {
  return `${credentialId}|${clientIp}`;
}

let current: RateLimiter | undefined;

/** The process-wide limiter: Redis when REDIS_URL is set, memory otherwise. */
export function rateLimiter(): RateLimiter {
  if (!current) {
    const { REDIS_URL, SERVICE_NAME } = env();
    current = REDIS_URL
      ? RateLimiter.redis({ url: REDIS_URL, prefix: `${SERVICE_NAME}:rl`, onError: warnUnavailable })
      : RateLimiter.memory();
  }
  return current;
}

/**
 * Checks and counts one request. Relaxed (client-ID management) endpoints use a separate
 * counter, so their larger allowance cannot be spent on the rest of the API and a block on one
 * does not carry over to the other.
 */
export function checkRateLimit(key: string, tier: RateTier, opts: { relaxed?: boolean } = {}): Promise<RateLimitDecision> {
  return rateLimiter().check(opts.relaxed ? `${key}|relaxed` : key, policyForTier(tier, opts));
}

/**
 * Response headers (draft-ietf-httpapi-ratelimit-headers, the RateLimit-Limit/-Remaining/-Reset
 * form). Limit: requests per 1-second window. Remaining: requests left in it. Reset:
 * delta-seconds until the quota is fully available again, including the rest of a block.
 * Retry-After (only on a 429): seconds ≥ 1 after which one request is allowed again.
 */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(decision.limit),
    "RateLimit-Remaining": String(decision.remaining),
    "RateLimit-Reset": String(decision.resetSeconds),
  };
  if (!decision.allowed) headers["Retry-After"] = String(decision.retryAfterSeconds);
  return headers;
}

const WARN_EVERY_MS = 30_000;
let lastWarnAt = 0;
let suppressed = 0;

/** ioredis reports every failed reconnect; one line per 30 s says so without flooding the log. */
function warnUnavailable(err: unknown): void {
  const now = Date.now();
  if (now - lastWarnAt < WARN_EVERY_MS) {
    suppressed++;
    return;
  }
  log.warn("rate limiter: Redis unavailable, counting in this instance's memory meanwhile (fail soft)", { err, suppressed });
  lastWarnAt = now;
  suppressed = 0;
}

/** Drops the process-wide limiter (closing its connection) so the next call reads the environment again. */
export async function resetRateLimitStoreForTests(): Promise<void> {
  const l = current;
  current = undefined;
  lastWarnAt = 0;
  suppressed = 0;
  await l?.close();
}
