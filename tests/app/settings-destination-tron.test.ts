/**
 * Settings' self-service Tron destination (issue 27): an email account's user asks for the text a
 * Tron wallet signs (TRON message v2 over the signing data: action, account, wallet, token, chain,
 * nonce, expiry), the wallet signs it — here tronweb's Trx.signMessageV2, an independent signer
 * standing in for TronLink, never Duebill's own hashing — and POST /v2/payee-destination's rules
 * register it. Replay, another wallet's signature, an expired nonce, a malformed signature or
 * another currency than signed: refused naming the field, nothing registered. Real Postgres.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
    delete: (name: string) => void jar.delete(name),
  }),
  headers: async () => new Headers({ "x-forwarded-for": "203.0.113.11" }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { TronWeb, Trx } from "tronweb";
import { generatePrivateKey } from "viem/accounts";
import { saveSignedDestinationAction, tronDestinationMessageAction } from "@/app/dashboard/settings/actions";
import { hashPassword } from "@/lib/auth/passwords";
import { createSession, SESSION_COOKIE } from "@/lib/auth/sessions";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { prefixedId, ulid } from "@/lib/ids";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";

const USDT_TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const key = generatePrivateKey();
const strangerKey = generatePrivateKey();
/** Addresses as tronweb derives them (not Duebill's hexToTron). */
const tronAddressOf = (k: `0x${string}`) => TronWeb.address.fromPrivateKey(k.slice(2)) as string;
const wallet = tronAddressOf(key);
/** TRON message v2 by tronweb, as TronLink's signMessageV2 signs. */
const tronSign = (k: `0x${string}`, message: string) => Trx.signMessageV2(message, k.slice(2)) as string;

let accountId = "";
let accountName = "";
let token = "";

beforeAll(async () => {
  await resetDb();
  const a = await makeIntegrator();
  accountId = a.account.id;
  accountName = a.account.name;
  const user = await db().user.create({
    data: {
      id: prefixedId("usr_"),
      accountId,
      email: `tron-merchant-${ulid()}@settings.test`,
      passwordHash: await hashPassword("first-day-pass"),
    },
  });
  token = (await createSession(user, "email")).token;
});

afterEach(() => {
  jar.clear();
  setClock(null);
});

const active = () => db().payeeDestination.findFirst({ where: { accountId, active: true } });
const count = () => db().payeeDestination.count({ where: { accountId } });

async function prepare(currency = "USDT-tron", address = wallet) {
  const out = await tronDestinationMessageAction({ currency, walletAddress: address });
  expect(out.error).toBeNull();
  return out.data!;
}

describe("Settings: connect TronLink and sign, no curl", () => {
  it("the message states the action, account, wallet, currency, nonce and expiry; signed by the wallet it registers USDT on Tron", async () => {
    jar.set(SESSION_COOKIE, token);
    const data = await prepare();
    expect(data.message).toContain(`Register this wallet as the payment destination of ${accountName} for USDT-tron.`);
    for (const line of [
      "Action: add",
      `Account: ${accountId}`,
      `Wallet: ${wallet}`,
      `Token: ${USDT_TRON}`,
      "Chain ID: 728126428",
      `Nonce: ${data.nonce}`,
      `Expires At: ${data.expiresAt}`,
    ])
      expect(data.message.split("\n")).toContain(line);
    expect(new Date(data.expiresAt).getTime() - Date.now()).toBeGreaterThan(4 * 60_000);

    const signature = tronSign(key, data.message);
    const saved = await saveSignedDestinationAction({ currency: "USDT-tron", walletAddress: wallet, nonce: data.nonce, signature });
    expect(saved).toEqual({ error: null, done: `Payments now go to ${wallet} (USDT-tron)` });
    expect(await active()).toMatchObject({
      walletAddress: wallet,
      network: "tron",
      tokenSymbol: "USDT",
      tokenAddress: USDT_TRON,
      chainId: 728126428,
    });

    // Replay of the same nonce and signature: refused naming the nonce.
    const before = await db().payeeDestination.findMany({ where: { accountId }, orderBy: { id: "asc" } });
    const replay = await saveSignedDestinationAction({ currency: "USDT-tron", walletAddress: wallet, nonce: data.nonce, signature });
    expect(replay.field).toBe("nonce");
    expect(replay.error).toMatch(/^nonce: unknown, used or expired/);
    expect(await db().payeeDestination.findMany({ where: { accountId }, orderBy: { id: "asc" } })).toEqual(before);
  });

  it("USDC on Tron too: a new destination replaces the active one (one active destination)", async () => {
    jar.set(SESSION_COOKIE, token);
    const data = await prepare("USDC-tron");
    expect(data.message).toContain("for USDC-tron.");
    const saved = await saveSignedDestinationAction({
      currency: "USDC-tron",
      walletAddress: wallet,
      nonce: data.nonce,
      signature: tronSign(key, data.message),
    });
    expect(saved.error).toBeNull();
    const all = await db().payeeDestination.findMany({ where: { accountId } });
    expect(all.filter((d) => d.active)).toEqual([expect.objectContaining({ tokenSymbol: "USDC", network: "tron" })]);
    expect(all).toHaveLength(2);
  });

  it("another wallet's signature, a malformed one, a changed text, another wallet or currency than signed: refused naming the field, nothing registered", async () => {
    jar.set(SESSION_COOKIE, token);
    const before = await db().payeeDestination.findMany({ where: { accountId }, orderBy: { id: "asc" } });
    const data = await prepare();
    const save = (over: Partial<{ currency: string; walletAddress: string; signature: string }>) =>
      saveSignedDestinationAction({ currency: "USDT-tron", walletAddress: wallet, nonce: data.nonce, signature: "", ...over });

    const stranger = await save({ signature: tronSign(strangerKey, data.message) });
    expect(stranger).toMatchObject({ field: "signature", error: "signature: is not the wallet's signature of the signing data" });
    // The stranger claiming its own wallet with the nonce issued for ours: the nonce names another wallet.
    const claim = await save({ walletAddress: tronAddressOf(strangerKey), signature: tronSign(strangerKey, data.message) });
    expect(claim.field).toBe("nonce");
    // The wallet signing another text (a forged account line) does not prove this one.
    const forged = data.message.replace(`Account: ${accountId}`, "Account: acc_someone_else");
    expect((await save({ signature: tronSign(key, forged) })).field).toBe("signature");
    for (const bad of ["0x12", "not hex", `0x${"zz".repeat(65)}`, tronSign(key, data.message).slice(0, 100)])
      expect((await save({ signature: bad })).field, bad).toBe("signature");
    // Signed for USDT-tron, sent as USDC-tron.
    expect((await save({ currency: "USDC-tron", signature: tronSign(key, data.message) })).field).toBe("nonce");

    expect(await db().payeeDestination.findMany({ where: { accountId }, orderBy: { id: "asc" } })).toEqual(before);
    // None of the refusals used the nonce up: the right signature still registers.
    const ok = await save({ signature: tronSign(key, data.message) });
    expect(ok.error).toBeNull();
    expect((await active())?.tokenSymbol).toBe("USDT");
  });

  it("an expired nonce is refused naming the nonce, nothing registered", async () => {
    jar.set(SESSION_COOKIE, token);
    const data = await prepare("USDC-tron");
    const n = await count();
    const start = Date.now();
    setClock(() => start + 5 * 60_000 + 1_000);
    const out = await saveSignedDestinationAction({
      currency: "USDC-tron",
      walletAddress: wallet,
      nonce: data.nonce,
      signature: tronSign(key, data.message),
    });
    expect(out.field).toBe("nonce");
    expect(out.error).toMatch(/expired/);
    expect(await count()).toBe(n);
    expect((await active())?.tokenSymbol).toBe("USDT");
  });

  it("bad input to the message: an EVM wallet, a bad address, an EVM currency, an unknown one", async () => {
    jar.set(SESSION_COOKIE, token);
    const evm = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    expect((await tronDestinationMessageAction({ currency: "USDT-tron", walletAddress: evm })).field).toBe("walletAddress");
    expect((await tronDestinationMessageAction({ currency: "USDT-tron", walletAddress: "T123" })).field).toBe("walletAddress");
    expect((await tronDestinationMessageAction({ currency: "USDT-tron", walletAddress: "T".repeat(500) })).field).toBe("walletAddress");
    expect((await tronDestinationMessageAction({ currency: "USDC-base", walletAddress: wallet })).field).toBe("currency");
    expect((await tronDestinationMessageAction({ currency: "DOGE-tron", walletAddress: wallet })).field).toBe("currency");
    expect((await tronDestinationMessageAction({ currency: "TRX-tron", walletAddress: wallet })).field).toBe("currency");
  });

  it("signed out: refused, no message", async () => {
    const out = await tronDestinationMessageAction({ currency: "USDT-tron", walletAddress: wallet });
    expect(out.error).toMatch(/session has ended/);
    expect(out.data).toBeUndefined();
  });
});
