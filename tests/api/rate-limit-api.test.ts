import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
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
    const h = { "x-api-key": a.apiKey, "x-forwarded-for": "203.0.113.7" };
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
    expect((await get({ ...h, "x-forwarded-for": "203.0.113.8" })).status).toBe(200);
    expect((await get({ "x-client-id": a.clientId, "x-forwarded-for": "203.0.113.7" })).status).toBe(200);
  });

  it("follows the credential's tier", async () => {
    const { setRateTier } = await import("@/lib/accounts/issue-credentials");
    await setRateTier(a.apiKeyId, "basic");
    const h = { "x-api-key": a.apiKey, "x-forwarded-for": "203.0.113.9" };
    expect((await get(h)).headers.get("ratelimit-limit")).toBe("2");
    expect((await get(h)).status).toBe(200);
    expect((await get(h)).status).toBe(429);
  });

  it("throttles credential guessing by IP", async () => {
    const h = { "x-api-key": "dbk_wrong", "x-forwarded-for": "198.51.100.1" };
    for (let i = 0; i < 5; i++) expect((await get(h)).status).toBe(401);
    expect((await get(h)).status).toBe(429);
  });
});
