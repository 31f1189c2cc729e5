/**
 * Browser client IDs from an integrator's site, in Chromium (issue #24): a page served from
 * another origin calls the API with fetch and `x-client-id`, as the reference's payment widget
 * does. The client ID's allowed origin gets its answers (preflight granted, response readable);
 * a foreign origin is blocked by the browser, and its write never reaches the API.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "@playwright/test";
import { e2eState, withDb } from "./support/api";

const state = e2eState();

/** A one-page site on 127.0.0.1:<port>: its origin is what the browser sends as Origin. */
async function site(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!doctype html><title>Integrator shop</title><h1>Integrator shop</h1>");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

interface Outcome {
  ok: boolean;
  status?: number;
  body?: Record<string, unknown>;
  requestId?: string | null;
  rateLimitRemaining?: string | null;
  error?: string;
}

/** fetch from inside the page, as the widget would; a CORS refusal surfaces as a TypeError. */
function pageFetch(
  page: Page,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; credentials?: RequestCredentials },
) {
  return page.evaluate(
    async ({ url, init }): Promise<Outcome> => {
      try {
        const res = await fetch(url, init);
        return {
          ok: true,
          status: res.status,
          body: await res.json(),
          requestId: res.headers.get("x-request-id"),
          rateLimitRemaining: res.headers.get("ratelimit-remaining"),
        };
      } catch (err) {
        return { ok: false, error: String(err) };
      }
    },
    { url, init },
  );
}

const payoutsOf = (accountId: string) =>
  withDb(state, async (db) =>
    Number((await db.query(`SELECT count(*) FROM "PaymentRequest" WHERE "accountId" = $1`, [accountId])).rows[0].count),
  );

let allowed: Awaited<ReturnType<typeof site>>;
let foreign: Awaited<ReturnType<typeof site>>;
let clientId: string;

test.beforeAll(async () => {
  allowed = await site();
  foreign = await site();
  // A browser client ID of the demo account whose one allowed domain is the first site.
  clientId = `cli_${randomBytes(12).toString("hex")}`;
  await withDb(state, (db) =>
    db.query(`INSERT INTO "ClientId" ("id", "accountId", "name", "allowedDomains", "updatedAt") VALUES ($1, $2, 'cors e2e', $3, now())`, [
      clientId,
      state.demo.accountId,
      [allowed.origin],
    ]),
  );
});

test.afterAll(async () => {
  await allowed?.close();
  await foreign?.close();
});

const payoutInit = (key: string) => ({
  method: "POST",
  headers: { "content-type": "application/json", "x-client-id": clientId, "idempotency-key": key },
  body: JSON.stringify({ payee: state.devnet.payee, amount: "12.5", invoiceCurrency: "USD", paymentCurrency: "USDC-sepolia" }),
});
const routesInit = () => ({ method: "GET", headers: { "x-client-id": clientId } });

test("the client ID's allowed origin calls POST /v2/payouts and GET conversion-routes with fetch", async ({ page }) => {
  // Preflights never reach Playwright's request events; DevTools' network domain reports them.
  const preflights: string[] = [];
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  cdp.on("Network.requestWillBeSent", (e) => {
    if (e.type === "Preflight" || e.request.method === "OPTIONS") preflights.push(e.request.url);
  });
  await page.goto(`${allowed.origin}/`);
  const before = await payoutsOf(state.demo.accountId);

  const payout = await pageFetch(page, `${state.baseUrl}/v2/payouts`, payoutInit(`cors-${Date.now()}`));
  expect(payout.error).toBeUndefined();
  expect(payout.status).toBe(201);
  expect(payout.body?.requestId).toEqual(expect.any(String));
  expect(Array.isArray(payout.body?.transactions)).toBe(true);
  // exposed to the page: the request ID and the rate-limit headers
  expect(payout.requestId).toMatch(/^[A-Za-z0-9._-]{8,64}$/);
  expect(Number(payout.rateLimitRemaining)).toBeGreaterThan(0);
  expect(await payoutsOf(state.demo.accountId)).toBe(before + 1);

  const routes = await pageFetch(page, `${state.baseUrl}/v2/currencies/USD/conversion-routes`, routesInit());
  expect(routes.error).toBeUndefined();
  expect(routes.status).toBe(200);
  expect(routes.requestId).toBeTruthy();

  // a 4xx after authentication is readable too (the page can show why)
  const bad = await pageFetch(page, `${state.baseUrl}/v2/payouts`, {
    ...payoutInit(`cors-bad-${Date.now()}`),
    body: JSON.stringify({ payee: state.devnet.payee, amount: "-1", invoiceCurrency: "USD", paymentCurrency: "USDC-sepolia" }),
  });
  expect(bad.status).toBe(400);
  expect(bad.body?.code).toBe("validation_failed");

  // Chromium asked first (JSON body and x-client-id are not "simple")
  expect(preflights.some((u) => u.endsWith("/v2/payouts"))).toBe(true);
  expect(preflights.some((u) => u.endsWith("/v2/currencies/USD/conversion-routes"))).toBe(true);
});

test("no credentials mode: the allowed origin's credentialed fetch is refused by the browser", async ({ page }) => {
  await page.goto(`${allowed.origin}/`);
  const res = await pageFetch(page, `${state.baseUrl}/v2/currencies/USD/conversion-routes`, { ...routesInit(), credentials: "include" });
  expect(res.ok).toBe(false);
  expect(res.error).toContain("TypeError");
});

test("a foreign origin's fetch is blocked, and its payout never reaches the API", async ({ page }) => {
  const messages: string[] = [];
  page.on("console", (m) => messages.push(m.text()));
  await page.goto(`${foreign.origin}/`);
  const before = await payoutsOf(state.demo.accountId);

  const payout = await pageFetch(page, `${state.baseUrl}/v2/payouts`, payoutInit(`cors-foreign-${Date.now()}`));
  expect(payout.ok).toBe(false);
  expect(payout.error).toContain("TypeError");
  const routes = await pageFetch(page, `${state.baseUrl}/v2/currencies/USD/conversion-routes`, routesInit());
  expect(routes.ok).toBe(false);
  expect(routes.error).toContain("TypeError");

  // The preflight was refused, so the POST itself was never sent: nothing was created.
  expect(await payoutsOf(state.demo.accountId)).toBe(before);
  expect(messages.join("\n")).toMatch(/CORS policy/);

  // Outside a browser the same foreign Origin gets the 403 it always got, without a grant.
  const direct = await fetch(`${state.baseUrl}/v2/currencies/USD/conversion-routes`, {
    headers: { "x-client-id": clientId, origin: foreign.origin },
  });
  expect(direct.status).toBe(403);
  expect(direct.headers.get("access-control-allow-origin")).toBeNull();
  expect((await direct.json()).code).toBe("origin_not_allowed");
  const preflight = await fetch(`${state.baseUrl}/v2/payouts`, {
    method: "OPTIONS",
    headers: {
      origin: foreign.origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type,x-client-id",
    },
  });
  expect(preflight.status).toBe(403);
  expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  const granted = await fetch(`${state.baseUrl}/v2/payouts`, {
    method: "OPTIONS",
    headers: {
      origin: allowed.origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type,x-client-id",
    },
  });
  expect(granted.status).toBe(204);
  expect(granted.headers.get("access-control-allow-origin")).toBe(allowed.origin);
  expect(granted.headers.get("access-control-allow-credentials")).toBeNull();
});

test("session routes stay closed to other origins, even the allowed one", async ({ page }) => {
  await page.goto(`${allowed.origin}/`);
  const res = await pageFetch(page, `${state.baseUrl}/v2/client-ids`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ label: "from another origin" }),
    credentials: "include",
  });
  expect(res.ok).toBe(false);
  const session = await pageFetch(page, `${state.baseUrl}/v1/auth/session`, { method: "GET", headers: {}, credentials: "include" });
  expect(session.ok).toBe(false);
});
