import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeEach, describe, expect, it } from "vitest";
import { DELETE as deactivate, GET as readOne } from "@/app/v2/payee-destination/[destinationId]/route";
import { POST as create, GET as getActive } from "@/app/v2/payee-destination/route";
import { GET as getSigningData } from "@/app/v2/payee-destination/signing-data/route";
import { createSession } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { prefixedId } from "@/lib/ids";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const PAYEE = "0xFe89cc7aBB2C4183683ab71653C4cdc9B02D44b7";

async function sessionFor(accountId: string, walletAddress?: string) {
  const stored = walletAddress?.startsWith("0x") ? walletAddress.toLowerCase() : walletAddress;
  const existing = stored ? await db().user.findUnique({ where: { walletAddress: stored } }) : null;
  if (existing) return { authorization: `Bearer ${(await createSession(existing, "wallet")).token}` };
  const user = await db().user.create({
    data: {
      id: prefixedId("usr_"),
      accountId,
      walletAddress: walletAddress ? (walletAddress.startsWith("0x") ? walletAddress.toLowerCase() : walletAddress) : null,
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
    // Each wallet is registered by a session that proves control of it (a wallet user of the account).
    const s = await sessionFor(a.account.id, PAYEE);
    const first = await call(create, "/v2/payee-destination", {
      method: "POST",
      headers: s,
      json: { currency: "USDC-mainnet", walletAddress: PAYEE },
    });
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
      headers: await sessionFor(a.account.id, "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW"),
      json: { currency: "USDT-tron", walletAddress: "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW" },
    });
    expect(tron.body.payeeAddress).toMatch(/^TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW@eip155:728126428#[0-9A-F]{8}$/);
    // As the reference: the destination itself (or null), optionally filtered by wallet.
    expect((await call(getActive, "/v2/payee-destination", { headers: s })).body.destinationId).toBe(tron.body.destinationId);
    const q = (w: string) => `/v2/payee-destination?walletAddress=${w}`;
    expect((await call(getActive, q("TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW"), { headers: s })).body.destinationId).toBe(
      tron.body.destinationId,
    );
    expect((await call(getActive, q(PAYEE), { headers: s })).body).toBeNull();
    const params = { destinationId: first.body.destinationId };
    const old = await call(readOne, "/v2/payee-destination/x", { headers: s, params });
    expect(old.body.active).toBe(false);
    const off = await call(deactivate, "/v2/payee-destination/x", {
      method: "DELETE",
      headers: s,
      params: { destinationId: tron.body.destinationId },
    });
    expect(off.body.active).toBe(false);
    expect((await call(getActive, "/v2/payee-destination", { headers: s })).body).toBeNull();
  });

  it("404s another account's destination and needs a session or a client ID", async () => {
    const s = await sessionFor(a.account.id, PAYEE);
    const mine = await call(create, "/v2/payee-destination", {
      method: "POST",
      headers: s,
      json: { currency: "USDC-base", walletAddress: PAYEE },
    });
    const b = await makeIntegrator();
    const other = await sessionFor(b.account.id);
    expect(
      (await call(readOne, "/v2/payee-destination/x", { headers: other, params: { destinationId: mine.body.destinationId } })).status,
    ).toBe(404);
    expect(
      (
        await call(deactivate, "/v2/payee-destination/x", {
          method: "DELETE",
          headers: other,
          params: { destinationId: mine.body.destinationId },
        })
      ).status,
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
    expect(
      (await call(create, "/v2/payee-destination", { method: "POST", headers: s, json: { currency: "USDC-base", walletAddress: PAYEE } }))
        .status,
    ).toBe(403);
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

describe("payee destinations: proof of control (hardening)", () => {
  const signingData = (headers: Record<string, string>, q: Record<string, string>) =>
    call(getSigningData, `/v2/payee-destination/signing-data?${new URLSearchParams(q)}`, { headers });
  const usdcBase = { tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", chainId: "8453" };

  it("refuses to register a wallet an email session has not proven, and tells nothing about who holds it", async () => {
    const email = await sessionFor(a.account.id);
    const res = await call(create, "/v2/payee-destination", {
      method: "POST",
      headers: email,
      json: { currency: "USDC-base", walletAddress: PAYEE },
    });
    expect(res.status).toBe(403);
    expect(await db().payeeDestination.count()).toBe(0);
  });

  it("registers any EVM wallet that signs the EIP-712 signing data; the nonce is single use and bound to the account", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const email = await sessionFor(a.account.id);
    const data = await signingData(email, { walletAddress: wallet.address, action: "add", ...usdcBase });
    expect(data.status).toBe(200);
    const { domain, types, primaryType, message, nonce } = data.body;
    const signature = await wallet.signTypedData({ domain, types, primaryType, message });
    const body = { currency: "USDC-base", walletAddress: wallet.address, nonce, signature };
    // Another account cannot use this account's signed nonce (a bad proof is bad input: 400 naming the field).
    const b = await makeIntegrator();
    const foreign = await call(create, "/v2/payee-destination", { method: "POST", headers: await sessionFor(b.account.id), json: body });
    expect([foreign.status, foreign.body.errors?.[0]?.field]).toEqual([400, "nonce"]);
    const ok = await call(create, "/v2/payee-destination", { method: "POST", headers: email, json: body });
    expect(ok.status).toBe(201);
    expect(ok.body.walletAddress).toBe(wallet.address);
    const replay = await call(create, "/v2/payee-destination", { method: "POST", headers: email, json: body });
    expect([replay.status, replay.body.errors?.[0]?.field]).toEqual([400, "nonce"]);
    // A signature by another key is refused.
    const again = await signingData(email, { walletAddress: wallet.address, action: "add", ...usdcBase });
    const forged = await privateKeyToAccount(generatePrivateKey()).signTypedData({ ...again.body });
    const bad = await call(create, "/v2/payee-destination", {
      method: "POST",
      headers: email,
      json: { ...body, nonce: again.body.nonce, signature: forged },
    });
    expect([bad.status, bad.body.errors?.[0]?.field]).toEqual([400, "signature"]);
  });

  it("never lets another account redirect an account's active destination (W1, W2, W1, then B claims W2)", async () => {
    const w1 = privateKeyToAccount(generatePrivateKey()).address;
    const w2 = privateKeyToAccount(generatePrivateKey()).address;
    const post = async (accountId: string, wallet: string) =>
      call(create, "/v2/payee-destination", {
        method: "POST",
        headers: await sessionFor(accountId, wallet),
        json: { currency: "USDC-base", walletAddress: wallet },
      });
    expect((await post(a.account.id, w1)).status).toBe(201);
    expect((await post(a.account.id, w2)).status).toBe(201);
    expect((await post(a.account.id, w1)).status).toBe(201);
    const before = await db().payeeDestination.findMany({ where: { accountId: a.account.id }, orderBy: { id: "asc" } });
    const b = await makeIntegrator();
    // B's user for W2 is a new user of account B (the wallet user of A already exists, so reuse is impossible): use a raw session.
    const bUser = await db().user.create({ data: { id: prefixedId("usr_"), accountId: b.account.id, email: "b@example.com" } });
    const bSession = { authorization: `Bearer ${(await createSession(bUser, "email")).token}` };
    const claim = await call(create, "/v2/payee-destination", {
      method: "POST",
      headers: bSession,
      json: { currency: "USDC-base", walletAddress: w2 },
    });
    expect([403, 409]).toContain(claim.status);
    const after = await db().payeeDestination.findMany({ where: { accountId: a.account.id }, orderBy: { id: "asc" } });
    expect(after).toEqual(before);
    expect(after.filter((d) => d.active).map((d) => d.walletAddress)).toEqual([w1]);
  });

  it("keeps one active destination per account in the database itself", async () => {
    const w1 = privateKeyToAccount(generatePrivateKey()).address;
    const w2 = privateKeyToAccount(generatePrivateKey()).address;
    await call(create, "/v2/payee-destination", {
      method: "POST",
      headers: await sessionFor(a.account.id, w1),
      json: { currency: "USDC-base" },
    });
    const row = await db().payeeDestination.findFirstOrThrow({ where: { accountId: a.account.id } });
    await expect(
      db().payeeDestination.create({ data: { ...row, id: `${w2}@x`, walletAddress: w2, createdAt: new Date() } }),
    ).rejects.toMatchObject({
      code: "P2002",
    });
  });
});
