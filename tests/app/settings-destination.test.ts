/**
 * Settings' self-service destination (issue 27): an email account's user gets the signing data of
 * GET /v2/payee-destination/signing-data for the chosen currency, the wallet signs it, and POST
 * /v2/payee-destination's rules register it — the same lib functions, so a wrong signature, a
 * replayed nonce or another wallet's signature is refused naming the field, and nothing is saved.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
    delete: (name: string) => void jar.delete(name),
  }),
  headers: async () => new Headers({ "x-forwarded-for": "203.0.113.9" }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import {
  type DestinationSigningData,
  destinationSigningDataAction,
  saveSignedDestinationAction,
  setDestinationAction,
} from "@/app/dashboard/settings/actions";
import { hashPassword } from "@/lib/auth/passwords";
import { createSession, SESSION_COOKIE } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { prefixedId, ulid } from "@/lib/ids";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";

let accountId = "";
let token = "";
const wallet = privateKeyToAccount(generatePrivateKey());
const stranger = privateKeyToAccount(generatePrivateKey());

beforeAll(async () => {
  await resetDb();
  const a = await makeIntegrator();
  accountId = a.account.id;
  const user = await db().user.create({
    data: {
      id: prefixedId("usr_"),
      accountId,
      email: `merchant-${ulid()}@settings.test`,
      passwordHash: await hashPassword("first-day-pass"),
    },
  });
  token = (await createSession(user, "email")).token;
});

afterEach(() => jar.clear());

/** What the browser's wallet does with the signing data (wagmi's signTypedData). */
function sign(account: typeof wallet, data: DestinationSigningData) {
  const { domain, types, primaryType, message } = data;
  return account.signTypedData({
    domain,
    types,
    primaryType,
    message: { ...message, chainId: BigInt(message.chainId!), expiresAt: BigInt(message.expiresAt!) },
  } as Parameters<typeof wallet.signTypedData>[0]);
}

const active = () => db().payeeDestination.findFirst({ where: { accountId, active: true } });

describe("Settings: connect a wallet and sign, no curl", () => {
  it("signing data for the chosen currency's token and chain, signed by the wallet, registers it", async () => {
    jar.set(SESSION_COOKIE, token);
    const prepared = await destinationSigningDataAction({ currency: "USDC-base", walletAddress: wallet.address });
    expect(prepared.error).toBeNull();
    const data = prepared.data!;
    expect(data.domain).toEqual({ name: "Duebill payee destinations", version: "1", chainId: 8453 });
    expect(data.message).toMatchObject({ action: "add", walletAddress: wallet.address, account: accountId, chainId: "8453" });
    const signature = await sign(wallet, data);
    const saved = await saveSignedDestinationAction({ currency: "USDC-base", walletAddress: wallet.address, nonce: data.nonce, signature });
    expect(saved).toEqual({ error: null, done: `Payments now go to ${wallet.address} (USDC-base)` });
    expect(await active()).toMatchObject({ walletAddress: wallet.address, network: "base", tokenSymbol: "USDC" });
    // The nonce is single use.
    const replay = await saveSignedDestinationAction({
      currency: "USDC-base",
      walletAddress: wallet.address,
      nonce: data.nonce,
      signature,
    });
    expect(replay.field).toBe("nonce");
  });

  it("another wallet's signature, a malformed one or another currency than signed: refused naming the field, nothing saved", async () => {
    jar.set(SESSION_COOKIE, token);
    const before = await active();
    const data = (await destinationSigningDataAction({ currency: "USDT-base", walletAddress: wallet.address })).data!;
    const wrong = await saveSignedDestinationAction({
      currency: "USDT-base",
      walletAddress: wallet.address,
      nonce: data.nonce,
      signature: await sign(stranger, data),
    });
    expect(wrong.field).toBe("signature");
    const malformed = await saveSignedDestinationAction({
      currency: "USDT-base",
      walletAddress: wallet.address,
      nonce: data.nonce,
      signature: "0x12",
    });
    expect(malformed.field).toBe("signature");
    const otherCurrency = await saveSignedDestinationAction({
      currency: "USDC-base",
      walletAddress: wallet.address,
      nonce: data.nonce,
      signature: await sign(wallet, data),
    });
    expect(otherCurrency.field).toBe("nonce");
    expect(await active()).toEqual(before);
  });

  it("bad input to the signing data: unknown currency, not a receiving token, a Tron wallet, a bad address", async () => {
    jar.set(SESSION_COOKIE, token);
    expect((await destinationSigningDataAction({ currency: "DOGE-base", walletAddress: wallet.address })).field).toBe("currency");
    expect((await destinationSigningDataAction({ currency: "ETH-base", walletAddress: wallet.address })).field).toBe("currency");
    expect((await destinationSigningDataAction({ currency: "USDT-tron", walletAddress: "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW" })).field).toBe(
      "walletAddress",
    );
    expect((await destinationSigningDataAction({ currency: "USDC-base", walletAddress: "0x123" })).field).toBe("walletAddress");
    expect((await destinationSigningDataAction({ currency: "USDC-base", walletAddress: "x".repeat(500) })).field).toBe("walletAddress");
  });

  it("without a signature: an email session is refused; a wallet session registers its own wallet", async () => {
    jar.set(SESSION_COOKIE, token);
    const before = await active();
    const form = new FormData();
    form.set("currency", "USDT-base");
    const refused = await setDestinationAction({ error: null }, form);
    expect(refused.field).toBe("walletAddress");
    expect(await active()).toEqual(before);
    const own = privateKeyToAccount(generatePrivateKey());
    const walletUser = await db().user.create({ data: { id: prefixedId("usr_"), accountId, walletAddress: own.address.toLowerCase() } });
    jar.set(SESSION_COOKIE, (await createSession(walletUser, "wallet")).token);
    const saved = await setDestinationAction({ error: null }, form);
    expect(saved.error).toBeNull();
    expect((await active())?.walletAddress.toLowerCase()).toBe(own.address.toLowerCase());
  });

  it("signed out: refused, no signing data", async () => {
    const out = await destinationSigningDataAction({ currency: "USDC-base", walletAddress: wallet.address });
    expect(out.error).toMatch(/session has ended/);
    expect(out.data).toBeUndefined();
  });
});
