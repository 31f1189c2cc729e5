import Redis from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { reloadEnv } from "@/lib/env";
import {
  checkRateLimit,
  type RateLimitDecision,
  RateLimiter,
  type RatePolicy,
  rateLimitHeaders,
  rateLimitKey,
  resetRateLimitStoreForTests,
} from "@/lib/http/rate-limit/limiter";
import { policyForTier } from "@/lib/http/rate-limit/policy";
import { log } from "@/lib/log";

// The memory store runs on a fake clock (Date and the store's expiry timers), so minutes of
// traffic take milliseconds. The Redis store keeps time on the server: its tests run in real
// time, with a scaled-down policy where a block is involved.
const T0 = 1_750_000_000_000;
const REDIS_URL = "redis://127.0.0.1:6379/15";
const RUN = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const PREFIX = `rltest:${RUN}`; // unique per run: other suites may share this Redis
const SERVICE = `rlt-${RUN}`; // the process-wide limiter's prefix is `${SERVICE_NAME}:rl`
const TIERS = ["basic", "default", "premium", "high_volume"] as const;
const prod = (tier: (typeof TIERS)[number], relaxed = false) => policyForTier(tier, { multiplier: 1, relaxed });

/** mulberry32: small, seeded, good enough to shuffle arrival patterns reproducibly. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random arrivals at 0.5–4× the rate on average, with occasional bursts of up to 3× the rate at one instant. */
function pattern(rnd: () => number, p: RatePolicy, seconds: number): number[] {
  const out: number[] = [];
  const meanGap = 1000 / (p.rate * (0.5 + rnd() * 3.5));
  for (let t = T0; t < T0 + seconds * 1000; t += Math.floor(rnd() * 2 * meanGap)) {
    const n = rnd() < 0.05 ? 1 + Math.floor(rnd() * 3 * p.rate) : 1;
    for (let i = 0; i < n; i++) out.push(t);
  }
  return out;
}

let seq = 0;
const fresh = (label: string) => rateLimitKey(`key_${label}${seq++}`, "198.51.100.7");

const redisAdmin = new Redis(REDIS_URL, { lazyConnect: true });
async function deleteKeys(pattern: string): Promise<void> {
  const keys: string[] = [];
  for await (const batch of redisAdmin.scanStream({ match: pattern, count: 1000 })) keys.push(...(batch as string[]));
  if (keys.length) await redisAdmin.del(...keys);
}
afterAll(async () => {
  await deleteKeys(`${PREFIX}:*`);
  await deleteKeys(`${SERVICE}:rl:*`);
  await redisAdmin.quit();
});

describe("memory store (fake clock)", () => {
  let store: RateLimiter;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    store = RateLimiter.memory();
  });
  afterEach(() => vi.useRealTimers());

  /** One request at epoch ms `t`. */
  const check = (key: string, p: RatePolicy, t: number) => {
    vi.setSystemTime(t);
    return store.check(key, p);
  };
  async function hammerUntilBlocked(
    key: string,
    p: RatePolicy,
    t: number,
  ): Promise<{ t: number; firstReject: number; d: RateLimitDecision }> {
    let firstReject = -1;
    for (; t < T0 + 3_600_000; t += 50) {
      const d = await check(key, p, t);
      if (!d.allowed && firstReject < 0) firstReject = t;
      if (d.blocked) return { t, firstReject, d };
    }
    throw new Error("never blocked");
  }

  it.each(TIERS)("accepts at most rate · (1 + ⌈t / 1 s⌉) in every interval of t ms of random arrivals (%s)", async (tier) => {
    // Fixed 1-second windows (limiter.ts): a window boundary can pass 2 × rate at once; per
    // minute the bound is 61 × rate, as with the token bucket this replaced.
    const p = prod(tier);
    let rejected = 0;
    for (let seed = 1; seed <= 3; seed++) {
      const key = fresh("bound");
      const accepted: number[] = [];
      const times = pattern(prng(seed * 7919 + p.rate), p, 20);
      for (const t of times) if ((await check(key, p, t)).allowed) accepted.push(t);
      rejected += times.length - accepted.length;
      let worst = Number.NEGATIVE_INFINITY; // max over intervals of accepted - rate · (1 + ⌈t/1000⌉)
      for (let i = 0; i < accepted.length; i++)
        for (let j = i; j < accepted.length; j++)
          worst = Math.max(worst, j - i + 1 - p.rate * (1 + Math.ceil((accepted[j]! - accepted[i]!) / 1000)));
      expect(worst).toBeLessThanOrEqual(0);
    }
    expect(rejected).toBeGreaterThan(0); // the patterns did push against the limit
  });

  const compliant = [
    ...TIERS.map((t) => ({ name: t, p: prod(t) })),
    { name: "3/s", p: { ...prod("basic"), rate: 3 } },
    { name: "80/s", p: prod("high_volume", true) },
  ];
  it.each(compliant)("never limits a compliant client over 5 minutes ($name)", async ({ p }) => {
    const even = fresh("even");
    for (let i = 0; i < p.rate * 300; i++) expect((await check(even, p, T0 + Math.floor((i * 1000) / p.rate))).allowed).toBe(true);
    // Irregular but never closer than 1000/rate ms apart.
    const rnd = prng(p.rate);
    const irregular = fresh("irregular");
    for (let i = 0, t = T0; i < 1000; i++, t += Math.ceil(1000 / p.rate) + Math.floor(rnd() * 300))
      expect((await check(irregular, p, t)).allowed).toBe(true);
  });

  it("blocks a sustained breach for exactly 300 s; hammering during the block does not extend it", async () => {
    const p = prod("default"); // 5 per 1-second window
    const key = fresh("breach");
    const { t: tb, firstReject, d } = await hammerUntilBlocked(key, p, T0);
    // First 429 at 250 ms; breaching windows (a second 429) at 300 ms, 1.3 s, …: the 11th blocks.
    expect(tb - firstReject).toBe(10_050);
    expect(d).toMatchObject({ allowed: false, blocked: true, remaining: 0, retryAfterSeconds: 300, resetSeconds: 300 });
    for (let t = tb + 100; t < tb + 300_000; t += 100) expect((await check(key, p, t)).blocked).toBe(true);
    expect(await check(key, p, tb + 299_999)).toMatchObject({ allowed: false, blocked: true, retryAfterSeconds: 1 });
    for (let i = 0; i < p.rate; i++) expect((await check(key, p, tb + 300_000)).allowed).toBe(true); // a fresh window
    expect(await check(key, p, tb + 300_000)).toMatchObject({ allowed: false, blocked: false, retryAfterSeconds: 1 });
    // Retry-After of the blocking response is honest too.
    const other = fresh("breach-ra");
    const b = await hammerUntilBlocked(other, p, T0);
    expect((await check(other, p, b.t + b.d.retryAfterSeconds * 1000)).allowed).toBe(true);
  });

  it("does not block a short burst, however large, nor rejections spanning 9.9 s", async () => {
    const p = prod("default");
    const key = fresh("burst");
    for (let i = 0; i < 500; i++) expect((await check(key, p, T0)).blocked).toBe(false);
    let t = T0;
    for (; t <= T0 + 9_900; t += 20) expect((await check(key, p, t)).blocked).toBe(false);
    t += 1_200; // a pause: the client goes back to its rate
    for (let i = 0; i < 300; i++, t += 200) expect((await check(key, p, t)).allowed).toBe(true);
  });

  it("isolates keys: another credential on the same IP and the same credential on another IP are unaffected", async () => {
    const p = prod("basic");
    const cred = `key_iso${seq++}`;
    const { t } = await hammerUntilBlocked(rateLimitKey(cred, "203.0.113.7"), p, T0);
    for (const k of [rateLimitKey(`${cred}x`, "203.0.113.7"), rateLimitKey(cred, "2001:db8::1")])
      for (let i = 0; i < p.rate; i++) expect((await check(k, p, t + 1)).allowed).toBe(true);
    expect((await check(rateLimitKey(cred, "203.0.113.7"), p, t + 1)).blocked).toBe(true);
  });

  it("gives Retry-After ≥ 1 that is enough, and never blocks a greedy client that honours it", async () => {
    for (const tier of TIERS) {
      const p = prod(tier);
      const rnd = prng(42 + p.rate);
      const key = fresh("ra");
      let t = T0;
      for (let round = 0; round < 60; round++) {
        let d: RateLimitDecision;
        do {
          t += Math.floor(rnd() * 30);
          d = await check(key, p, t);
        } while (d.allowed);
        expect(d).toMatchObject({ blocked: false, remaining: 0 });
        expect(d.retryAfterSeconds).toBeGreaterThanOrEqual(1);
        t += d.retryAfterSeconds * 1000;
        expect((await check(key, p, t)).allowed).toBe(true);
      }
    }
  });

  it("defines a sustained breach as sending again after a 429 in the same second, in 11 windows within 15 s", async () => {
    const p = prod("default");
    /** Every `gapMs`, send until one request is rejected; report when (if ever) the block starts. */
    const greedyEvery = async (gapMs: number, seconds: number) => {
      const key = fresh("gap");
      for (let t = T0; t < T0 + seconds * 1000; t += gapMs) {
        let d: RateLimitDecision;
        do d = await check(key, p, t);
        while (d.allowed);
        if (d.blocked) return t - T0;
      }
      return -1;
    };
    expect(await greedyEvery(500, 30)).toBe(10_500); // a second 429 in every window: the 11th blocks
    expect(await greedyEvery(1_000, 60)).toBe(-1); // waits the 1 s Retry-After each time
    expect(await greedyEvery(999, 60)).toBe(-1); // early by 1 ms: a breaching window every other second only
    /** `perSecond` requests evenly spaced, for `seconds`. */
    const steady = async (perSecond: number, seconds: number) => {
      const key = fresh("steady");
      for (let i = 0; i < perSecond * seconds; i++) if ((await check(key, p, T0 + Math.floor((i * 1000) / perSecond))).blocked) return true;
      return false;
    };
    expect(await steady(p.rate + 1, 60)).toBe(false); // one 429 per window: throttled, never blocked
    expect(await steady(p.rate + 2, 60)).toBe(true);
  });

  it("reports RateLimit-* headers on allowed and denied responses", async () => {
    const p = prod("default");
    const key = fresh("headers");
    expect(rateLimitHeaders(await check(key, p, T0))).toEqual({
      "RateLimit-Limit": "5",
      "RateLimit-Remaining": "4",
      "RateLimit-Reset": "1",
    });
    for (let i = 0; i < 4; i++) await check(key, p, T0);
    const denied = rateLimitHeaders(await check(key, p, T0 + 10));
    expect(denied).toEqual({ "RateLimit-Limit": "5", "RateLimit-Remaining": "0", "RateLimit-Reset": "1", "Retry-After": "1" });
  });

  it("gives the relaxed policy 4× the allowance", async () => {
    for (const [p, n] of [
      [prod("default"), 5],
      [prod("default", true), 20],
    ] as const) {
      const key = fresh("relaxed");
      for (let i = 0; i < n; i++) expect((await check(key, p, T0)).allowed).toBe(true);
      expect((await check(key, p, T0)).allowed).toBe(false);
    }
  });
});

// Real time. A scaled-down breach rule: a second 429 in 2 windows within 3 s blocks for 2 s.
const SHORT: RatePolicy = { rate: 3, breach: { windows: 1, withinSeconds: 3 }, blockMs: 2_000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each([
  ["memory", () => RateLimiter.memory()],
  ["redis", () => RateLimiter.redis({ url: REDIS_URL, prefix: PREFIX })],
] as const)("%s store (real time)", (name, make) => {
  let store: RateLimiter;
  beforeAll(async () => {
    store = make();
    await store.ready();
  });
  afterAll(async () => store.close());

  it("counts per window and key, with headers and the relaxed allowance", async () => {
    const p = prod("default");
    const key = fresh("rt-headers");
    expect(rateLimitHeaders(await store.check(key, p))).toEqual({
      "RateLimit-Limit": "5",
      "RateLimit-Remaining": "4",
      "RateLimit-Reset": "1",
    });
    for (let i = 0; i < 4; i++) expect((await store.check(key, p)).allowed).toBe(true);
    const denied = await store.check(key, p);
    expect(rateLimitHeaders(denied)).toEqual({
      "RateLimit-Limit": "5",
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": "1",
      "Retry-After": "1",
    });
    expect((await store.check(fresh("rt-other"), p)).allowed).toBe(true);
    const relaxed = fresh("rt-relaxed");
    for (let i = 0; i < 20; i++) expect((await store.check(relaxed, prod("default", true))).allowed).toBe(true);
    expect((await store.check(relaxed, prod("default", true))).allowed).toBe(false);
    if (name === "redis") {
      const ttl = await redisAdmin.pttl(`${PREFIX}:${key}`); // the window's remaining time
      expect(ttl).toBeGreaterThan(500);
      expect(ttl).toBeLessThanOrEqual(1000);
    }
  });

  it("blocks a sustained breach for blockMs, not extended by requests during the block", async () => {
    const key = fresh("rt-block");
    let d: RateLimitDecision | undefined;
    let firstReject = 0;
    const started = Date.now();
    while (Date.now() - started < 5_000) {
      d = await store.check(key, SHORT);
      if (!d.allowed && !firstReject) firstReject = Date.now();
      if (d.blocked) break;
      await sleep(20);
    }
    const blockedAt = Date.now();
    expect(d).toMatchObject({ allowed: false, blocked: true, remaining: 0, retryAfterSeconds: 2, resetSeconds: 2 });
    expect(blockedAt - firstReject).toBeGreaterThanOrEqual(900); // the second breaching window
    expect(blockedAt - firstReject).toBeLessThan(2_500);
    if (name === "redis") {
      // The key lives for blockMs (2 s) from the block, less the time since (a loaded machine answers late: 200 ms of slack).
      const ttl = await redisAdmin.pttl(`${PREFIX}:${key}`);
      expect(ttl).toBeGreaterThan(2_000 - (Date.now() - blockedAt) - 200);
      expect(ttl).toBeLessThanOrEqual(2_000);
    }
    while (Date.now() - blockedAt < 1_800) {
      expect((await store.check(key, SHORT)).blocked).toBe(true);
      await sleep(50);
    }
    await sleep(2_100 - (Date.now() - blockedAt));
    expect(await store.check(key, SHORT)).toMatchObject({ allowed: true, blocked: false });
  });
});

describe("checkRateLimit (process-wide limiter)", () => {
  // The suite-wide setup raises every limit (tests/helpers/setup-env.ts); these tests need the defaults.
  beforeEach(() => {
    vi.stubEnv("RATE_LIMIT_MULTIPLIER", undefined);
    reloadEnv();
  });
  afterEach(async () => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    reloadEnv();
    await resetRateLimitStoreForTests();
  });
  const allowedAtOnce = async (tier: (typeof TIERS)[number], relaxed = false) => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0 + seq * 1_000_000);
    const key = fresh("singleton");
    let n = 0;
    while ((await checkRateLimit(key, tier, { relaxed })).allowed) n++;
    return n;
  };

  it("applies ×1 in production, ×10 elsewhere, RATE_LIMIT_MULTIPLIER when set, and ×4 for relaxed", async () => {
    vi.stubEnv("NODE_ENV", "production");
    reloadEnv();
    expect(TIERS.map((t) => policyForTier(t).rate)).toEqual([2, 5, 10, 20]);
    expect(await allowedAtOnce("basic")).toBe(2);
    expect(await allowedAtOnce("default", true)).toBe(20);
    vi.stubEnv("NODE_ENV", "development");
    reloadEnv();
    expect(TIERS.map((t) => policyForTier(t).rate)).toEqual([20, 50, 100, 200]);
    expect(await allowedAtOnce("basic")).toBe(20);
    vi.stubEnv("RATE_LIMIT_MULTIPLIER", "2.5");
    reloadEnv();
    expect(policyForTier("basic")).toMatchObject({ rate: 5, blockMs: 300_000 });
    expect(policyForTier("basic", { relaxed: true }).rate).toBe(20);
  });

  it("uses Redis when REDIS_URL is set", async () => {
    vi.stubEnv("REDIS_URL", REDIS_URL);
    vi.stubEnv("SERVICE_NAME", SERVICE);
    reloadEnv();
    expect(await allowedAtOnce("basic")).toBe(20); // test env: ×10
    expect(await redisAdmin.keys(`${SERVICE}:rl:*`)).toHaveLength(1);
  });

  it("fails soft when Redis is unreachable: counts in memory, with a logged warning", async () => {
    vi.stubEnv("REDIS_URL", "redis://127.0.0.1:1");
    reloadEnv();
    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    const d = await checkRateLimit("key_x|192.0.2.1", "basic");
    expect(d).toMatchObject({ allowed: true, limit: 20, remaining: 19 });
    expect(rateLimitHeaders(d)).toEqual({ "RateLimit-Limit": "20", "RateLimit-Remaining": "19", "RateLimit-Reset": "1" });
    expect(warn).toHaveBeenCalled();
    expect(await allowedAtOnce("basic")).toBe(20); // the limit still holds (per instance)
  });
});
