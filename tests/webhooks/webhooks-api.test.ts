import { beforeEach, describe, expect, it, vi } from "vitest";
import { GET as cronDetect } from "@/app/api/cron/detect/route";
import { DELETE as deleteWebhook, PUT as updateWebhook } from "@/app/v1/webhook/[id]/route";
import { POST as createWebhook, GET as listWebhooks } from "@/app/v1/webhook/route";
import { POST as testWebhook } from "@/app/v1/webhook/test/route";
import { createSession } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { reloadEnv } from "@/lib/env";
import { TEST_EVENT_TYPES } from "@/lib/events/catalog";
import { prefixedId } from "@/lib/ids";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

// No real DNS in tests: hooks.example.test is public, internal.example.test is not.
vi.mock("@/lib/webhooks/resolver", () => ({
  webhookResolver: () => async (host: string) => [{ address: host === "internal.example.test" ? "10.0.0.1" : "93.184.216.34", family: 4 }],
}));
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let b: Awaited<ReturnType<typeof makeIntegrator>>;

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  b = await makeIntegrator();
});

const asClient = (clientId: string) => ({ "x-client-id": clientId });
const register = (json: unknown, headers: Record<string, string>) => call(createWebhook, "/v1/webhook", { method: "POST", json, headers });

describe("webhook registration", () => {
  it("registers with x-client-id, shows the secret once, lists, toggles and deletes", async () => {
    const res = await register({ url: "https://hooks.example.test/duebill" }, asClient(a.clientId));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ url: "https://hooks.example.test/duebill", active: true, clientId: a.clientId });
    expect(res.body.secret).toMatch(/^whsec_/);
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.secretEnc).not.toContain(res.body.secret.slice(6));
    const list = await call(listWebhooks, "/v1/webhook", { headers: asClient(a.clientId) });
    // The reference's array, with isActive; no secret.
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ id: res.body.id, url: "https://hooks.example.test/duebill", isActive: true });
    expect(JSON.stringify(list.body)).not.toContain("whsec_");
    const params = { id: res.body.id };
    // A PUT without a body toggles, whatever Content-Type the client put on the empty request.
    const off = await call(updateWebhook, `/v1/webhook/${res.body.id}`, { method: "PUT", headers: asClient(a.clientId), params });
    expect(off.body.active).toBe(false);
    const emptyJson = await call(updateWebhook, `/v1/webhook/${res.body.id}`, {
      method: "PUT",
      headers: { ...asClient(a.clientId), "content-type": "application/json" },
      params,
    });
    expect(emptyJson.status, JSON.stringify(emptyJson.body)).toBe(200);
    expect(emptyJson.body.active).toBe(true);
    const emptyText = await call(updateWebhook, `/v1/webhook/${res.body.id}`, {
      method: "PUT",
      headers: { ...asClient(a.clientId), "content-type": "text/plain;charset=UTF-8" },
      params,
    });
    expect(emptyText.body.active).toBe(false);
    const on = await call(updateWebhook, `/v1/webhook/${res.body.id}`, {
      method: "PUT",
      headers: asClient(a.clientId),
      params,
      json: { active: true },
    });
    expect(on.body.active).toBe(true);
    expect(
      (await call(deleteWebhook, `/v1/webhook/${res.body.id}`, { method: "DELETE", headers: asClient(a.clientId), params })).status,
    ).toBe(200);
    expect((await call(listWebhooks, "/v1/webhook", { headers: asClient(a.clientId) })).body).toHaveLength(0);
  });

  it("refuses the same URL twice for a client ID, as the reference does", async () => {
    expect((await register({ url: "https://hooks.example.test/twice" }, asClient(a.clientId))).status).toBe(201);
    const again = await register({ url: "https://hooks.example.test/twice" }, asClient(a.clientId));
    expect(again.status).toBe(400);
    expect(again.body.errors[0]).toMatchObject({ field: "url", message: expect.stringMatching(/already registered/) });
    // Another client ID of another account may use it.
    expect((await register({ url: "https://hooks.example.test/twice" }, asClient(b.clientId))).status).toBe(201);
  });

  it("answers another client's webhook with 404", async () => {
    const res = await register({ url: "https://hooks.example.test/a" }, asClient(a.clientId));
    const params = { id: res.body.id };
    expect((await call(updateWebhook, "/v1/webhook/x", { method: "PUT", headers: asClient(b.clientId), params })).status).toBe(404);
    expect((await call(deleteWebhook, "/v1/webhook/x", { method: "DELETE", headers: asClient(b.clientId), params })).status).toBe(404);
    // A browser client ID (one with allowed domains) needs its Origin, and may not manage webhooks even with it.
    expect((await call(updateWebhook, "/v1/webhook/x", { method: "PUT", headers: asClient(a.browserClientId), params })).status).toBe(403);
    const withOrigin = { ...asClient(a.browserClientId), origin: "https://shop.example" };
    const browser = await call(updateWebhook, "/v1/webhook/x", { method: "PUT", headers: withOrigin, params });
    expect(browser.status).toBe(403);
    expect(browser.body.code).toBe("credential_not_allowed");
  });

  it("registers with a session for one of the account's client IDs", async () => {
    const user = await db().user.create({ data: { id: prefixedId("usr_"), accountId: a.account.id, email: "ops@a.example" } });
    const { token } = await createSession(user, "email");
    const bearer = { authorization: `Bearer ${token}` };
    expect((await register({ url: "https://hooks.example.test/s", clientId: a.clientId }, bearer)).status).toBe(201);
    expect((await register({ url: "https://hooks.example.test/s", clientId: b.clientId }, bearer)).status).toBe(404);
    const missing = await register({ url: "https://hooks.example.test/s" }, bearer);
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe("clientId");
  });

  it.each([
    "http://127.0.0.1/hook",
    "https://127.0.0.1/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/hook",
    "https://0x7f000001/hook",
    "https://2130706433/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://localhost/hook",
    "https://internal.example.test/hook",
    "http://hooks.example.test/plain-http",
    "https://user:pw@hooks.example.test/hook",
    "not a url",
  ])("refuses %s at registration with 400 naming url", async (url) => {
    const res = await register({ url }, asClient(a.clientId));
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("url");
  });

  it("allows loopback only when local development is enabled", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = "true";
    reloadEnv();
    try {
      expect((await register({ url: "http://127.0.0.1:9999/hook" }, asClient(a.clientId))).status).toBe(201);
    } finally {
      delete process.env.WEBHOOK_ALLOW_PRIVATE;
      reloadEnv();
    }
  });

  it("needs credentials: 401 without, 403 for an API key", async () => {
    expect((await register({ url: "https://hooks.example.test/x" }, {})).status).toBe(401);
    expect((await register({ url: "https://hooks.example.test/x" }, { "x-api-key": a.apiKey })).status).toBe(403);
  });
});

describe("POST /v1/webhook/test", () => {
  it("404 without an active webhook, 201 and a test delivery with one", async () => {
    const none = await call(testWebhook, "/v1/webhook/test", {
      method: "POST",
      headers: asClient(a.clientId),
      json: { eventType: "payment.confirmed" },
    });
    expect(none.status).toBe(404);
    await register({ url: "https://hooks.example.test/t" }, asClient(a.clientId));
    const res = await call(testWebhook, "/v1/webhook/test", {
      method: "POST",
      headers: asClient(a.clientId),
      json: { eventType: "payment.confirmed" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toBeNull();
    const deliveries = await db().webhookDelivery.findMany();
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ isTest: true, eventType: "payment.confirmed", status: "pending" });
    expect(JSON.parse(deliveries[0]!.body)).toMatchObject({ event: "payment.confirmed" });
    const bad = await call(testWebhook, "/v1/webhook/test", { method: "POST", headers: asClient(a.clientId), json: { eventType: "nope" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("eventType");
  });

  it("sends a sample of every event type of the reference's enum, each with its own event name", async () => {
    await register({ url: "https://hooks.example.test/all" }, asClient(a.clientId));
    for (const eventType of TEST_EVENT_TYPES) {
      const res = await call(testWebhook, "/v1/webhook/test", { method: "POST", headers: asClient(a.clientId), json: { eventType } });
      expect(res.status, `${eventType}: ${JSON.stringify(res.body)}`).toBe(201);
    }
    const deliveries = await db().webhookDelivery.findMany({ orderBy: { id: "asc" } });
    expect(deliveries.map((d) => d.eventType).sort()).toEqual([...TEST_EVENT_TYPES].sort());
    for (const d of deliveries) expect(JSON.parse(d.body).event).toBe(d.eventType);
  });
});

describe("cron routes", () => {
  it("refuse without the configured secret, with a wrong one, and when none is configured", async () => {
    const req = (auth?: string) => new Request("http://localhost:3000/api/cron/detect", { headers: auth ? { authorization: auth } : {} });
    expect((await cronDetect(req())).status).toBe(401);
    expect((await cronDetect(req("Bearer anything-at-all-long"))).status).toBe(401);
    process.env.CRON_SECRET = "a-cron-secret-of-some-length";
    reloadEnv();
    try {
      expect((await cronDetect(req("Bearer a-cron-secret-of-some-lengtX"))).status).toBe(401);
      const ok = await cronDetect(req("Bearer a-cron-secret-of-some-length"));
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ ok: true, job: "payment-detection" });
    } finally {
      delete process.env.CRON_SECRET;
      reloadEnv();
    }
  });
});

describe("delivery log and redelivery", () => {
  it("lists a webhook's deliveries with their attempts and redelivers one under the same ID; 404 for another client's", async () => {
    const { GET: listDeliveries } = await import("@/app/v1/webhook/[id]/deliveries/route");
    const { POST: redeliverRoute } = await import("@/app/v1/webhook/[id]/deliveries/[deliveryId]/redeliver/route");
    const hook = await register({ url: "https://hooks.example.test/log" }, asClient(a.clientId));
    await call(testWebhook, "/v1/webhook/test", { method: "POST", headers: asClient(a.clientId), json: { eventType: "payment.failed" } });
    const delivery = await db().webhookDelivery.findFirstOrThrow();
    await db().webhookDelivery.update({ where: { id: delivery.id }, data: { status: "failed", attempts: 11, lastStatus: 500 } });
    await db().webhookAttempt.create({
      data: {
        id: prefixedId("att_"),
        deliveryId: delivery.id,
        attempt: 1,
        startedAt: new Date(),
        latencyMs: 12,
        statusCode: 500,
        error: "HTTP 500",
      },
    });
    const list = await call(listDeliveries, "/v1/webhook/x/deliveries", { headers: asClient(a.clientId), params: { id: hook.body.id } });
    expect(list.status).toBe(200);
    expect(list.body.deliveries[0]).toMatchObject({
      id: delivery.id,
      eventType: "payment.failed",
      isTest: true,
      status: "failed",
      attempts: 11,
      attemptLog: [{ attempt: 1, statusCode: 500, latencyMs: 12, error: "HTTP 500" }],
    });
    const again = await call(redeliverRoute, "/v1/webhook/x/deliveries/y/redeliver", {
      method: "POST",
      headers: asClient(a.clientId),
      params: { id: hook.body.id, deliveryId: delivery.id },
    });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id: delivery.id, status: "pending" });
    expect(
      (await call(listDeliveries, "/v1/webhook/x/deliveries", { headers: asClient(b.clientId), params: { id: hook.body.id } })).status,
    ).toBe(404);
    expect(
      (
        await call(redeliverRoute, "/v1/webhook/x/deliveries/y/redeliver", {
          method: "POST",
          headers: asClient(b.clientId),
          params: { id: hook.body.id, deliveryId: delivery.id },
        })
      ).status,
    ).toBe(404);
  });
});
