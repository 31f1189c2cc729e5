import Redis from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import {
  checkRateLimit,
  type RateLimitDecision,
  type RatePolicy,
  rateLimitHeaders,
  rateLimitKey,
  resetRateLimitStoreForTests,
} from "@/lib/http/rate-limit/limiter";
import { MemoryStore } from "@/lib/http/rate-limit/memory-store";
import { policyForTier } from "@/lib/http/rate-limit/policy";
import { RedisStore } from "@/lib/http/rate-limit/redis-store";
import type { RateLimitStore } from "@/lib/http/rate-limit/token-bucket";
import { log } from "@/lib/log";

// Fake clock: every check gets an explicit `now`. It runs far ahead of real time, so Redis PX
// expiry (real time) never drops a key that the fake clock still considers live.
const T0 = 1_750_000_000_000;
const REDIS_URL = "redis://127.0.0.1:6379/15";
const RUN = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const PREFIX = `rltest:${RUN}:`;
const SERVICE = `rlt-${RUN}`; // the singleton's prefix is `${SERVICE_NAME}:rl:`
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

/** Random arrivals at 0.5–4× the rate on average, with occasional bursts of up to 3× burst at one instant. */
function pattern(rnd: () => number, p: RatePolicy, seconds: number): number[] {
  const out: number[] = [];
  const meanGap = 1000 / (p.rate * (0.5 + rnd() * 3.5));
  for (let t = T0; t < T0 + seconds * 1000; t += Math.floor(rnd() * 2 * meanGap)) {
    const n = rnd() < 0.05 ? 1 + Math.floor(rnd() * 3 * p.burst) : 1;
    for (let i = 0; i < n; i++) out.push(t);
  }
  return out;
}

let seq = 0;
const fresh = (label: string) => rateLimitKey(`key_${label}${seq++}`, "198.51.100.7");

async function hammerUntilBlocked(
  store: RateLimitStore,
  key: string,
  p: RatePolicy,
  t: number,
): Promise<{ t: number; firstReject: number; d: RateLimitDecision }> {
  let firstReject = -1;
  for (; t < T0 + 3_600_000; t += 50) {
    const d = await store.check(key, p, t);
    if (!d.allowed && firstReject < 0) firstReject = t;
    if (d.blocked) return { t, firstReject, d };
  }
  throw new Error("never blocked");
}

const redisAdmin = new Redis(REDIS_URL, { lazyConnect: true });
async function deleteKeys(pattern: string): Promise<void> {
  const keys: string[] = [];
  for await (const batch of redisAdmin.scanStream({ match: pattern, count: 1000 })) keys.push(...(batch as string[]));
  if (keys.length) await redisAdmin.del(...keys);
}
afterAll(async () => {
  await deleteKeys(`${PREFIX}*`);
  await deleteKeys(`${SERVICE}:rl:*`);
  await redisAdmin.quit();
});

describe.each([
  ["memory", () => new MemoryStore()],
  ["redis", () => new RedisStore({ url: REDIS_URL, prefix: PREFIX })],
] as const)("%s store", (_name, make) => {
  let store: MemoryStore | RedisStore;
  beforeAll(async () => {
    store = make();
    if (store instanceof RedisStore) await store.ready();
  });
  afterAll(async () => store.close());

  it.each(TIERS)("accepts at most burst + rate·t in every interval of random arrivals (%s)", async (tier) => {
    const p = prod(tier);
    let rejected = 0;
    for (let seed = 1; seed <= 3; seed++) {
      const key = fresh("bound");
      const accepted: number[] = [];
      const times = pattern(prng(seed * 7919 + p.rate), p, 20);
      for (const t of times) if ((await store.check(key, p, t)).allowed) accepted.push(t);
      rejected += times.length - accepted.length;
      let worst = Number.NEGATIVE_INFINITY; // max over intervals of accepted - (burst + rate·t)
      for (let i = 0; i < accepted.length; i++)
        for (let j = i; j < accepted.length; j++) worst = Math.max(worst, j - i + 1 - p.burst - (p.rate * (accepted[j]! - accepted[i]!)) / 1000);
      expect(worst).toBeLessThanOrEqual(0);
    }
    expect(rejected).toBeGreaterThan(0); // the patterns did push against the limit
  });

  const compliant = [
    ...TIERS.map((t) => ({ name: t, p: prod(t) })),
    { name: "3/s", p: { ...prod("basic"), rate: 3, burst: 3 } },
    { name: "80/s", p: prod("high_volume", true) },
  ];
  it.each(compliant)("never limits a compliant client over 5 minutes ($name)", async ({ p }) => {
    const even = fresh("even");
    for (let i = 0; i < p.rate * 300; i++) expect((await store.check(even, p, T0 + Math.floor((i * 1000) / p.rate))).allowed).toBe(true);
    // Irregular but never closer than 1000/rate ms apart.
    const rnd = prng(p.rate);
    const irregular = fresh("irregular");
    for (let i = 0, t = T0; i < 1000; i++, t += Math.ceil(1000 / p.rate) + Math.floor(rnd() * 300))
      expect((await store.check(irregular, p, t)).allowed).toBe(true);
  });

  it("blocks a sustained breach for exactly 300 s; hammering during the block does not extend it", async () => {
    const p = prod("default"); // 5/s: one token every 200 ms
    const key = fresh("breach");
    const { t: tb, firstReject, d } = await hammerUntilBlocked(store, key, p, T0);
    expect(tb - firstReject).toBe(10_000);
    expect(d).toMatchObject({ allowed: false, blocked: true, remaining: 0, retryAfterSeconds: 301, resetSeconds: 301 });
    for (let t = tb + 100; t < tb + 299_900; t += 100) expect((await store.check(key, p, t)).blocked).toBe(true);
    expect(await store.check(key, p, tb + 299_900)).toMatchObject({ allowed: false, blocked: true });
    expect(await store.check(key, p, tb + 300_000)).toMatchObject({ allowed: false, blocked: false, retryAfterSeconds: 1 });
    expect((await store.check(key, p, tb + 300_199)).allowed).toBe(false);
    expect((await store.check(key, p, tb + 300_200)).allowed).toBe(true);
    // Retry-After of the blocking response is honest too.
    const other = fresh("breach-ra");
    const b = await hammerUntilBlocked(store, other, p, T0);
    expect((await store.check(other, p, b.t + b.d.retryAfterSeconds * 1000)).allowed).toBe(true);
  });

  it("does not block a short burst, however large, nor rejections spanning 9.9 s", async () => {
    const p = prod("default");
    const key = fresh("burst");
    for (let i = 0; i < 500; i++) expect((await store.check(key, p, T0)).blocked).toBe(false);
    let t = T0;
    for (; t <= T0 + 9_900; t += 20) expect((await store.check(key, p, t)).blocked).toBe(false);
    t += 1_200; // a pause longer than the 1 s gap ends the rejection run
    for (let i = 0; i < 300; i++, t += 200) expect((await store.check(key, p, t)).allowed).toBe(true);
  });

  it("isolates keys: another credential on the same IP and the same credential on another IP are unaffected", async () => {
    const p = prod("basic");
    const cred = `key_iso${seq++}`;
    const { t } = await hammerUntilBlocked(store, rateLimitKey(cred, "203.0.113.7"), p, T0);
    for (const k of [rateLimitKey(`${cred}x`, "203.0.113.7"), rateLimitKey(cred, "2001:db8::1")])
      for (let i = 0; i < p.burst; i++) expect((await store.check(k, p, t + 1)).allowed).toBe(true);
    expect((await store.check(rateLimitKey(cred, "203.0.113.7"), p, t + 1)).blocked).toBe(true);
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
          d = await store.check(key, p, t);
        } while (d.allowed);
        expect(d).toMatchObject({ blocked: false, remaining: 0 });
        expect(d.retryAfterSeconds).toBeGreaterThanOrEqual(1);
        t += d.retryAfterSeconds * 1000;
        expect((await store.check(key, p, t)).allowed).toBe(true);
      }
    }
  });

  it("defines a sustained breach as rejections less than 1 s apart for 10 s", async () => {
    const p = prod("default");
    // Each period, send until one request is rejected; report when (if ever) the block starts.
    const greedyEvery = async (gapMs: number, seconds: number) => {
      const key = fresh("gap");
      for (let t = T0; t < T0 + seconds * 1000; t += gapMs) {
        let d: RateLimitDecision;
        do d = await store.check(key, p, t);
        while (d.allowed);
        if (d.blocked) return t - T0;
      }
      return -1;
    };
    expect(await greedyEvery(999, 30)).toBe(10_989); // the 11th rejection is ≥ 10 s into the run
    expect(await greedyEvery(1_000, 60)).toBe(-1); // waits the 1 s Retry-After each time
  });

  it("reports RateLimit-* headers on allowed and denied responses", async () => {
    const p = prod("default");
    const key = fresh("headers");
    expect(rateLimitHeaders(await store.check(key, p, T0))).toEqual({ "RateLimit-Limit": "5", "RateLimit-Remaining": "4", "RateLimit-Reset": "1" });
    for (let i = 0; i < 4; i++) await store.check(key, p, T0);
    const denied = rateLimitHeaders(await store.check(key, p, T0 + 10));
    expect(denied).toEqual({ "RateLimit-Limit": "5", "RateLimit-Remaining": "0", "RateLimit-Reset": "1", "Retry-After": "1" });
  });

  it("gives the relaxed policy 4× the allowance", async () => {
    for (const [p, n] of [
      [prod("default"), 5],
      [prod("default", true), 20],
    ] as const) {
      const key = fresh("relaxed");
      for (let i = 0; i < n; i++) expect((await store.check(key, p, T0)).allowed).toBe(true);
      expect((await store.check(key, p, T0)).allowed).toBe(false);
    }
  });
});

describe("stores agree", () => {
  it("memory and Redis give identical decisions on random traffic, blocks included; Redis keys carry a TTL", async () => {
    const mem = new MemoryStore();
    const red = new RedisStore({ url: REDIS_URL, prefix: PREFIX });
    await red.ready();
    let blocks = 0;
    for (const tier of TIERS) {
      const p = prod(tier);
      const key = fresh("diff");
      for (const t of pattern(prng(p.rate * 31), p, 40)) {
        const [a, b] = [await mem.check(key, p, t), await red.check(key, p, t)];
        if (JSON.stringify(a) !== JSON.stringify(b)) expect({ t, b }).toEqual({ t, b: a });
        if (a.blocked) blocks++;
      }
    }
    expect(blocks).toBeGreaterThan(0);
    const key = fresh("ttl");
    await red.check(key, prod("default"), T0); // 4 of 5 tokens left: full again in 200 ms
    const ttl = await redisAdmin.pttl(PREFIX + key);
    expect(ttl).toBeGreaterThan(150); // real time elapsed since the SET: a few ms
    expect(ttl).toBeLessThanOrEqual(200);
    const blocked = fresh("ttl-block"); // the block (300 s) plus a full refill (1 s)
    await hammerUntilBlocked(red, blocked, prod("default"), T0);
    expect(await redisAdmin.pttl(PREFIX + blocked)).toBeGreaterThan(300_900);
    await red.close();
  });
});

describe("memory store bounds", () => {
  it("never holds more than maxEntries and sweeps expired keys", async () => {
    const store = new MemoryStore(10);
    const p = prod("basic"); // a key checked once is full (expired) again 500 ms later
    for (let i = 0; i < 1000; i++) {
      await store.check(`k${i}`, p, T0 + i); // one new key per ms: most are evicted unexpired
      expect(store.size).toBeLessThanOrEqual(10);
    }
    await store.check("late", p, T0 + 10_000); // all expired: two are swept before the insert
    expect(store.size).toBe(9);
  });

  it("keeps a blocked pair that goes on sending blocked while new keys push others out", async () => {
    const store = new MemoryStore(10);
    const p = prod("basic");
    const { t } = await hammerUntilBlocked(store, "attacker", p, T0);
    const slow = { ...p, rate: 1, burst: 2 }; // two requests keep a key live for 2 s
    let maxSize = 0;
    // 8 new keys per second, each live 2 s: ~16 live keys for 10 slots, so live keys are evicted
    // all the time. The attacker is moved to the back once per second (8 inserts < 9 others) and
    // is never the victim.
    for (let i = 1; i < 1600; i++) {
      for (let j = 0; j < 2; j++) await store.check(`n${i}`, slow, t + i * 125);
      expect((await store.check("attacker", p, t + i * 125)).blocked).toBe(true);
      maxSize = Math.max(maxSize, store.size);
    }
    expect(maxSize).toBe(10);
  });
});

describe("checkRateLimit (process-wide store)", () => {
  // The suite-wide setup raises every limit (tests/helpers/setup-env.ts); these tests need the defaults.
  beforeEach(() => {
    vi.stubEnv("RATE_LIMIT_MULTIPLIER", undefined);
    resetEnvForTests();
  });
  afterEach(async () => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    resetEnvForTests();
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
    resetEnvForTests();
    expect(TIERS.map((t) => policyForTier(t).rate)).toEqual([2, 5, 10, 20]);
    expect(await allowedAtOnce("basic")).toBe(2);
    expect(await allowedAtOnce("default", true)).toBe(20);
    vi.stubEnv("NODE_ENV", "development");
    resetEnvForTests();
    expect(TIERS.map((t) => policyForTier(t).rate)).toEqual([20, 50, 100, 200]);
    expect(await allowedAtOnce("basic")).toBe(20);
    vi.stubEnv("RATE_LIMIT_MULTIPLIER", "2.5");
    resetEnvForTests();
    expect(policyForTier("basic")).toMatchObject({ rate: 5, burst: 5, blockMs: 300_000 });
    expect(policyForTier("basic", { relaxed: true }).rate).toBe(20);
  });

  it("uses Redis when REDIS_URL is set", async () => {
    vi.stubEnv("REDIS_URL", REDIS_URL);
    vi.stubEnv("SERVICE_NAME", SERVICE);
    resetEnvForTests();
    expect(await allowedAtOnce("basic")).toBe(20); // test env: ×10
    expect(await redisAdmin.keys(`${SERVICE}:rl:*`)).toHaveLength(1);
  });

  it("fails open with a logged warning when Redis is unreachable", async () => {
    vi.stubEnv("REDIS_URL", "redis://127.0.0.1:1");
    resetEnvForTests();
    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    const d = await checkRateLimit("key_x|192.0.2.1", "basic");
    expect(d).toMatchObject({ allowed: true, failedOpen: true });
    expect(rateLimitHeaders(d)).toEqual({});
    expect(warn).toHaveBeenCalled();
  });
});
