import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { beforeEach, describe, expect, it } from "vitest";
import { DELETE as deactivateV1, GET as readOneV1 } from "@/app/v1/payee-destination/[destinationId]/route";
import { DELETE as deactivate, GET as readOne } from "@/app/v2/payee-destination/[destinationId]/route";
import { POST as create, GET as getActive } from "@/app/v2/payee-destination/route";
import { GET as getSigningData } from "@/app/v2/payee-destination/signing-data/route";
import { db } from "@/lib/db";
import { bindClientIdDestination } from "@/lib/destinations/destinations";
import { prefixedId } from "@/lib/ids";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

/**
 * The reference's client-ID flow for payee destinations: `x-client-id` + `Origin`, no session, so
 * the wallet proves control with the EIP-712 signing data (GET signing-data → the wallet signs →
 * POST or DELETE with `{nonce, signature}`). The account is the client ID's.
 */
const SHOP = "https://shop.example";
const USDC_BASE = { tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", chainId: "8453" };
const USDT_BASE = { tokenAddress: "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2", chainId: "8453" };

type Integrator = Awaited<ReturnType<typeof makeIntegrator>>;
let a: Integrator;
let wallet: PrivateKeyAccount;
const browser = (who: Integrator = a, origin = SHOP) => ({ "x-client-id": who.browserClientId, origin });

/** The account's own wallet, as after a wallet sign-in (a wallet user of the account). */
async function walletUserOf(accountId: string, account: PrivateKeyAccount) {
  await db().user.create({ data: { id: prefixedId("usr_"), accountId, walletAddress: account.address.toLowerCase() } });
}

/** GET signing-data, then the wallet's signature of it: the reference body `{nonce, signature}`. */
async function signed(
  headers: Record<string, string>,
  signer: PrivateKeyAccount,
  action: "add" | "deactivate",
  token = USDC_BASE,
  walletAddress = signer.address,
) {
  const q = new URLSearchParams({ walletAddress, action, ...token });
  const data = await call(getSigningData, `/v2/payee-destination/signing-data?${q}`, { headers });
  expect(data.status, JSON.stringify(data.body)).toBe(200);
  const { domain, types, primaryType, message, nonce } = data.body;
  return { nonce, signature: await signer.signTypedData({ domain, types, primaryType, message }) };
}

const post = (headers: Record<string, string>, json: unknown) => call(create, "/v2/payee-destination", { method: "POST", headers, json });
const remove = (headers: Record<string, string>, destinationId: string, json?: unknown) =>
  call(deactivate, "/v2/payee-destination/x", { method: "DELETE", headers, params: { destinationId }, json });
const lookup = (headers: Record<string, string>, walletAddress?: string) =>
  call(getActive, `/v2/payee-destination${walletAddress ? `?walletAddress=${walletAddress}` : ""}`, { headers });
const field = (res: { body: { errors?: { field: string }[] } }) => res.body.errors?.[0]?.field;

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator({ domains: [SHOP] });
  wallet = privateKeyToAccount(generatePrivateKey());
  await walletUserOf(a.account.id, wallet);
});

describe("payee destinations with x-client-id + Origin", () => {
  it("signing-data → signature → POST → lookups → deactivate with a fresh signature (and /v1 alike)", async () => {
    const created = await post(browser(), await signed(browser(), wallet, "add"));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ walletAddress: wallet.address, currency: "USDC-base", network: "base", active: true });
    const id = created.body.destinationId as string;
    expect(id).toMatch(new RegExp(`^${wallet.address}@eip155:8453#[0-9A-F]{8}:${USDC_BASE.tokenAddress}$`));
    expect((await db().payeeDestination.findUniqueOrThrow({ where: { id } })).accountId).toBe(a.account.id);

    // Lookups: the active one by wallet (null for another wallet), one by ID, on /v1 too.
    expect((await lookup(browser(), wallet.address)).body).toEqual(created.body);
    expect((await lookup(browser(), wallet.address.toLowerCase())).body.destinationId).toBe(id);
    expect((await lookup(browser(), privateKeyToAccount(generatePrivateKey()).address)).body).toBeNull();
    const noWallet = await lookup(browser());
    expect([noWallet.status, field(noWallet)]).toEqual([400, "walletAddress"]);
    const one = await call(readOne, "/v2/payee-destination/x", { headers: browser(), params: { destinationId: id } });
    expect([one.status, one.body]).toEqual([200, created.body]);
    const v1 = await call(readOneV1, "/v1/payee-destination/x", { headers: browser(), params: { destinationId: id } });
    expect([v1.status, v1.body]).toEqual([200, created.body]);

    // Deactivation needs the wallet's signature of the `deactivate` signing data.
    const bare = await remove(browser(), id);
    expect([bare.status, field(bare)]).toEqual([400, "nonce"]);
    const withAddNonce = await remove(browser(), id, await signed(browser(), wallet, "add"));
    expect([withAddNonce.status, field(withAddNonce)]).toEqual([400, "nonce"]);
    const proof = await signed(browser(), wallet, "deactivate");
    const off = await call(deactivateV1, "/v1/payee-destination/x", {
      method: "DELETE",
      headers: browser(),
      params: { destinationId: id },
      json: proof,
    });
    expect([off.status, off.body.active]).toEqual([200, false]);
    expect((await lookup(browser(), wallet.address)).body).toBeNull();
    const again = await remove(browser(), id, proof);
    expect([again.status, field(again)]).toEqual([400, "nonce"]);
  });

  it("refuses a foreign Origin, a missing Origin and the wrong kind of credential", async () => {
    const proof = await signed(browser(), wallet, "add");
    const refused: Record<string, string>[] = [
      browser(a, "https://evil.example"),
      { "x-client-id": a.browserClientId },
      { "x-api-key": a.apiKey },
    ];
    for (const headers of refused) {
      expect((await post(headers, proof)).status).toBe(403);
      expect((await lookup(headers, wallet.address)).status).toBe(403);
      const q = new URLSearchParams({ walletAddress: wallet.address, action: "add", ...USDC_BASE });
      expect((await call(getSigningData, `/v2/payee-destination/signing-data?${q}`, { headers })).status).toBe(403);
    }
    expect((await post({}, proof)).status).toBe(401);
    // The refused calls used nothing: the nonce still registers.
    expect((await post(browser(), proof)).status).toBe(201);
  });

  it("answers 400 naming the field for a replayed nonce, another wallet's signature and a body that differs from the signed data", async () => {
    const proof = await signed(browser(), wallet, "add");
    expect(
      (await post(browser(), { ...proof, currency: "USDC-base", walletAddress: wallet.address, ...USDC_BASE, chainId: 8453 })).status,
    ).toBe(201);
    const replay = await post(browser(), proof);
    expect([replay.status, field(replay)]).toEqual([400, "nonce"]);

    const fresh = await signed(browser(), wallet, "add");
    const q = new URLSearchParams({ walletAddress: wallet.address, action: "add", ...USDC_BASE });
    const data = (await call(getSigningData, `/v2/payee-destination/signing-data?${q}`, { headers: browser() })).body;
    const forged = await privateKeyToAccount(generatePrivateKey()).signTypedData(data);
    const byOther = await post(browser(), { nonce: data.nonce, signature: forged });
    expect([byOther.status, field(byOther)]).toEqual([400, "signature"]);
    for (const [extra, name] of [
      [{ tokenAddress: USDT_BASE.tokenAddress }, "tokenAddress"],
      [{ chainId: "1" }, "chainId"],
      [{ currency: "USDT-base" }, "nonce"],
      [{ walletAddress: privateKeyToAccount(generatePrivateKey()).address }, "nonce"],
      [{ signature: "0x1234" }, "signature"],
      [{ signature: undefined }, "signature"],
      [{ nonce: undefined }, "nonce"],
      [{ nonce: "0".repeat(32) }, "nonce"],
    ] as const) {
      const res = await post(browser(), { ...fresh, ...extra });
      expect([res.status, field(res)], JSON.stringify(extra)).toEqual([400, name]);
    }
    // None of those spent the fresh nonce.
    expect((await post(browser(), fresh)).status).toBe(201);
    const unsupported = await call(
      getSigningData,
      `/v2/payee-destination/signing-data?${new URLSearchParams({ walletAddress: wallet.address, action: "add", tokenAddress: wallet.address, chainId: "8453" })}`,
      { headers: browser() },
    );
    expect([unsupported.status, field(unsupported)]).toEqual([400, "tokenAddress"]);
  });

  it("keeps accounts apart: another account's destination is 404, its nonce is not this account's", async () => {
    const created = await post(browser(), await signed(browser(), wallet, "add"));
    const id = created.body.destinationId as string;
    const b = await makeIntegrator({ domains: [SHOP] });
    const asB = browser(b);
    expect((await call(readOne, "/v2/payee-destination/x", { headers: asB, params: { destinationId: id } })).status).toBe(404);
    expect((await remove(asB, id, await signed(asB, wallet, "deactivate"))).status).toBe(404);
    expect((await remove({ "x-client-id": b.clientId }, id)).status).toBe(404);
    expect((await lookup(asB, wallet.address)).body).toBeNull();
    // A's nonce, signed by A's wallet, presented with B's client ID.
    const aNonce = await post(asB, await signed(browser(), wallet, "add", USDT_BASE));
    expect([aNonce.status, field(aNonce)]).toEqual([400, "nonce"]);
    // A's wallet signing for B: not a wallet B trusts (and B cannot take A's destination either).
    const claim = await post(asB, await signed(asB, wallet, "add"));
    expect([403, 409]).toContain(claim.status);
    expect((await db().payeeDestination.findUniqueOrThrow({ where: { id } })).active).toBe(true);
    expect(await db().payeeDestination.count({ where: { accountId: b.account.id } })).toBe(0);
  });
});

describe("what a client ID may register (client IDs are public: the signature proves a wallet, not the account)", () => {
  it("refuses a wallet the account does not trust, and leaves the active destination alone", async () => {
    const mine = await post(browser(), await signed(browser(), wallet, "add"));
    const stranger = privateKeyToAccount(generatePrivateKey());
    const res = await post(browser(), await signed(browser(), stranger, "add"));
    expect([res.status, res.body.code]).toEqual([403, "forbidden"]);
    expect((await lookup(browser(), wallet.address)).body.destinationId).toBe(mine.body.destinationId);
    expect(await db().payeeDestination.count()).toBe(1);
  });

  it("lets the active destination's wallet change token, and the server client ID do it without Origin", async () => {
    // An email account: its destination's wallet was registered from a session; not a wallet user.
    const c = await makeIntegrator({ domains: [SHOP] });
    const payee = privateKeyToAccount(generatePrivateKey());
    await walletUserOf(c.account.id, payee);
    expect((await post(browser(c), await signed(browser(c), payee, "add"))).status).toBe(201);
    await db().user.deleteMany({ where: { accountId: c.account.id } });
    const server = { "x-client-id": c.clientId };
    const usdt = await post(server, await signed(server, payee, "add", USDT_BASE));
    expect([usdt.status, usdt.body.currency]).toEqual([201, "USDT-base"]);
    // The previous destination (USDC) is no longer active: its wallet is still the active one's.
    const back = await post(server, await signed(server, payee, "add"));
    expect([back.status, back.body.currency]).toEqual([201, "USDC-base"]);
  });

  it("a client ID bound to a destination re-registers only that one", async () => {
    const d1 = await post(browser(), await signed(browser(), wallet, "add"));
    await bindClientIdDestination(a.account.id, a.browserClientId, d1.body.destinationId);
    const other = await post(browser(), await signed(browser(), wallet, "add", USDT_BASE));
    expect([other.status, other.body.code]).toEqual([403, "destination_mismatch"]);
    const same = await post(browser(), await signed(browser(), wallet, "add"));
    expect([same.status, same.body.destinationId]).toEqual([201, d1.body.destinationId]);
    // The unbound server client ID of the same account may, with the account's wallet.
    const server = { "x-client-id": a.clientId };
    expect((await post(server, await signed(server, wallet, "add", USDT_BASE))).status).toBe(201);
  });

  it("a Tron destination is deactivated from a session, not with a client ID signature", async () => {
    const tron = "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW";
    const id = `${tron}@eip155:728126428#00000000:TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t`;
    await db().payeeDestination.create({
      data: {
        id,
        accountId: a.account.id,
        walletAddress: tron,
        network: "tron",
        chainId: 728126428,
        tokenAddress: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
        tokenSymbol: "USDT",
      },
    });
    const res = await remove(browser(), id, { nonce: "n".repeat(32), signature: `0x${"11".repeat(65)}` });
    expect([res.status, field(res)]).toEqual([400, "destinationId"]);
  });
});
