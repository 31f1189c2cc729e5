/**
 * /v2/client-ids: an account manages its own client IDs with a session or an API key (the
 * reference's shapes); the domain rules are the admin CLI's; another account's is 404; a revoked
 * one stays revoked and stops authenticating; an inactive one can be resumed.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { GET as getOne, DELETE as revoke, PUT as update } from "@/app/v2/client-ids/[id]/route";
import { POST as create, GET as list } from "@/app/v2/client-ids/route";
import { GET as currencies } from "@/app/v2/currencies/route";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let a: Awaited<ReturnType<typeof makeIntegrator>>;
let b: Awaited<ReturnType<typeof makeIntegrator>>;
let session: string;

beforeEach(async () => {
  await resetDb();
  [a, b] = await Promise.all([makeIntegrator(), makeIntegrator()]);
  session = await walletSessionToken(a.account.id, "0x90F79bf6EB2c4f870365E785982E1f101E93b906");
});

const asA = () => ({ authorization: `Bearer ${session}` });
const post = (json: unknown, headers: Record<string, string> = asA()) => call(create, "/v2/client-ids", { method: "POST", headers, json });
const put = (id: string, json: unknown, headers: Record<string, string> = asA()) =>
  call(update, `/v2/client-ids/${id}`, { method: "PUT", headers, json, params: { id } });

describe("/v2/client-ids", () => {
  it("creates, lists, reads, updates and revokes with a session; the same with an API key", async () => {
    const created = await post({ label: "Shop frontend", allowedDomains: ["https://shop.example", "http://localhost:5173"] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      clientId: created.body.id,
      label: "Shop frontend",
      allowedDomains: ["https://shop.example", "http://localhost:5173"],
      status: "active",
      feePercentage: null,
    });
    const id = created.body.id as string;
    const listed = await call(list, "/v2/client-ids", { headers: { "x-api-key": a.apiKey } });
    expect(listed.body.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining([id, a.clientId, a.browserClientId]));
    expect((await call(getOne, `/v2/client-ids/${id}`, { headers: asA(), params: { id } })).body.label).toBe("Shop frontend");

    const paused = await put(id, { status: "inactive", label: "Shop (paused)" });
    expect(paused.body).toMatchObject({ status: "inactive", label: "Shop (paused)" });
    expect((await call(currencies, "/v2/currencies", { headers: { "x-client-id": id, origin: "https://shop.example" } })).status).toBe(403);
    expect((await put(id, { status: "active" })).body.status).toBe("active");

    const gone = await call(revoke, `/v2/client-ids/${id}`, { method: "DELETE", headers: { "x-api-key": a.apiKey }, params: { id } });
    expect(gone.body).toEqual({ id, status: "revoked" });
    const again = await put(id, { status: "active" });
    expect(again.status).toBe(400);
    expect(again.body.errors[0].field).toBe("status");
    expect((await call(currencies, "/v2/currencies", { headers: { "x-client-id": id, origin: "https://shop.example" } })).status).toBe(403);
  });

  it("refuses bad input naming the field", async () => {
    const cases: [unknown, string][] = [
      [{}, "label"],
      [{ label: "" }, "label"],
      [{ label: "x".repeat(101) }, "label"],
      [{ label: "ok", allowedDomains: ["ftp://shop.example"] }, "allowedDomains"],
      [{ label: "ok", allowedDomains: ["http://shop.example"] }, "allowedDomains"],
      [{ label: "ok", allowedDomains: ["https://shop.example/path"] }, "allowedDomains"],
      [{ label: "ok", allowedDomains: Array.from({ length: 11 }, (_, i) => `https://s${i}.example`) }, "allowedDomains"],
      [{ label: "ok", feePercentage: "1" }, "feePercentage"],
    ];
    for (const [body, field] of cases) {
      const r = await post(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors[0].field, JSON.stringify(body)).toBe(field);
    }
    expect((await put(a.clientId, { status: "paused" })).body.errors[0].field).toBe("status");
  });

  it("another account's client ID is not found; client IDs and orchestrator keys may not manage them", async () => {
    const asB = { "x-api-key": b.apiKey };
    expect((await call(getOne, `/v2/client-ids/${a.clientId}`, { headers: asB, params: { id: a.clientId } })).status).toBe(404);
    expect((await put(a.clientId, { label: "mine" }, asB)).status).toBe(404);
    expect(
      (await call(revoke, `/v2/client-ids/${a.clientId}`, { method: "DELETE", headers: asB, params: { id: a.clientId } })).status,
    ).toBe(404);
    expect((await call(list, "/v2/client-ids", { headers: asB })).body.some((c: { id: string }) => c.id === a.clientId)).toBe(false);
    expect((await call(list, "/v2/client-ids", {})).status).toBe(401);
    expect((await call(list, "/v2/client-ids", { headers: { "x-client-id": a.clientId } })).status).toBe(403);
    expect((await call(list, "/v2/client-ids", { headers: { "x-orchestrator-key": a.orchestratorKey } })).status).toBe(403);
    expect((await call(getOne, `/v2/client-ids/${a.clientId}`, { headers: asA(), params: { id: a.clientId } })).body.status).toBe("active");
  });
});

describe("/v2/client-ids: edges", () => {
  const REFERENCE_FIELDS = [
    "allowedDomains",
    "clientId",
    "createdAt",
    "defaultAuthorizationExpiry",
    "defaultPreApprovalExpiry",
    "feeAddress",
    "feePercentage",
    "id",
    "label",
    "lastUsedAt",
    "operatorWalletAddress",
    "status",
    "updatedAt",
  ];

  it("answers exactly the reference's fields (no secret, no hash) and runs under the relaxed limit", async () => {
    const { createClientIdOp, getClientIdOp, listClientIdsOp, revokeClientIdOp, updateClientIdOp } = await import(
      "@/lib/operations/client-ids"
    );
    for (const op of [createClientIdOp, listClientIdsOp, getClientIdOp, updateClientIdOp, revokeClientIdOp])
      expect(op.rateLimit, op.operationId).toBe("relaxed");
    const created = await post({ label: "Keys", allowedDomains: ["https://keys.example"] });
    expect(Object.keys(created.body).sort()).toEqual(REFERENCE_FIELDS);
    const listed = await call(list, "/v2/client-ids", { headers: asA() });
    for (const item of listed.body) expect(Object.keys(item).sort()).toEqual(REFERENCE_FIELDS);
    expect(JSON.stringify(listed.body)).not.toMatch(/hash|secret/i);
  });

  it("accepts the session_token cookie (writes from our own Origin)", async () => {
    const cookie = { cookie: `session_token=${session}`, origin: "http://localhost:3000" };
    const created = await post({ label: "Cookie" }, cookie);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.allowedDomains).toEqual([]);
    expect((await call(list, "/v2/client-ids", { headers: cookie })).status).toBe(200);
  });

  it("refuses bad updates naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ label: "" }, "label"],
      [{ label: 7 }, "label"],
      [{ allowedDomains: ["https://shop.example?x=1"] }, "allowedDomains"],
      [{ allowedDomains: "https://shop.example" }, "allowedDomains"],
      [{ allowedDomains: Array.from({ length: 11 }, (_, i) => `https://s${i}.example`) }, "allowedDomains"],
      [{ allowedDomains: ["https://twice.example", "https://twice.example"] }, "allowedDomains"],
      [{ status: "deleted" }, "status"],
      [{ operatorWalletAddress: "0x1234567890123456789012345678901234567890" }, "operatorWalletAddress"],
    ];
    for (const [body, field] of cases) {
      const r = await put(a.clientId, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors[0].field, JSON.stringify(body)).toBe(field);
    }
    const ok = await put(a.clientId, { allowedDomains: ["https://new.example", "http://127.0.0.1:8080"] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.allowedDomains).toEqual(["https://new.example", "http://127.0.0.1:8080"]);
  });

  it("another account's client ID answers exactly like a missing one", async () => {
    const asB = { "x-api-key": b.apiKey };
    const strip = (r: { status: number; body: Record<string, unknown> }) => ({
      status: r.status,
      body: { ...r.body, requestId: undefined },
    });
    const missing = "cli_doesnotexist";
    for (const id of [a.clientId, missing]) {
      const got = strip(await call(getOne, `/v2/client-ids/${id}`, { headers: asB, params: { id } }));
      const missingGot = strip(await call(getOne, `/v2/client-ids/${missing}`, { headers: asB, params: { id: missing } }));
      expect(got).toEqual(missingGot);
      expect(got.status).toBe(404);
    }
    expect(strip(await put(a.clientId, { label: "x" }, asB))).toEqual(strip(await put(missing, { label: "x" }, asB)));
    const del = (id: string) => call(revoke, `/v2/client-ids/${id}`, { method: "DELETE", headers: asB, params: { id } });
    expect(strip(await del(a.clientId))).toEqual(strip(await del(missing)));
    expect((await call(getOne, `/v2/client-ids/${a.clientId}`, { headers: asA(), params: { id: a.clientId } })).body.status).toBe("active");
  });

  it("revoking twice is idempotent; an invalid or expired session is 401", async () => {
    const id = (await post({ label: "Twice" })).body.id as string;
    const del = () => call(revoke, `/v2/client-ids/${id}`, { method: "DELETE", headers: asA(), params: { id } });
    expect((await del()).body).toEqual({ id, status: "revoked" });
    expect((await del()).body).toEqual({ id, status: "revoked" });
    expect((await call(list, "/v2/client-ids", { headers: { authorization: "Bearer nope" } })).status).toBe(401);
  });
});
