import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OPTIONS as preflightRoute } from "@/app/api/cors-preflight/route";
import { POST as createWebhook } from "@/app/v1/webhook/route";
import { GET as conversionRoutes } from "@/app/v2/currencies/[currencyId]/conversion-routes/route";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { setClientIdStatus } from "@/lib/accounts/issue-credentials";
import { reloadEnv } from "@/lib/env";
import { resetRateLimitStoreForTests } from "@/lib/http/rate-limit/limiter";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

/**
 * CORS for browser client IDs (docs/api/auth.md "Browser calls (CORS)"), at the route handlers: the
 * actual answers and the preflight handler proxy.ts hands preflights to. The browser's side
 * (Chromium refusing a foreign origin) is e2e/cors.spec.ts.
 */
const SHOP = "https://shop.example";
const EVIL = "https://evil.example";
const PAYEE = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const PAYOUT = { payee: PAYEE, amount: "25.5", invoiceCurrency: "USD", paymentCurrency: "USDT-mainnet" };
let a: Awaited<ReturnType<typeof makeIntegrator>>;

beforeEach(async () => {
  await resetDb();
  resetRateLimitStoreForTests();
  a = await makeIntegrator({ domains: [SHOP] });
});

const payout = (headers: Record<string, string>) => call(createPayout, "/v2/payouts", { method: "POST", headers, json: PAYOUT });
const routes = (headers: Record<string, string>) =>
  call(conversionRoutes, "/v2/currencies/USD/conversion-routes?network=base", { headers, params: { currencyId: "USD" } });
/** A preflight as proxy.ts hands it on: the route's template in x-duebill-preflight-route. */
const preflight = (route: string, headers: Record<string, string>) =>
  call(preflightRoute, "/api/cors-preflight", { method: "OPTIONS", headers: { "x-duebill-preflight-route": route, ...headers } });

describe("actual answers", () => {
  it("grant the Origin the presented browser client ID allows, and expose the request ID and rate-limit headers", async () => {
    for (const res of [
      await payout({ "x-client-id": a.browserClientId, origin: SHOP }),
      await routes({ "x-client-id": a.browserClientId, origin: SHOP }),
    ]) {
      expect(res.status).toBeLessThan(300);
      expect(res.headers.get("access-control-allow-origin")).toBe(SHOP);
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      expect(res.headers.get("vary")).toBe("Origin");
      const exposed = (res.headers.get("access-control-expose-headers") ?? "").split(/,\s*/);
      for (const h of ["x-request-id", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "retry-after"])
        expect(exposed).toContain(h);
    }
  });

  it("grant errors after authentication too (a 400 the page must be able to read)", async () => {
    const res = await call(createPayout, "/v2/payouts", {
      method: "POST",
      headers: { "x-client-id": a.browserClientId, origin: SHOP },
      json: { ...PAYOUT, amount: "-1" },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("access-control-allow-origin")).toBe(SHOP);
  });

  it("give a foreign Origin the 403 and no grant", async () => {
    const res = await payout({ "x-client-id": a.browserClientId, origin: EVIL });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("origin_not_allowed");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("never grant an Origin on other credentials: a backend client ID (no domains), an API key", async () => {
    const backend = await payout({ "x-client-id": a.clientId, origin: SHOP });
    expect(backend.status).toBe(403);
    expect(backend.headers.get("access-control-allow-origin")).toBeNull();
    const key = await payout({ "x-api-key": a.apiKey, origin: SHOP });
    expect(key.status).toBe(201);
    expect(key.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("grant nothing without an Origin (a server call)", async () => {
    const res = await payout({ "x-client-id": a.clientId });
    expect(res.status).toBe(201);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("grant nothing on an operation closed to browsers (webhook management), even from an allowed Origin", async () => {
    const res = await call(createWebhook, "/v1/webhook", {
      method: "POST",
      headers: { "x-client-id": a.browserClientId, origin: SHOP },
      json: { url: "https://hooks.example/duebill" },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("preflights", () => {
  const ask = { "access-control-request-method": "POST", "access-control-request-headers": "content-type,x-client-id,idempotency-key" };

  it("are granted to an allowed domain of an active client ID, for the path's browser methods and headers, without credentials", async () => {
    const res = await preflight("/v2/payouts", { origin: SHOP, ...ask });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(res.headers.get("access-control-allow-methods")).toBe("POST");
    expect((res.headers.get("access-control-allow-headers") ?? "").split(/,\s*/).sort()).toEqual(
      ["content-type", "idempotency-key", "x-client-id", "x-request-id"].sort(),
    );
    expect(Number(res.headers.get("access-control-max-age"))).toBe(600);
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    const get = await preflight("/v2/currencies/{currencyId}/conversion-routes", {
      origin: SHOP,
      "access-control-request-method": "GET",
      "access-control-request-headers": "x-client-id",
    });
    expect(get.status).toBe(204);
    expect(get.headers.get("access-control-allow-methods")).toBe("GET, HEAD");
  });

  it("refuse a foreign Origin, a malformed one and a revoked client ID's domain: 403, no grant", async () => {
    for (const origin of [EVIL, `${SHOP}/`, "null", "https://shop.example:443x"]) {
      const res = await preflight("/v2/payouts", { origin, ...ask });
      expect(res.status, origin).toBe(403);
      expect(res.body.code).toBe("origin_not_allowed");
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    }
    await setClientIdStatus(a.browserClientId, "revoked");
    const revoked = await preflight("/v2/payouts", { origin: SHOP, ...ask });
    expect(revoked.status).toBe(403);
    expect(revoked.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("refuse server credentials and other headers: x-api-key, x-orchestrator-key, authorization", async () => {
    for (const h of ["x-api-key", "x-orchestrator-key", "authorization", "cookie"]) {
      const res = await preflight("/v2/payouts", {
        origin: SHOP,
        "access-control-request-method": "POST",
        "access-control-request-headers": `content-type,${h}`,
      });
      expect(res.status, h).toBe(403);
      expect(res.body.message).toContain(h);
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    }
  });

  it("refuse paths and methods browser client IDs cannot call: session-only, closed to browsers, absent", async () => {
    const cases: [string, string][] = [
      ["/v2/client-ids", "POST"], // session (and clientId, but closed to browsers)
      ["/v1/webhook", "POST"], // closed to browsers: its answer carries the signing secret
      ["/v1/auth/login", "POST"], // public, session-setting: never cross-origin
      ["/v2/payouts", "DELETE"], // no such operation
      ["/v2/openapi.json", "GET"], // not an operation (the document itself answers with `*`)
    ];
    for (const [route, method] of cases) {
      const res = await preflight(route, { origin: SHOP, "access-control-request-method": method });
      expect(res.status, `${method} ${route}`).toBe(403);
      expect(res.body.code).toBe("credential_not_allowed");
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    }
  });

  describe("refusals are throttled per IP", () => {
    beforeAll(() => {
      process.env.RATE_LIMIT_MULTIPLIER = "1";
      reloadEnv();
    });
    afterAll(() => {
      process.env.RATE_LIMIT_MULTIPLIER = "1000";
      reloadEnv();
      resetRateLimitStoreForTests();
    });

    it("like failed authentication: the 6th refused preflight within a second is 429", async () => {
      const h = { origin: EVIL, ...ask, "x-duebill-socket-ip": "198.51.100.77" };
      for (let i = 0; i < 5; i++) expect((await preflight("/v2/payouts", h)).status).toBe(403);
      expect((await preflight("/v2/payouts", h)).status).toBe(429);
      // granted preflights are not counted
      const ok = { origin: SHOP, ...ask, "x-duebill-socket-ip": "198.51.100.78" };
      for (let i = 0; i < 8; i++) expect((await preflight("/v2/payouts", ok)).status).toBe(204);
    });
  });
});
