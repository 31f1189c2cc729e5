import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as listCurrencies } from "@/app/v2/currencies/route";
import { reloadEnv } from "@/lib/env";
import { resetRateLimitStoreForTests } from "@/lib/http/rate-limit/limiter";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let a: Awaited<ReturnType<typeof makeIntegrator>>;

beforeAll(() => {
  process.env.RATE_LIMIT_MULTIPLIER = "1";
  reloadEnv();
});
afterAll(() => {
  process.env.RATE_LIMIT_MULTIPLIER = "1000";
  reloadEnv();
  resetRateLimitStoreForTests();
});
beforeEach(async () => {
  await resetDb();
  resetRateLimitStoreForTests();
  a = await makeIntegrator();
});

const get = (headers: Record<string, string>) => call(listCurrencies, "/v2/currencies?network=base", { headers });

describe("rate limits on the API", () => {
  it("answers over-limit calls with 429, Retry-After and RateLimit-* headers, per (credential, IP)", async () => {
    const h = { "x-api-key": a.apiKey, "x-duebill-socket-ip": "203.0.113.7" };
    const ok = await get(h);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("ratelimit-limit")).toBe("5");
    expect(ok.headers.get("ratelimit-remaining")).toBe("4");
    for (let i = 0; i < 4; i++) expect((await get(h)).status).toBe(200);
    const limited = await get(h);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ statusCode: 429, error: "Too Many Requests", code: "rate_limited" });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("ratelimit-reset")).toBeTruthy();
    // same key from another IP, and another key from the same IP, are not affected
    expect((await get({ ...h, "x-duebill-socket-ip": "203.0.113.8" })).status).toBe(200);
    expect((await get({ "x-client-id": a.clientId, "x-duebill-socket-ip": "203.0.113.7" })).status).toBe(200);
  });

  it("follows the credential's tier", async () => {
    const { setRateTier } = await import("@/lib/accounts/issue-credentials");
    await setRateTier(a.apiKeyId, "basic");
    const h = { "x-api-key": a.apiKey, "x-duebill-socket-ip": "203.0.113.9" };
    expect((await get(h)).headers.get("ratelimit-limit")).toBe("2");
    expect((await get(h)).status).toBe(200);
    expect((await get(h)).status).toBe(429);
  });

  it("throttles credential guessing by IP", async () => {
    const h = { "x-api-key": "dbk_wrong", "x-duebill-socket-ip": "198.51.100.1" };
    for (let i = 0; i < 5; i++) expect((await get(h)).status).toBe(401);
    expect((await get(h)).status).toBe(429);
  });

  it("throttles the authentication 403s by IP too: revoked client ID, foreign Origin, wrong credential kind", async () => {
    const { setClientIdStatus } = await import("@/lib/accounts/issue-credentials");
    const { GET: listClientIds } = await import("@/app/v2/client-ids/route");
    const other = await makeIntegrator();
    await setClientIdStatus(other.clientId, "revoked");
    const cases: [string, () => ReturnType<typeof get>][] = [
      ["revoked client ID", () => get({ "x-client-id": other.clientId, "x-duebill-socket-ip": "198.51.100.11" })],
      [
        "foreign Origin",
        () => get({ "x-client-id": a.browserClientId, origin: "https://evil.example", "x-duebill-socket-ip": "198.51.100.12" }),
      ],
      // a client ID where only a session or an API key is taken
      [
        "wrong credential kind",
        () => call(listClientIds, "/v2/client-ids", { headers: { "x-client-id": a.clientId, "x-duebill-socket-ip": "198.51.100.13" } }),
      ],
    ];
    for (const [what, send] of cases) {
      for (let i = 0; i < 5; i++) expect((await send()).status, what).toBe(403);
      const sixth = await send();
      expect(sixth.status, what).toBe(429);
      expect(sixth.body.code).toBe("rate_limited");
    }
  });

  describe("client IP: never one the client chose (hardening)", () => {
    afterEach(() => {
      delete process.env.TRUSTED_PROXY_HOPS;
      reloadEnv();
    });
    const hops = (n: number) => {
      process.env.TRUSTED_PROXY_HOPS = String(n);
      reloadEnv();
    };
    const forged = (i: number) => `192.0.2.${i % 250}`;

    it("with no trusted proxy ignores X-Forwarded-For and X-Real-IP: a new forged address per request escapes nothing", async () => {
      hops(0);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const h = {
          "x-api-key": a.apiKey,
          "x-duebill-socket-ip": "203.0.113.20",
          "x-forwarded-for": forged(i),
          "x-real-ip": forged(i + 100),
        };
        statuses.push((await get(h)).status);
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    });

    it("behind one trusted proxy takes the last entry; forged entries to its left change nothing", async () => {
      hops(1);
      const via = (left: string, client: string) => ({
        "x-api-key": a.apiKey,
        "x-duebill-socket-ip": "10.0.0.2",
        "x-forwarded-for": `${left}, ${client}`,
      });
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await get(via(forged(i), "203.0.113.30"))).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      // Another real client behind the same proxy has its own bucket.
      expect((await get(via(forged(99), "203.0.113.31"))).status).toBe(200);
    });

    it("behind two trusted proxies takes the second entry from the right", async () => {
      hops(2);
      const via = (left: string, client: string) => ({
        "x-api-key": a.apiKey,
        "x-duebill-socket-ip": "10.0.0.3",
        "x-forwarded-for": `${left}, ${client}, 10.0.0.4`,
      });
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await get(via(forged(i), "203.0.113.40"))).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect((await get(via(forged(7), "203.0.113.41"))).status).toBe(200);
      // Too few entries: the request did not pass both proxies; the socket address counts.
      const direct = { "x-api-key": a.apiKey, "x-duebill-socket-ip": "203.0.113.42", "x-forwarded-for": "192.0.2.1" };
      expect((await get(direct)).status).toBe(200);
    });
  });
});
