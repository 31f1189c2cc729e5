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
