/**
 * The reference's auth-service paths /v1/client-ids and /v1/payee-destination serve the /v2
 * operations unchanged: same bodies, credentials, answers and account scoping.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { GET as getOneV1, DELETE as revokeV1, PUT as updateV1 } from "@/app/v1/client-ids/[id]/route";
import { POST as createV1, GET as listV1 } from "@/app/v1/client-ids/route";
import { POST as deactivateV1 } from "@/app/v1/payee-destination/deactivate/route";
import { GET as lookupV1 } from "@/app/v1/payee-destination/lookup/route";
import { GET as payoutLookupV1 } from "@/app/v1/payee-destination/payout-lookup/route";
import { GET as destinationsV1 } from "@/app/v1/payee-destination/route";
import { GET as signingDataV1 } from "@/app/v1/payee-destination/signing-data/route";
import { GET as listV2 } from "@/app/v2/client-ids/route";
import { POST as createDestinationV2, GET as destinationsV2 } from "@/app/v2/payee-destination/route";
import { OPERATIONS } from "@/lib/operations/index";
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

describe("/v1 aliases of the reference's auth service", () => {
  it("/v1/client-ids creates, lists, reads, updates and revokes exactly as /v2/client-ids", async () => {
    const created = await call(createV1, "/v1/client-ids", {
      method: "POST",
      headers: asA(),
      json: { label: "Via v1", allowedDomains: ["https://v1.example"] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const v1 = await call(listV1, "/v1/client-ids", { headers: asA() });
    const v2 = await call(listV2, "/v2/client-ids", { headers: asA() });
    expect(v1.body).toEqual(v2.body);
    expect((await call(getOneV1, `/v1/client-ids/${id}`, { headers: asA(), params: { id } })).body.label).toBe("Via v1");
    const put = await call(updateV1, `/v1/client-ids/${id}`, { method: "PUT", headers: asA(), json: { label: "Renamed" }, params: { id } });
    expect(put.body.label).toBe("Renamed");
    // Another account's client ID is not found, as on /v2.
    const foreign = await call(getOneV1, `/v1/client-ids/${id}`, { headers: { "x-api-key": b.apiKey }, params: { id } });
    expect(foreign.status).toBe(404);
    expect((await call(revokeV1, `/v1/client-ids/${id}`, { method: "DELETE", headers: asA(), params: { id } })).status).toBeLessThan(300);
    // Bad input names the field, signed out is 401.
    const bad = await call(createV1, "/v1/client-ids", {
      method: "POST",
      headers: asA(),
      json: { label: "x", allowedDomains: ["not a url"] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toMatch(/^allowedDomains/);
    expect((await call(listV1, "/v1/client-ids", {})).status).toBe(401);
  });

  it("/v1/payee-destination answers as /v2/payee-destination", async () => {
    const v1 = await call(destinationsV1, "/v1/payee-destination", { headers: asA() });
    const v2 = await call(destinationsV2, "/v2/payee-destination", { headers: asA() });
    expect(v1.status).toBe(v2.status);
    expect(v1.body).toEqual(v2.body);
    const data = await call(signingDataV1, "/v1/payee-destination/signing-data?tokenAddress=0xnot", { headers: asA() });
    expect(data.status).toBe(400);
  });

  it("/v1/payee-destination/lookup and payout-lookup find a wallet's destination; deactivate takes it in the body", async () => {
    const wallet = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
    const created = await call(createDestinationV2, "/v2/payee-destination", {
      method: "POST",
      headers: asA(),
      json: { currency: "USDC-base", walletAddress: wallet },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const destinationId = created.body.destinationId as string;
    for (const [handler, path] of [
      [lookupV1, "/v1/payee-destination/lookup"],
      [payoutLookupV1, "/v1/payee-destination/payout-lookup"],
    ] as const) {
      const found = await call(handler, `${path}?walletAddress=${wallet}`, { headers: asA() });
      expect(found.status, path).toBe(200);
      expect(found.body).toMatchObject({ destinationId, walletAddress: wallet, active: true });
      expect((await call(handler, `${path}?walletAddress=${wallet}`, { headers: { "x-client-id": b.clientId } })).body).toBeNull();
    }
    const deactivate = (json: unknown, headers: Record<string, string>) =>
      call(deactivateV1, "/v1/payee-destination/deactivate", { method: "POST", headers, json });
    expect((await deactivate({ destinationId }, { "x-client-id": b.clientId })).status).toBe(404);
    expect((await deactivate({}, asA())).body.errors[0].field).toBe("destinationId");
    const done = await deactivate({ destinationId }, asA());
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ destinationId, active: false });
  });

  it("every alias is registered (OpenAPI, matrix, fuzz) with the original's credentials", () => {
    const v1 = OPERATIONS.filter((op) => op.path.startsWith("/v1/client-ids") || op.path.startsWith("/v1/payee-destination"));
    expect(v1).toHaveLength(13);
    // The auth service's own routes: the lookups read the active destination, deactivate names it in the body.
    const ORIGINAL: Record<string, string> = {
      "GET /v1/payee-destination/lookup": "GET /v2/payee-destination",
      "GET /v1/payee-destination/payout-lookup": "GET /v2/payee-destination",
      "POST /v1/payee-destination/deactivate": "DELETE /v2/payee-destination/{destinationId}",
    };
    for (const alias of v1) {
      const key = ORIGINAL[`${alias.method} ${alias.path}`] ?? `${alias.method} ${alias.path.replace("/v1/", "/v2/")}`;
      const original = OPERATIONS.find((op) => `${op.method} ${op.path}` === key);
      expect(original, alias.path).toBeDefined();
      expect(alias.auth).toEqual(original!.auth);
    }
  });
});
