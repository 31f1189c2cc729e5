import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as listV1Hooks, POST as postV1Hook } from "@/app/v1/webhook/route";
import {
  DELETE as deleteBranding,
  GET as getBranding,
  PATCH as patchBranding,
  POST as postBranding,
} from "@/app/v2/orchestrators/branding/route";
import { DELETE as disableFee, PATCH as patchFee } from "@/app/v2/orchestrators/fee-configs/[id]/route";
import { GET as listFees, POST as postFee } from "@/app/v2/orchestrators/fee-configs/route";
import { DELETE as deactivateHook, PATCH as reactivateHook } from "@/app/v2/orchestrators/webhooks/[id]/route";
import { GET as listHooks, POST as postHook } from "@/app/v2/orchestrators/webhooks/route";
import { POST as testHooks } from "@/app/v2/orchestrators/webhooks/test/route";
import { TOKENS } from "@/lib/chain/tokens";
import { db } from "@/lib/db";
import { reloadEnv } from "@/lib/env";
import { resolveFeePlan } from "@/lib/fees/fee-plan";
import { ulid } from "@/lib/ids";
import { verifySignature } from "@/lib/webhooks/sign";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

type Integrator = Awaited<ReturnType<typeof makeIntegrator>>;
let a: Integrator;
let b: Integrator;
/** A platform whose client ID is linked to A's orchestrator. */
let linked: Integrator;
/** A platform whose client ID is linked to B's orchestrator. */
let linkedToB: Integrator;

const orc = (who: Integrator) => ({ "x-orchestrator-key": who.orchestratorKey });
const PAYEE = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const TRON = "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW";

const savedAllowPrivate = process.env.WEBHOOK_ALLOW_PRIVATE;
beforeAll(() => {
  // Receivers listen on loopback (http): allowed for local development only.
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  reloadEnv();
});
afterAll(() => {
  if (savedAllowPrivate === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE;
  else process.env.WEBHOOK_ALLOW_PRIVATE = savedAllowPrivate;
  reloadEnv();
});

beforeEach(async () => {
  await resetDb();
  [a, b, linked, linkedToB] = await Promise.all([makeIntegrator(), makeIntegrator(), makeIntegrator(), makeIntegrator()]);
  await db().clientIdLink.create({ data: { id: ulid(), clientId: linked.clientId, orchestratorAccountId: a.account.id } });
  await db().clientIdLink.create({ data: { id: ulid(), clientId: linkedToB.clientId, orchestratorAccountId: b.account.id } });
});

interface Received {
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}

/** A receiver on loopback that checks x-duebill-signature over the raw body (401 on mismatch), then answers `status`. */
function startReceiver(secretRef: { secret: string }, status = 200) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      received.push({ headers: req.headers, raw });
      if (!verifySignature(secretRef.secret, raw, req.headers["x-duebill-signature"] as string)) return void res.writeHead(401).end();
      res.writeHead(status).end();
    });
  });
  return new Promise<{ url: string; received: Received[]; close: () => Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        received,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

const register = (who: Integrator, url: string) =>
  call(postHook, "/v2/orchestrators/webhooks", { method: "POST", headers: orc(who), json: { url } });
const hookCall = (handler: typeof deactivateHook, method: string, who: Integrator, id: string) =>
  call(handler, `/v2/orchestrators/webhooks/${id}`, { method, headers: orc(who), params: { id } });
const sendTest = (who: Integrator, eventType: unknown) =>
  call(testHooks, "/v2/orchestrators/webhooks/test", { method: "POST", headers: orc(who), json: { eventType } });

describe("orchestrator webhooks", () => {
  it("registers (secret once), lists inactive ones too, deactivates and reactivates", async () => {
    const created = await register(a, "https://hooks.example.test/orc");
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(["secret", "webhook"]);
    expect(created.body.webhook).toEqual({
      id: expect.any(String),
      url: "https://hooks.example.test/orc",
      isActive: true,
      createdAt: expect.any(String),
    });
    expect(created.body.secret).toMatch(/^whsec_/);
    const id = created.body.webhook.id as string;
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ accountId: a.account.id, clientId: null, scope: "orchestrator", active: true });
    expect(row.secretEnc).not.toContain(created.body.secret.slice(6));

    const off = await hookCall(deactivateHook, "DELETE", a, id);
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id, isActive: false });
    const list = await call(listHooks, "/v2/orchestrators/webhooks", { headers: orc(a) });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      webhooks: [{ id, url: "https://hooks.example.test/orc", isActive: false, createdAt: expect.any(String) }],
    });
    expect(JSON.stringify(list.body)).not.toContain("whsec_");
    expect(await db().webhookEndpoint.count({ where: { id } })).toBe(1); // not a hard delete

    const on = await hookCall(reactivateHook, "PATCH", a, id);
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ id, isActive: true });
    expect((await call(listHooks, "/v2/orchestrators/webhooks", { headers: orc(a) })).body.webhooks[0].isActive).toBe(true);
  });

  it("refuses the same URL twice for one orchestrator (409, active or not), not across orchestrators", async () => {
    const first = await register(a, "https://hooks.example.test/same");
    expect(first.status).toBe(201);
    const again = await register(a, "https://hooks.example.test/same");
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ statusCode: 409, code: "conflict" });
    await hookCall(deactivateHook, "DELETE", a, first.body.webhook.id);
    expect((await register(a, "https://hooks.example.test/same")).status).toBe(409);
    // Concurrent registrations of one URL: exactly one wins, the others are 409 (never a 500).
    const racing = await Promise.all([1, 2, 3].map(() => register(a, "https://hooks.example.test/race")));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect((await register(b, "https://hooks.example.test/same")).status).toBe(201);
  });

  it("keeps orchestrator and integrator webhooks apart, and applies the URL policy", async () => {
    await register(a, "https://hooks.example.test/orc");
    const v1 = await call(postV1Hook, "/v1/webhook", {
      method: "POST",
      headers: { "x-client-id": a.clientId },
      json: { url: "https://hooks.example.test/v1" },
    });
    expect(v1.status).toBe(201);
    const orcList = await call(listHooks, "/v2/orchestrators/webhooks", { headers: orc(a) });
    expect(orcList.body.webhooks.map((w: { url: string }) => w.url)).toEqual(["https://hooks.example.test/orc"]);
    const v1List = await call(listV1Hooks, "/v1/webhook", { headers: { "x-client-id": a.clientId } });
    expect(v1List.body.map((w: { url: string }) => w.url)).toEqual(["https://hooks.example.test/v1"]);
    // The v1 webhook's ID is not an orchestrator webhook.
    expect((await hookCall(deactivateHook, "DELETE", a, v1.body.id)).status).toBe(404);
    for (const url of ["ftp://hooks.example.test/x", "https://user:pw@hooks.example.test/x", "not a url"]) {
      const bad = await register(a, url);
      expect(bad.status, url).toBe(400);
      expect(bad.body.errors[0].field).toBe("url");
    }
  });

  it("answers another orchestrator's webhook with 404 and leaves it alone", async () => {
    const created = await register(a, "https://hooks.example.test/mine");
    const id = created.body.webhook.id as string;
    expect((await hookCall(deactivateHook, "DELETE", b, id)).status).toBe(404);
    expect((await hookCall(reactivateHook, "PATCH", b, id)).status).toBe(404);
    expect((await call(listHooks, "/v2/orchestrators/webhooks", { headers: orc(b) })).body.webhooks).toEqual([]);
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id } })).active).toBe(true);
  });

  it("test: 404 without an active webhook, 400 naming eventType", async () => {
    expect((await sendTest(a, "client_id.linked")).status).toBe(404);
    const created = await register(a, "https://hooks.example.test/off");
    await hookCall(deactivateHook, "DELETE", a, created.body.webhook.id);
    const none = await sendTest(a, "client_id.linked");
    expect(none.status).toBe(404);
    expect(none.body.code).toBe("not_found");
    for (const eventType of ["payment.nope", 1, undefined]) {
      const bad = await sendTest(a, eventType);
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].field).toBe("eventType");
    }
  });

  it("test: delivers now to each active webhook, signed, and counts what the receivers answered", async () => {
    const okRef = { secret: "" };
    const failRef = { secret: "" };
    const ok = await startReceiver(okRef, 200);
    const failing = await startReceiver(failRef, 500);
    const inactiveRef = { secret: "" };
    const inactive = await startReceiver(inactiveRef, 200);
    try {
      const okHook = await register(a, ok.url);
      okRef.secret = okHook.body.secret;
      // Only the one working receiver first: sent 1.
      const first = await sendTest(a, "client_id.linked");
      expect(first.status).toBe(201);
      expect(first.body).toEqual({ sent: 1, failed: 0 });
      expect(ok.received).toHaveLength(1);
      const got = ok.received[0]!;
      expect(verifySignature(okRef.secret, got.raw, got.headers["x-duebill-signature"] as string)).toBe(true);
      expect(got.headers["x-duebill-test"]).toBe("true");
      expect(got.headers["x-duebill-retry-count"]).toBe("0");
      expect(got.headers["webhook-signature"]).toMatch(/^v1,/);
      expect(JSON.parse(got.raw.toString("utf8"))).toMatchObject({ event: "client_id.linked" });
      const delivery = await db().webhookDelivery.findUniqueOrThrow({
        where: { id: got.headers["x-duebill-delivery"] as string },
        include: { attemptLog: true },
      });
      expect(delivery).toMatchObject({
        endpointId: okHook.body.webhook.id,
        isTest: true,
        status: "succeeded",
        attempts: 1,
        lastStatus: 200,
        leaseUntil: null,
      });
      expect(delivery.attemptLog).toHaveLength(1);

      // A receiver answering 500, and an inactive webhook (never called).
      failRef.secret = (await register(a, failing.url)).body.secret;
      const inactiveHook = await register(a, inactive.url);
      inactiveRef.secret = inactiveHook.body.secret;
      await hookCall(deactivateHook, "DELETE", a, inactiveHook.body.webhook.id);
      const second = await sendTest(a, "payment.confirmed");
      expect(second.status).toBe(201);
      expect(second.body).toEqual({ sent: 1, failed: 1 });
      expect(ok.received).toHaveLength(2);
      expect(failing.received).toHaveLength(1);
      expect(inactive.received).toHaveLength(0);
      // The failed test delivery was recorded and is retried by the engine like any other.
      const failed = await db().webhookDelivery.findUniqueOrThrow({
        where: { id: failing.received[0]!.headers["x-duebill-delivery"] as string },
      });
      expect(failed).toMatchObject({ status: "pending", attempts: 1, lastStatus: 500, lastError: "HTTP 500", leaseUntil: null });
      expect(failed.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    } finally {
      await Promise.all([ok.close(), failing.close(), inactive.close()]);
    }
  });

  it("test: a single receiver answering 500 → failed 1", async () => {
    const ref = { secret: "" };
    const failing = await startReceiver(ref, 500);
    try {
      ref.secret = (await register(a, failing.url)).body.secret;
      const res = await sendTest(a, "client_id.linked");
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ sent: 0, failed: 1 });
      expect(failing.received).toHaveLength(1);
      expect(verifySignature(ref.secret, failing.received[0]!.raw, failing.received[0]!.headers["x-duebill-signature"] as string)).toBe(
        true,
      );
    } finally {
      await failing.close();
    }
  });
});

const createFee = (who: Integrator, json: unknown) =>
  call(postFee, "/v2/orchestrators/fee-configs", { method: "POST", headers: orc(who), json });
const feeCall = (handler: typeof patchFee, method: string, who: Integrator, id: string, json?: unknown) =>
  call(handler, `/v2/orchestrators/fee-configs/${id}`, { method, headers: orc(who), params: { id }, json });
const listFeeConfigs = (who: Integrator, clientId?: string) =>
  call(listFees, `/v2/orchestrators/fee-configs${clientId ? `?clientId=${clientId}` : ""}`, { headers: orc(who) });

describe("orchestrator fee configs", () => {
  const valid = { flow: "get_paid", percentageBps: 100, capUsd: "5", feeBearer: "payer", evmAddress: PAYEE };

  it("creates the default, updates and disables it", async () => {
    const created = await createFee(a, { ...valid, label: "Acme fee" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      flow: "get_paid",
      percentageBps: 100,
      capUsd: "5.00",
      feeBearer: "payer",
      evmAddress: PAYEE,
      tronAddress: null,
      label: "Acme fee",
      clientId: null,
      active: true,
      createdAt: expect.any(String),
    });
    const id = created.body.id as string;
    const patched = await feeCall(patchFee, "PATCH", a, id, { percentageBps: 250, capUsd: null, feeBearer: "payee", tronAddress: TRON });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, percentageBps: 250, capUsd: null, feeBearer: "payee", evmAddress: PAYEE, tronAddress: TRON });
    // At least one address must remain.
    const noAddress = await feeCall(patchFee, "PATCH", a, id, { evmAddress: null, tronAddress: null });
    expect(noAddress.status).toBe(400);
    expect(noAddress.body.errors[0].field).toBe("evmAddress");
    const disabled = await feeCall(disableFee, "DELETE", a, id);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ id, active: false });
    const list = await listFeeConfigs(a);
    expect(list.status).toBe(200);
    expect(list.body.feeConfigs).toHaveLength(1);
    expect(list.body.feeConfigs[0]).toMatchObject({ id, active: false });
  });

  it("names the field of each invalid input", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, percentageBps: 10_001 }, "percentageBps"],
      [{ ...valid, percentageBps: -1 }, "percentageBps"],
      [{ ...valid, percentageBps: 1.5 }, "percentageBps"],
      [{ ...valid, capUsd: "abc" }, "capUsd"],
      [{ ...valid, capUsd: "1.234" }, "capUsd"],
      [{ ...valid, evmAddress: "0x6923831acf5c327260d7ac7c9dff5b1c3cb3C7D7" }, "evmAddress"], // bad checksum
      [{ ...valid, evmAddress: "0x1234" }, "evmAddress"],
      [{ ...valid, evmAddress: undefined }, "evmAddress"], // no address at all
      [{ ...valid, tronAddress: "T".repeat(34) }, "tronAddress"],
      [{ ...valid, flow: "payout" }, "flow"],
      [{ ...valid, feeBearer: "nobody" }, "feeBearer"],
      [{ ...valid, label: "" }, "label"],
    ];
    for (const [json, field] of cases) {
      const res = await createFee(a, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.errors[0].field, JSON.stringify(json)).toBe(field);
    }
    expect(await db().feeConfig.count()).toBe(0);
  });

  it("makes a per-client override for a client ID linked to this orchestrator only", async () => {
    const base = await createFee(a, valid);
    const override = await createFee(a, { ...valid, percentageBps: 50, clientId: linked.clientId });
    expect(override.status).toBe(201);
    expect(override.body).toMatchObject({ clientId: linked.clientId, percentageBps: 50, active: true });
    // Not linked at all, linked to another orchestrator, or the orchestrator's own client ID: 404.
    for (const clientId of [a.clientId, linkedToB.clientId, "cli_unknown"]) {
      const res = await createFee(a, { ...valid, clientId });
      expect(res.status, clientId).toBe(404);
      expect(res.body.message).toBe("Client ID not linked to this orchestrator");
    }
    // A link that was ended no longer takes new configuration.
    await db().clientIdLink.update({ where: { clientId: linked.clientId }, data: { status: "unlinked", unlinkedAt: new Date() } });
    expect((await createFee(a, { ...valid, clientId: linked.clientId })).status).toBe(404);
    // ...but what was configured for it is still listed.
    const forClient = await listFeeConfigs(a, linked.clientId);
    expect(forClient.status).toBe(200);
    expect(forClient.body.feeConfigs.map((f: { id: string }) => f.id)).toEqual([override.body.id]);
    const all = await listFeeConfigs(a);
    expect(all.body.feeConfigs.map((f: { id: string }) => f.id)).toEqual([base.body.id, override.body.id]);
    expect((await listFeeConfigs(a, linkedToB.clientId)).status).toBe(404);
  });

  it("resolves override → default → none in the fee plan, and a new config replaces the active one", async () => {
    const usdc = TOKENS.find((t) => t.network === "base" && t.symbol === "USDC")!;
    const gross = 100_000_000n; // 100 USDC
    expect(await resolveFeePlan(a.account.id, "get_paid", usdc, gross, linked.clientId)).toBeNull();
    const base = await createFee(a, { ...valid, capUsd: undefined });
    const viaDefault = await resolveFeePlan(a.account.id, "get_paid", usdc, gross, linked.clientId);
    expect(viaDefault?.plan.totalFeesUsd).toBe("1.00");
    await createFee(a, { ...valid, capUsd: undefined, percentageBps: 300, clientId: linked.clientId });
    expect((await resolveFeePlan(a.account.id, "get_paid", usdc, gross, linked.clientId))?.plan.totalFeesUsd).toBe("3.00");
    // The default is unchanged for other client IDs.
    expect((await resolveFeePlan(a.account.id, "get_paid", usdc, gross, null))?.plan.totalFeesUsd).toBe("1.00");
    // A second default for the flow replaces the first (the override stays).
    await createFee(a, { ...valid, capUsd: undefined, percentageBps: 200 });
    expect((await db().feeConfig.findUniqueOrThrow({ where: { id: base.body.id } })).active).toBe(false);
    expect((await resolveFeePlan(a.account.id, "get_paid", usdc, gross, null))?.plan.totalFeesUsd).toBe("2.00");
    expect((await resolveFeePlan(a.account.id, "get_paid", usdc, gross, linked.clientId))?.plan.totalFeesUsd).toBe("3.00");
  });

  it("answers another orchestrator's fee config with 404 and leaves it alone", async () => {
    const created = await createFee(a, valid);
    const id = created.body.id as string;
    expect((await feeCall(patchFee, "PATCH", b, id, { percentageBps: 1 })).status).toBe(404);
    expect((await feeCall(disableFee, "DELETE", b, id)).status).toBe(404);
    expect((await listFeeConfigs(b)).body.feeConfigs).toEqual([]);
    expect((await listFeeConfigs(b, linked.clientId)).status).toBe(404);
    expect(await db().feeConfig.findUniqueOrThrow({ where: { id } })).toMatchObject({ percentageBps: 100, active: true });
  });
});

const brandingUrl = (clientId?: string) => `/v2/orchestrators/branding${clientId ? `?clientId=${clientId}` : ""}`;
const createBrand = (who: Integrator, json: unknown) => call(postBranding, brandingUrl(), { method: "POST", headers: orc(who), json });
const readBrand = (who: Integrator, clientId?: string) => call(getBranding, brandingUrl(clientId), { headers: orc(who) });
const patchBrand = (who: Integrator, json: unknown, clientId?: string) =>
  call(patchBranding, brandingUrl(clientId), { method: "PATCH", headers: orc(who), json });
const deleteBrand = (who: Integrator, clientId?: string) =>
  call(deleteBranding, brandingUrl(clientId), { method: "DELETE", headers: orc(who) });

describe("orchestrator branding", () => {
  const brand = {
    displayName: "Acme Pay",
    logoUrl: "https://cdn.acme.example/logo.png",
    accentColor: "#1A73E8",
    supportUrl: "https://acme.example/help",
  };

  it("creates, reads, updates partially, deletes and creates again", async () => {
    const created = await createBrand(a, brand);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      clientId: null,
      ...brand,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await readBrand(a)).body).toEqual(created.body);
    const patched = await patchBrand(a, { accentColor: "#000000", logoUrl: null });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ displayName: "Acme Pay", accentColor: "#000000", logoUrl: null, supportUrl: brand.supportUrl });
    const deleted = await deleteBrand(a);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true });
    expect((await readBrand(a)).status).toBe(404);
    expect((await patchBrand(a, { displayName: "x" })).status).toBe(404);
    expect((await deleteBrand(a)).status).toBe(404);
    expect((await createBrand(a, { displayName: "Acme again" })).status).toBe(201);
  });

  it("refuses a second branding for the same target with 409, also when racing", async () => {
    expect((await createBrand(a, brand)).status).toBe(201);
    const again = await createBrand(a, { displayName: "Other" });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ statusCode: 409, code: "conflict" });
    const racing = await Promise.all([1, 2, 3].map(() => createBrand(a, { displayName: "Race", clientId: linked.clientId })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await db().branding.count({ where: { accountId: a.account.id } })).toBe(2);
    // The default (clientId null: a partial unique index) races the same way.
    const defaults = await Promise.all([1, 2, 3, 4].map(() => createBrand(b, { displayName: "Race" })));
    expect(defaults.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
  });

  it("names the field of each invalid input", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...brand, logoUrl: "http://cdn.acme.example/logo.png" }, "logoUrl"],
      [{ ...brand, logoUrl: "javascript:alert(1)" }, "logoUrl"],
      [{ ...brand, supportUrl: "http://acme.example/help" }, "supportUrl"],
      [{ ...brand, accentColor: "red" }, "accentColor"],
      [{ ...brand, accentColor: "#12345" }, "accentColor"],
      [{ ...brand, displayName: "" }, "displayName"],
      [{ ...brand, displayName: "   " }, "displayName"],
      [{ ...brand, displayName: "x".repeat(81) }, "displayName"],
      [{ logoUrl: brand.logoUrl }, "displayName"],
    ];
    for (const [json, field] of cases) {
      const res = await createBrand(a, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.errors[0].field, JSON.stringify(json)).toBe(field);
    }
    await createBrand(a, brand);
    const bad = await patchBrand(a, { logoUrl: "http://x.example/l.png" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("logoUrl");
  });

  it("keeps per-client overrides for linked client IDs apart from the default", async () => {
    await createBrand(a, brand);
    expect((await readBrand(a, linked.clientId)).status).toBe(404);
    const override = await createBrand(a, { displayName: "Linked shop by Acme", clientId: linked.clientId });
    expect(override.status).toBe(201);
    expect(override.body.clientId).toBe(linked.clientId);
    for (const clientId of [a.clientId, linkedToB.clientId, "cli_unknown"]) {
      const res = await createBrand(a, { displayName: "x", clientId });
      expect(res.status, clientId).toBe(404);
    }
    const patched = await patchBrand(a, { supportUrl: "https://shop.example/help" }, linked.clientId);
    expect(patched.body).toMatchObject({
      clientId: linked.clientId,
      displayName: "Linked shop by Acme",
      supportUrl: "https://shop.example/help",
    });
    expect((await readBrand(a)).body.supportUrl).toBe(brand.supportUrl);
    expect((await deleteBrand(a, linked.clientId)).body).toEqual({ deleted: true });
    expect((await readBrand(a)).status).toBe(200);
    expect((await readBrand(a, linked.clientId)).status).toBe(404);
  });

  it("answers another orchestrator with 404 and leaves A's branding alone", async () => {
    await createBrand(a, brand);
    await createBrand(a, { displayName: "Linked", clientId: linked.clientId });
    expect((await readBrand(b)).status).toBe(404);
    expect((await readBrand(b, linked.clientId)).status).toBe(404);
    expect((await patchBrand(b, { displayName: "Hijack" }, linked.clientId)).status).toBe(404);
    expect((await deleteBrand(b, linked.clientId)).status).toBe(404);
    expect((await createBrand(b, { displayName: "Hijack", clientId: linked.clientId })).status).toBe(404);
    const rows = await db().branding.findMany({ where: { accountId: a.account.id }, orderBy: { createdAt: "asc" } });
    expect(rows.map((r) => r.displayName)).toEqual(["Acme Pay", "Linked"]);
    // B's own default is its own.
    expect((await createBrand(b, { displayName: "B" })).status).toBe(201);
  });
});

describe("credentials", () => {
  it("refuses API keys and client IDs with 403, no credential with 401", async () => {
    const routes: [Parameters<typeof call>[0], string, string, unknown][] = [
      [postHook, "POST", "/v2/orchestrators/webhooks", { url: "https://hooks.example.test/x" }],
      [listHooks, "GET", "/v2/orchestrators/webhooks", undefined],
      [testHooks, "POST", "/v2/orchestrators/webhooks/test", { eventType: "client_id.linked" }],
      [postFee, "POST", "/v2/orchestrators/fee-configs", valid()],
      [listFees, "GET", "/v2/orchestrators/fee-configs", undefined],
      [postBranding, "POST", "/v2/orchestrators/branding", { displayName: "x" }],
      [getBranding, "GET", "/v2/orchestrators/branding", undefined],
    ];
    for (const [handler, method, url, json] of routes) {
      const refused: Record<string, string>[] = [
        { "x-api-key": a.apiKey },
        { "x-client-id": a.clientId },
        { "x-client-id": a.browserClientId, origin: "https://shop.example" },
      ];
      for (const headers of refused) {
        const res = await call(handler, url, { method, headers, json });
        expect(res.status, `${method} ${url} ${Object.keys(headers).join(",")}`).toBe(403);
        expect(res.body.code).toBe("credential_not_allowed");
      }
      expect((await call(handler, url, { method, json })).status).toBe(401);
    }
    expect(await db().webhookEndpoint.count()).toBe(0);
  });
});

function valid() {
  return { flow: "get_paid", percentageBps: 100, evmAddress: PAYEE };
}
