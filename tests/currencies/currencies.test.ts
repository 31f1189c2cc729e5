import { beforeEach, describe, expect, it } from "vitest";
import { GET as conversionRoutes } from "@/app/v2/currencies/[currencyId]/conversion-routes/route";
import { GET as listCurrencies } from "@/app/v2/currencies/route";
import { setClientIdStatus } from "@/lib/accounts/issue-credentials";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let it_: Awaited<ReturnType<typeof makeIntegrator>>;

beforeEach(async () => {
  await resetDb();
  it_ = await makeIntegrator();
});

const withKey = () => ({ headers: { "x-api-key": it_.apiKey } });

describe("GET /v2/currencies", () => {
  it("lists the tokens of all 8 networks with the addresses and decimals of docs/spec/chain-data.md", async () => {
    const res = await call(listCurrencies, "/v2/currencies", withKey());
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const networks = new Set(res.body.map((c: { network: string }) => c.network));
    for (const n of ["arbitrum-one", "base", "bsc", "mainnet", "matic", "optimism", "sepolia", "tron"]) expect(networks).toContain(n);
    const usdcBsc = res.body.find((c: { id: string }) => c.id === "USDC-bsc");
    expect(usdcBsc).toEqual({
      id: "USDC-bsc",
      name: "USD Coin",
      symbol: "USDC",
      decimals: 18,
      address: "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d",
      network: "bsc",
      type: "ERC20",
      hash: "0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d",
      chainId: 56,
    });
    expect(res.body.find((c: { id: string }) => c.id === "USDT-tron")).toMatchObject({
      address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      decimals: 6,
      chainId: 728126428,
    });
  });

  it("filters by network and symbol, and firstOnly returns one object", async () => {
    // The 8 networks' tokens first, then the reference catalog's on the same network (Base's native ETH).
    const base = await call(listCurrencies, "/v2/currencies?network=base", withKey());
    expect(base.body.map((c: { id: string }) => c.id)).toEqual(["USDC-base", "USDT-base", "ETH-base-base"]);
    const usdt = await call(listCurrencies, "/v2/currencies?symbol=usdt", withKey());
    expect(usdt.body.slice(0, 8).map((c: { id: string }) => c.id)).toEqual([
      "USDT-mainnet",
      "USDT-arbitrum-one",
      "USDT-optimism",
      "USDT-base",
      "USDT-matic",
      "USDT-bsc",
      "USDT-tron",
      "USDT-sepolia",
    ]);
    // …and the catalog's USDT elsewhere (Avalanche, Celo, …), every one named USDT.
    expect(usdt.body.length).toBeGreaterThan(8);
    expect(usdt.body.every((c: { symbol: string }) => c.symbol === "USDT")).toBe(true);
    const first = await call(listCurrencies, "/v2/currencies?network=matic&symbol=USDC&firstOnly=true", withKey());
    expect(first.body).toMatchObject({ id: "USDC-matic", address: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359" });
    const none = await call(listCurrencies, "/v2/currencies?network=tron&symbol=DAI", withKey());
    expect(none.body).toEqual([]);
  });

  it("finds a currency by id, fiat included, and 404s an unknown id", async () => {
    const byId = await call(listCurrencies, "/v2/currencies?id=USDT0-optimism", withKey());
    expect(byId.body).toMatchObject({ id: "USDT0-optimism", address: "0x01bFF41798a0BcF287b996046Ca68b395DbC1071" });
    const usd = await call(listCurrencies, "/v2/currencies?id=USD", withKey());
    expect(usd.body).toMatchObject({ id: "USD", type: "ISO4217", decimals: 2, hash: "0x775eb53d00dd0acd3ec1696472105d579b9b386b" });
    const unknown = await call(listCurrencies, "/v2/currencies?id=DOGE-mainnet", withKey());
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      statusCode: 404,
      error: "Not Found",
      message: "Token not found",
      code: "not_found",
      requestId: unknown.headers.get("x-request-id"),
    });
  });

  it("answers firstOnly=maybe with 400 naming the field", async () => {
    const res = await call(listCurrencies, "/v2/currencies?firstOnly=maybe", withKey());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: "Bad Request",
      message: "Validation failed",
      code: "validation_failed",
      errors: [{ field: "firstOnly", message: "firstOnly must be 'true' or 'false' if provided" }],
      requestId: res.headers.get("x-request-id"),
    });
  });

  it("answers an unknown network with 400 naming the field", async () => {
    const res = await call(listCurrencies, "/v2/currencies?network=dogechain", withKey());
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("network");
  });

  it("401 without credentials and with a wrong key", async () => {
    const none = await call(listCurrencies, "/v2/currencies");
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ statusCode: 401, error: "Unauthorized", code: "unauthorized" });
    const wrong = await call(listCurrencies, "/v2/currencies", { headers: { "x-api-key": `${it_.apiKey}x` } });
    expect(wrong.status).toBe(401);
    const unknownClient = await call(listCurrencies, "/v2/currencies", { headers: { "x-client-id": "cli_nope" } });
    expect(unknownClient.status).toBe(401);
  });

  it("accepts a client ID from a server and from an allowed browser origin", async () => {
    const server = await call(listCurrencies, "/v2/currencies?network=tron", { headers: { "x-client-id": it_.clientId } });
    expect(server.status).toBe(200);
    const browser = await call(listCurrencies, "/v2/currencies?network=tron", {
      headers: { "x-client-id": it_.browserClientId, origin: "https://shop.example" },
    });
    expect(browser.status).toBe(200);
  });

  it("403 for a browser Origin outside the allowed domains", async () => {
    const res = await call(listCurrencies, "/v2/currencies", {
      headers: { "x-client-id": it_.browserClientId, origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("origin_not_allowed");
    const backendFromBrowser = await call(listCurrencies, "/v2/currencies", {
      headers: { "x-client-id": it_.clientId, origin: "https://shop.example" },
    });
    expect(backendFromBrowser.status).toBe(403);
  });

  it("403 for a revoked or restricted client ID", async () => {
    await setClientIdStatus(it_.clientId, "revoked");
    const revoked = await call(listCurrencies, "/v2/currencies", { headers: { "x-client-id": it_.clientId } });
    expect(revoked.status).toBe(403);
    expect(revoked.body).toMatchObject({ code: "client_id_inactive", message: "Client ID is revoked" });
    await setClientIdStatus(it_.clientId, "restricted");
    const restricted = await call(listCurrencies, "/v2/currencies", { headers: { "x-client-id": it_.clientId } });
    expect(restricted.status).toBe(403);
  });

  it("403 for a valid orchestrator key, which this operation does not accept; 401 for a bad one", async () => {
    const res = await call(listCurrencies, "/v2/currencies", { headers: { "x-orchestrator-key": it_.orchestratorKey } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("credential_not_allowed");
    const bad = await call(listCurrencies, "/v2/currencies", { headers: { "x-orchestrator-key": "orc_nope" } });
    expect(bad.status).toBe(401);
  });

  it("echoes a sane incoming x-request-id and replaces a hostile one", async () => {
    const ok = await call(listCurrencies, "/v2/currencies", { headers: { "x-api-key": it_.apiKey, "x-request-id": "trace-12345678" } });
    expect(ok.headers.get("x-request-id")).toBe("trace-12345678");
    const bad = await call(listCurrencies, "/v2/currencies", { headers: { "x-api-key": it_.apiKey, "x-request-id": "<script>" } });
    expect(bad.headers.get("x-request-id")).not.toBe("<script>");
  });
});

describe("GET /v2/currencies/{currencyId}/conversion-routes", () => {
  const get = (id: string, qs = "") =>
    call(conversionRoutes, `/v2/currencies/${id}/conversion-routes${qs}`, { ...withKey(), params: { currencyId: id } });

  it("lists the stablecoins a USD invoice can be paid with", async () => {
    const res = await get("USD");
    expect(res.status).toBe(200);
    expect(res.body.currencyId).toBe("USD");
    expect(res.body.network).toBeNull();
    const ids = res.body.conversionRoutes.map((c: { id: string }) => c.id);
    expect(ids).toContain("USDC-base");
    expect(ids).toContain("DAI-mainnet");
    expect(ids).toContain("FAU-sepolia");
    expect(ids).not.toContain("USDT0-arbitrum-one");
  });

  it("filters by network and by networks", async () => {
    const one = await get("EUR", "?network=mainnet");
    expect(one.body).toMatchObject({ currencyId: "EUR", network: "mainnet" });
    expect(one.body.conversionRoutes.map((c: { id: string }) => c.id)).toEqual(["USDC-mainnet", "USDT-mainnet", "DAI-mainnet"]);
    const many = await get("USD", "?networks=base,matic");
    expect(many.body.networks).toEqual(["base", "matic"]);
    expect(many.body.conversionRoutes.map((c: { id: string }) => c.id)).toEqual(["USDC-base", "USDT-base", "USDC-matic", "USDT-matic"]);
    const bad = await get("USD", "?networks=base,nowhere");
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("networks");
  });

  it("404 for an unknown currency", async () => {
    const res = await get("XYZ");
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Token not found");
  });
});
