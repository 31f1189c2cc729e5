/**
 * The edges of the HTTP surface against the production build (issue #24, item 8): what the
 * framework would answer on its own is the API's JSON error (with the API's CSP) under /v1, /v2
 * and /api, a page path Next cannot decode gets a 400 page instead of a plain-text 500, and the
 * client IP the rate limiter trusts is never one a client wrote, under scripts/runtime/server.mjs (the
 * stack of global-setup) and under bare `next start` alike.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { getFreePort } from "@/scripts/devnet";
import { e2eState, withDb } from "./support/api";

const state = e2eState();
const ROOT = path.resolve(__dirname, "..");
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** node:http, not fetch: fetch cannot send TRACE, choose its local address or keep a path unnormalised. */
function raw(
  base: string,
  pathAndQuery: string,
  opts: { method?: string; headers?: Record<string, string>; localAddress?: string } = {},
): Promise<Raw> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: pathAndQuery,
        method: opts.method ?? "GET",
        headers: opts.headers,
        localAddress: opts.localAddress,
        agent: false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => {
          body += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

test.describe("every answer under the API prefixes is the JSON API's", () => {
  const cases: { what: string; path: string; method?: string; headers?: Record<string, string>; status: number; code?: string }[] = [
    { what: "an operation", path: "/v2/currencies", headers: { "x-api-key": state.demo.apiKey }, status: 200 },
    { what: "missing credentials", path: "/v2/currencies", status: 401, code: "unauthorized" },
    { what: "an unknown path under /v2", path: "/v2/no-such-thing", status: 404, code: "not_found" },
    { what: "an unknown path under /v1", path: "/v1/nothing/here", status: 404, code: "not_found" },
    { what: "the prefix alone", path: "/v2", status: 404, code: "not_found" },
    { what: "too many segments", path: "/v2/payouts/a/b", method: "POST", status: 404, code: "not_found" },
    { what: "a wrong method", path: "/v2/payouts", method: "GET", status: 405, code: "method_not_allowed" },
    { what: "a wrong method on /v1", path: "/v1/webhook/test", method: "DELETE", status: 405, code: "method_not_allowed" },
    { what: "a malformed escape", path: "/v2/request/%E0%A4%A", status: 400, code: "validation_failed" },
    { what: "a method Next cannot route", path: "/v2/payouts", method: "TRACE", status: 405, code: "method_not_allowed" },
    {
      what: "a refused preflight",
      path: "/v2/payouts",
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
      status: 403,
      code: "origin_not_allowed",
    },
    { what: "a plain OPTIONS", path: "/v2/payouts", method: "OPTIONS", status: 204 },
    { what: "the OpenAPI document", path: "/v2/openapi.json", status: 200 },
    { what: "the health check", path: "/api/health", status: 200 },
  ];

  for (const c of cases) {
    test(`${c.what}: ${c.method ?? "GET"} ${c.path} → ${c.status}, JSON, API CSP`, async () => {
      const res = await raw(state.baseUrl, c.path, { method: c.method, headers: { "x-request-id": "edge-spec-0001", ...c.headers } });
      expect(res.status).toBe(c.status);
      expect(res.headers["content-security-policy"]).toBe(API_CSP);
      expect(res.headers["x-request-id"]).toBe("edge-spec-0001");
      if (c.status === 204) {
        expect(res.body).toBe("");
        expect(res.headers.allow).toBe("POST, OPTIONS");
        return;
      }
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      const body = JSON.parse(res.body);
      if (c.code) {
        expect(body).toMatchObject({ statusCode: c.status, code: c.code, requestId: "edge-spec-0001" });
        expect(typeof body.error).toBe("string");
        expect(typeof body.message).toBe("string");
      }
      if (c.status === 405) expect(res.headers.allow).toContain("OPTIONS");
    });
  }

  test("pages keep the page CSP, not the API's", async () => {
    for (const p of ["/", "/docs", "/no-such-page"]) {
      const res = await raw(state.baseUrl, p);
      expect(res.headers["content-security-policy"], p).toContain("default-src 'self'");
      expect(res.headers["content-security-policy"], p).toContain("frame-ancestors 'none'");
    }
  });
});

test.describe("a page path with a malformed percent-escape", () => {
  for (const p of ["/pay/%zz", "/pay/%c0%af", "/pay/%E0%A4%A", "/dashboard/%"]) {
    test(`${p} answers the 400 page, not a 500`, async () => {
      const res = await raw(state.baseUrl, p);
      expect(res.status).toBe(400);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.body).toContain("This address is malformed");
      expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    });
  }

  test("renders in Chromium at 1280 and 390 px", async ({ page }) => {
    mkdirSync(path.join(ROOT, "e2e/screenshots"), { recursive: true });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      const res = await page.goto(`${state.baseUrl}/pay/%E0%A4%A`);
      expect(res?.status()).toBe(400);
      await expect(page.getByRole("heading", { name: "This address is malformed" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Go to the home page" })).toBeVisible();
      await page.screenshot({ path: path.join(ROOT, `e2e/screenshots/malformed-path-${width}.png`), fullPage: true });
    }
  });
});

/** A server client ID of the demo account, new, so its rate-limit counters start full. */
async function freshClientId(): Promise<string> {
  const id = `cli_${randomBytes(12).toString("hex")}`;
  await withDb(state, (db) =>
    db.query(`INSERT INTO "ClientId" ("id", "accountId", "name", "allowedDomains", "updatedAt") VALUES ($1, $2, 'edge e2e', '{}', now())`, [
      id,
      state.demo.accountId,
    ]),
  );
  return id;
}

const remaining = (r: Raw) => Number(r.headers["ratelimit-remaining"]);

test.describe("the client IP the rate limiter counts by", () => {
  test("under scripts/runtime/server.mjs is the socket's: another local address gets its own counter", async () => {
    // Three rounds, each with a new client ID: 3 calls from 127.0.0.1 (each forging another
    // address), then one from 127.0.0.2. Its own counter answers limit-1; one shared counter
    // (the stamp lost, or the forged header believed) would answer less.
    for (let round = 0; round < 3; round++) {
      const cid = await freshClientId();
      const first = await raw(state.baseUrl, "/v2/currencies", {
        headers: { "x-client-id": cid, "x-duebill-socket-ip": "127.0.0.2" },
        localAddress: "127.0.0.1",
      });
      expect(first.status).toBe(200);
      const limit = Number(first.headers["ratelimit-limit"]);
      expect(remaining(first)).toBe(limit - 1);
      for (const forged of ["127.0.0.2", "192.0.2.9"]) {
        await raw(state.baseUrl, "/v2/currencies", {
          headers: { "x-client-id": cid, "x-duebill-socket-ip": forged },
          localAddress: "127.0.0.1",
        });
      }
      const other = await raw(state.baseUrl, "/v2/currencies", { headers: { "x-client-id": cid }, localAddress: "127.0.0.2" });
      expect(other.status).toBe(200);
      expect(remaining(other)).toBe(limit - 1);
    }
  });

  test("under bare `next start` a client-sent x-duebill-socket-ip is dropped: forged addresses share one counter", async () => {
    test.setTimeout(120_000);
    const port = await getFreePort();
    const base = `http://127.0.0.1:${port}`;
    mkdirSync(path.join(ROOT, "test-results"), { recursive: true });
    const log = createWriteStream(path.join(ROOT, "test-results", "edge-next-start.log"));
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: state.databaseUrl,
      APP_URL: base,
      APP_SECRET: "duebill-e2e-app-secret-not-for-production-use",
      RATE_LIMIT_MULTIPLIER: "1",
    };
    const child: ChildProcess = spawn(
      process.execPath,
      [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
      {
        cwd: ROOT,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    try {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const ok = await raw(base, "/api/health").then(
          (r) => r.status === 200,
          () => false,
        );
        if (ok) break;
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error("next start did not come up (test-results/edge-next-start.log)");
        await new Promise((r) => setTimeout(r, 250));
      }
      const cid = await freshClientId();
      const answers: Raw[] = [];
      for (const forged of ["192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"]) {
        answers.push(
          await raw(base, "/v2/currencies", {
            headers: { "x-client-id": cid, "x-duebill-socket-ip": forged, "x-duebill-socket-ip-proof": "0".repeat(64) },
          }),
        );
      }
      for (const a of answers) expect(a.status).toBe(200);
      const limit = Number(answers[0]!.headers["ratelimit-limit"]);
      // believed, each forged address would start its own counter: limit-1 every time
      expect(answers.map(remaining).some((r) => r !== limit - 1)).toBe(true);
      // and the API's edges hold there too (the proxy, not server.mjs, answers them)
      const unknown = await raw(base, "/v2/no-such-thing");
      expect(unknown.status).toBe(404);
      expect(JSON.parse(unknown.body).code).toBe("not_found");
      expect(unknown.headers["content-security-policy"]).toBe(API_CSP);
      expect((await raw(base, "/pay/%zz")).status).toBe(400);
    } finally {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      });
      log.end();
    }
  });
});
