import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeEach, describe, expect, it } from "vitest";
import { DELETE as deactivate, GET as readOne } from "@/app/v2/payee-destination/[destinationId]/route";
import { POST as create, GET as getActive } from "@/app/v2/payee-destination/route";
import { createSession } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { prefixedId } from "@/lib/ids";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const PAYEE = "0xFe89cc7aBB2C4183683ab71653C4cdc9B02D44b7";

async function sessionFor(accountId: string, walletAddress?: string) {
  const user = await db().user.create({
    data: {
      id: prefixedId("usr_"),
      accountId,
      walletAddress: walletAddress?.toLowerCase() ?? null,
      email: walletAddress ? null : `${prefixedId("u")}@example.com`,
    },
  });
  return { authorization: `Bearer ${(await createSession(user, walletAddress ? "wallet" : "email")).token}` };
}

let a: Awaited<ReturnType<typeof makeIntegrator>>;
beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
});

describe("payee destinations", () => {
  it("creates an ERC-7828 destination, keeps one active per account, reads and deactivates it", async () => {
    const s = await sessionFor(a.account.id);
    const first = await call(create, "/v2/payee-destination", { method: "POST", headers: s, json: { currency: "USDC-mainnet", walletAddress: PAYEE } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      destinationId: `${PAYEE}@eip155:1#80B12379:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48`,
      payeeAddress: `${PAYEE}@eip155:1#80B12379`,
      walletAddress: PAYEE,
      network: "mainnet",
      currency: "USDC-mainnet",
      active: true,
    });
    const tron = await call(create, "/v2/payee-destination", {
      method: "POST",
      headers: s,
      json: { currency: "USDT-tron", walletAddress: "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW" },
    });
    expect(tron.body.payeeAddress).toMatch(/^TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW@eip155:728126428#[0-9A-F]{8}$/);
    expect((await call(getActive, "/v2/payee-destination", { headers: s })).body.destination.destinationId).toBe(tron.body.destinationId);
    const params = { destinationId: first.body.destinationId };
    const old = await call(readOne, "/v2/payee-destination/x", { headers: s, params });
    expect(old.body.active).toBe(false);
    const off = await call(deactivate, "/v2/payee-destination/x", { method: "DELETE", headers: s, params: { destinationId: tron.body.destinationId } });
    expect(off.body.active).toBe(false);
    expect((await call(getActive, "/v2/payee-destination", { headers: s })).body.destination).toBeNull();
  });

  it("404s another account's destination and needs a session", async () => {
    const s = await sessionFor(a.account.id);
    const mine = await call(create, "/v2/payee-destination", { method: "POST", headers: s, json: { currency: "USDC-base", walletAddress: PAYEE } });
    const b = await makeIntegrator();
    const other = await sessionFor(b.account.id);
    expect((await call(readOne, "/v2/payee-destination/x", { headers: other, params: { destinationId: mine.body.destinationId } })).status).toBe(404);
    expect(
      (await call(deactivate, "/v2/payee-destination/x", { method: "DELETE", headers: other, params: { destinationId: mine.body.destinationId } })).status,
    ).toBe(404);
    expect((await call(getActive, "/v2/payee-destination", { headers: { "x-api-key": a.apiKey } })).status).toBe(403);
    expect((await call(getActive, "/v2/payee-destination")).status).toBe(401);
  });

  it("lets a wallet session register only its own address, by default that one", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const s = await sessionFor(a.account.id, wallet);
    const own = await call(create, "/v2/payee-destination", { method: "POST", headers: s, json: { currency: "USDC-base" } });
    expect(own.status).toBe(201);
    expect(own.body.walletAddress).toBe(wallet);
    expect((await call(create, "/v2/payee-destination", { method: "POST", headers: s, json: { currency: "USDC-base", walletAddress: PAYEE } })).status).toBe(
      403,
    );
  });

  it.each([
    [{ currency: "USDT0-arbitrum-one", walletAddress: PAYEE }, "currency"],
    [{ currency: "DOGE-mainnet", walletAddress: PAYEE }, "currency"],
    [{ currency: "USDC-base", walletAddress: "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW" }, "walletAddress"],
    [{ currency: "USDC-base" }, "walletAddress"],
  ])("rejects %j naming %s", async (json, field) => {
    const res = await call(create, "/v2/payee-destination", { method: "POST", headers: await sessionFor(a.account.id), json });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
  });
});
