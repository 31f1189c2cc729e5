import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createWebhook } from "@/app/v1/webhook/route";
import { POST as testWebhook } from "@/app/v1/webhook/test/route";
import { POST as createOrchestratorWebhook } from "@/app/v2/orchestrators/webhooks/route";
import { db } from "@/lib/db";
import { reloadEnv } from "@/lib/env";
import { webhookUrlPolicy } from "@/lib/webhooks/policy";
import { decryptSecret } from "@/lib/webhooks/secret-box";
import { verifySignature } from "@/lib/webhooks/sign";
import { sweepWebhooks } from "@/lib/webhooks/sweep";
import { checkWebhookUrl, isLoopbackIp } from "@/lib/webhooks/url-policy";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

/**
 * Issue 29 item 6: under `npm run dev` (DUEBILL_MODE=dev, set by scripts/runtime/run.ts) a webhook
 * may point at this machine — `http://localhost:4000/hook` — and the 201 says so; under `npm start`
 * (DUEBILL_MODE=start, NODE_ENV production) it is a 400 naming `url`, and an endpoint registered in
 * dev is refused at delivery. Every other private address stays refused in dev. No DNS mock: the
 * names here are `localhost` (the hosts file) and literals.
 */
const ENV_KEYS = ["DUEBILL_MODE", "NODE_ENV", "WEBHOOK_ALLOW_PRIVATE"] as const;
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

function setMode(mode: "dev" | "start" | undefined, nodeEnv: string = "test") {
  if (mode === undefined) delete process.env.DUEBILL_MODE;
  else process.env.DUEBILL_MODE = mode;
  (process.env as Record<string, string>).NODE_ENV = nodeEnv;
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  reloadEnv();
}

afterEach(() => {
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else (process.env as Record<string, string | undefined>)[k] = saved[k];
  }
  reloadEnv();
});

describe("the URL policy by mode", () => {
  it("DUEBILL_MODE=dev allows loopback, start or production never", () => {
    setMode("dev");
    expect(webhookUrlPolicy()).toEqual({ allowPrivate: false, allowLoopback: true });
    setMode("start");
    expect(webhookUrlPolicy()).toEqual({ allowPrivate: false, allowLoopback: false });
    setMode(undefined);
    expect(webhookUrlPolicy().allowLoopback).toBe(false);
    // `next start` run by hand with a dev shell: production wins.
    setMode("dev", "production");
    expect(webhookUrlPolicy().allowLoopback).toBe(false);
  });

  it("loopback: this machine over http or https; the rest stays strict", () => {
    const dev = { allowPrivate: false, allowLoopback: true };
    const strict = { allowPrivate: false, allowLoopback: false };
    for (const url of [
      "http://localhost:4000/hook",
      "https://localhost/hook",
      "http://api.localhost:8080/x",
      "http://127.0.0.1:4000/hook",
      "http://127.1.2.3/hook",
      "http://[::1]:4000/hook",
      "http://[::ffff:127.0.0.1]/hook",
      "http://2130706433/hook", // 127.0.0.1 in decimal, canonicalised by the URL parser
    ]) {
      expect(checkWebhookUrl(url, dev).ok, url).toBe(true);
      expect(checkWebhookUrl(url, strict).ok, url).toBe(false);
    }
    for (const url of [
      "http://10.0.0.1/hook",
      "https://10.0.0.1/hook",
      "http://192.168.1.20:4000/hook",
      "http://169.254.169.254/latest/meta-data",
      "https://[fe80::1]/hook",
      "https://[fd00::1]/hook",
      "http://0.0.0.0:4000/hook",
      "http://[::]:4000/hook",
      "http://100.64.0.1/hook",
      "http://hooks.example.com/plain-http", // a public host still needs https
      "http://user:pw@localhost:4000/hook",
      "ftp://localhost/hook",
      "http://localhost.evil.example/hook",
    ]) {
      expect(checkWebhookUrl(url, dev).ok, url).toBe(false);
    }
    expect(checkWebhookUrl("https://hooks.example.com/x", dev).ok).toBe(true);
    expect(checkWebhookUrl("http://localhost:4000/hook", strict)).toEqual({
      ok: false,
      reason: "URL must use https (http to this machine: only under `npm run dev`)",
    });
    expect(checkWebhookUrl("https://localhost:4000/hook", strict)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("npm run dev"),
    });
  });

  it("isLoopbackIp: 127/8, ::1 and mapped 127.x only", () => {
    for (const ip of ["127.0.0.1", "127.255.0.9", "::1", "[::1]", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"])
      expect(isLoopbackIp(ip), ip).toBe(true);
    for (const ip of ["128.0.0.1", "10.0.0.1", "::", "::2", "::ffff:10.0.0.1", "fe80::1", "0.0.0.0", "localhost", "127.0.0.1.nip.io"])
      expect(isLoopbackIp(ip), ip).toBe(false);
  });
});

describe("POST /v1/webhook with a localhost URL, and a real delivery to it", () => {
  let received: { headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
  let port = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200).end("ok");
    });
  });
  let a: Awaited<ReturnType<typeof makeIntegrator>>;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(async () => {
    await resetDb();
    a = await makeIntegrator();
    received = [];
  });

  const register = (url: string) =>
    call(createWebhook, "/v1/webhook", { method: "POST", headers: { "x-client-id": a.clientId }, json: { url } });

  it("npm start: 400 naming url", async () => {
    setMode("start", "production");
    for (const url of ["http://localhost:4000/hook", "https://localhost:4000/hook", "http://127.0.0.1:4000/hook"]) {
      const res = await register(url);
      expect(res.status, url).toBe(400);
      expect(res.body.errors[0].field).toBe("url");
    }
  });

  it("npm run dev: 201 with a warning, and the test event reaches the local server, signed", async () => {
    setMode("dev");
    const url = `http://localhost:${port}/hook`;
    const res = await register(url);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.url).toBe(url);
    expect(res.body.warning).toMatch(/npm run dev.*npm start/s);
    const sent = await call(testWebhook, "/v1/webhook/test", {
      method: "POST",
      headers: { "x-client-id": a.clientId },
      json: { eventType: "payment.confirmed" },
    });
    expect(sent.status).toBe(201);
    const sweep = await sweepWebhooks({ budgetMs: 5_000 });
    expect(sweep.succeeded).toBe(1);
    expect(received).toHaveLength(1);
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: res.body.id } });
    const got = received[0]!;
    expect(verifySignature(decryptSecret(row.secretEnc), got.body, got.headers["x-duebill-signature"] as string)).toBe(true);
    expect(JSON.parse(got.body.toString("utf8")).event).toBe("payment.confirmed");
  });

  it("npm run dev keeps other private addresses out, at registration and at delivery", async () => {
    setMode("dev");
    const lan = await register("http://192.168.1.20:4000/hook");
    expect(lan.status).toBe(400);
    expect(lan.body.errors[0].field).toBe("url");
    // Registered under dev, delivered under start: refused at connect time, nothing reaches the server.
    const res = await register(`http://localhost:${port}/hook`);
    expect(res.status).toBe(201);
    // DUEBILL_MODE=start alone (NODE_ENV stays test: production would also want the APP_SECRET the secret was sealed with).
    setMode("start");
    await call(testWebhook, "/v1/webhook/test", {
      method: "POST",
      headers: { "x-client-id": a.clientId },
      json: { eventType: "payment.confirmed" },
    });
    const sweep = await sweepWebhooks({ budgetMs: 5_000 });
    expect(sweep.succeeded).toBe(0);
    expect(received).toHaveLength(0);
    const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { endpointId: res.body.id } });
    expect(delivery.lastError).toMatch(/refused/);
  });

  it("orchestrator webhooks follow the same policy and say so", async () => {
    setMode("dev");
    const res = await call(createOrchestratorWebhook, "/v2/orchestrators/webhooks", {
      method: "POST",
      headers: { "x-orchestrator-key": a.orchestratorKey },
      json: { url: `http://127.0.0.1:${port}/orchestrator` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.warning).toMatch(/npm run dev/);
    setMode("start", "production");
    const refused = await call(createOrchestratorWebhook, "/v2/orchestrators/webhooks", {
      method: "POST",
      headers: { "x-orchestrator-key": a.orchestratorKey },
      json: { url: `http://127.0.0.1:${port}/other` },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe("url");
  });
});
