import { serializeSignature } from "viem";
import { generatePrivateKey, privateKeyToAccount, sign } from "viem/accounts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as login } from "@/app/v1/auth/login/route";
import { POST as logout } from "@/app/v1/auth/logout/route";
import { POST as register } from "@/app/v1/auth/register/route";
import { GET as currentSession } from "@/app/v1/auth/session/route";
import { POST as challenge } from "@/app/v1/auth/wallet/challenge/route";
import { POST as verify } from "@/app/v1/auth/wallet/verify/route";
import { tronMessageHash } from "@/lib/auth/sign-in/tron-message";
import { hexToTron } from "@/lib/chain/address";
import { setClock } from "@/lib/clock";
import { resetDb } from "@/tests/helpers/db";
import { call } from "@/tests/helpers/http";

let t = Date.parse("2026-11-22T12:00:00Z");
beforeEach(async () => {
  await resetDb();
  t = Date.parse("2026-11-22T12:00:00Z");
  setClock(() => t);
});
afterEach(() => setClock(null));

const minutes = (n: number) => n * 60_000;
const post = (handler: typeof challenge, url: string, json: unknown, headers: Record<string, string> = {}) =>
  call(handler, url, { method: "POST", json, headers });

async function evmChallenge(key = generatePrivateKey(), chainId?: number) {
  const account = privateKeyToAccount(key);
  const res = await post(challenge, "/v1/auth/wallet/challenge", { address: account.address, ...(chainId ? { chainId } : {}) });
  expect(res.status).toBe(201);
  return { account, ...(res.body as { challengeId: string; nonce: string; message: string; expiresAt: string }) };
}

async function tronSign(key: `0x${string}`, message: string) {
  return serializeSignature(await sign({ hash: tronMessageHash(message), privateKey: key }));
}

describe("wallet sign-in (EVM)", () => {
  it("issues an EIP-4361 challenge and signs in with personal_sign", async () => {
    const c = await evmChallenge();
    expect(c.message).toContain("localhost:3000 wants you to sign in with your Ethereum account:");
    expect(c.message).toContain(`Nonce: ${c.nonce}`);
    expect(c.message).toContain("Chain ID: 1");
    expect(Date.parse(c.expiresAt) - t).toBe(minutes(5));
    const signature = await c.account.signMessage({ message: c.message });
    const res = await post(verify, "/v1/auth/wallet/verify", { challengeId: c.challengeId, nonce: c.nonce, message: c.message, signature });
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toContain(`session_token=${res.body.token}`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    const me = await call(currentSession, "/v1/auth/session", { headers: { authorization: `Bearer ${res.body.token}` } });
    expect(me.body).toMatchObject({ kind: "wallet", walletAddress: c.account.address.toLowerCase() });
  });

  it.each([
    ["domain", (m: string) => m.replace("localhost:3000 wants", "evil.example wants")],
    ["URI", (m: string) => m.replace("URI: http://localhost:3000", "URI: https://evil.example")],
    ["chain ID", (m: string) => m.replace("Chain ID: 1", "Chain ID: 137")],
    ["nonce", (m: string) => m.replace(/Nonce: (\w+)/, "Nonce: AAAAAAAAAAAAAAAA")],
    ["address", (m: string) => m.replace(/0x[0-9a-fA-F]{40}/, privateKeyToAccount(generatePrivateKey()).address)],
  ])("rejects a message with another %s, even correctly signed", async (_what, mutate) => {
    const c = await evmChallenge();
    const message = mutate(c.message);
    expect(message).not.toBe(c.message);
    const signature = await c.account.signMessage({ message });
    const res = await post(verify, "/v1/auth/wallet/verify", { challengeId: c.challengeId, nonce: c.nonce, message, signature });
    expect(res.status).toBe(401);
  });

  it("signs in one wallet twice at once for the first time: two sessions, one user, no 500 (hardening)", async () => {
    const key = generatePrivateKey();
    const [c1, c2] = await Promise.all([evmChallenge(key), evmChallenge(key)]);
    const verifyWith = async (c: typeof c1) =>
      post(verify, "/v1/auth/wallet/verify", {
        challengeId: c.challengeId,
        nonce: c.nonce,
        message: c.message,
        signature: await c.account.signMessage({ message: c.message }),
      });
    const [r1, r2] = await Promise.all([verifyWith(c1), verifyWith(c2)]);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    const { db } = await import("@/lib/db");
    expect(await db().user.count({ where: { walletAddress: c1.account.address.toLowerCase() } })).toBe(1);
  });

  it("rejects a wrong signer, an expired challenge, a reused challenge and a wrong nonce", async () => {
    const c = await evmChallenge();
    const other = privateKeyToAccount(generatePrivateKey());
    const wrong = await post(verify, "/v1/auth/wallet/verify", {
      challengeId: c.challengeId,
      nonce: c.nonce,
      message: c.message,
      signature: await other.signMessage({ message: c.message }),
    });
    expect(wrong.status).toBe(401);
    const signature = await c.account.signMessage({ message: c.message });
    const badNonce = await post(verify, "/v1/auth/wallet/verify", {
      challengeId: c.challengeId,
      nonce: "x".repeat(16),
      message: c.message,
      signature,
    });
    expect(badNonce.status).toBe(401);
    const ok = await post(verify, "/v1/auth/wallet/verify", { challengeId: c.challengeId, nonce: c.nonce, message: c.message, signature });
    expect(ok.status).toBe(200);
    const reused = await post(verify, "/v1/auth/wallet/verify", {
      challengeId: c.challengeId,
      nonce: c.nonce,
      message: c.message,
      signature,
    });
    expect(reused.status).toBe(401);
    expect(reused.body.message).toContain("already used");

    const late = await evmChallenge();
    t += minutes(5);
    const expired = await post(verify, "/v1/auth/wallet/verify", {
      challengeId: late.challengeId,
      nonce: late.nonce,
      message: late.message,
      signature: await late.account.signMessage({ message: late.message }),
    });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toContain("expired");
  });

  it("validates input with 400s naming the field", async () => {
    const bad = await post(challenge, "/v1/auth/wallet/challenge", { address: "0x1234" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("address");
    const c = await evmChallenge();
    const sig = await post(verify, "/v1/auth/wallet/verify", {
      challengeId: c.challengeId,
      nonce: c.nonce,
      message: c.message,
      signature: "0xdead",
    });
    expect(sig.status).toBe(400);
    expect(sig.body.errors[0].field).toBe("signature");
  });
});

describe("wallet sign-in (Tron, message signing v2)", () => {
  it("signs in with a locally generated Tron key", async () => {
    const key = generatePrivateKey();
    const address = hexToTron(privateKeyToAccount(key).address);
    const res = await post(challenge, "/v1/auth/wallet/challenge", { address, chainId: 1 });
    expect(res.status).toBe(201);
    expect(res.body.message).toContain("wants you to sign in with your Tron account:");
    expect(res.body.message).toContain(`\n${address}\n`);
    expect(res.body.message).toContain("Chain ID: 728126428");
    const signature = await tronSign(key, res.body.message);
    const ok = await post(verify, "/v1/auth/wallet/verify", { ...res.body, expiresAt: undefined, signature });
    expect(ok.status).toBe(200);
    expect(ok.body.user.walletAddress).toBe(address);
  });

  it.each([
    ["domain", (m: string) => m.replace("localhost:3000 wants", "evil.example wants")],
    ["URI", (m: string) => m.replace("URI: http://localhost:3000", "URI: https://evil.example")],
    ["chain ID", (m: string) => m.replace("Chain ID: 728126428", "Chain ID: 1")],
    ["nonce", (m: string) => m.replace(/Nonce: (\w+)/, "Nonce: AAAAAAAAAAAAAAAA")],
  ])("rejects a Tron message with another %s", async (_what, mutate) => {
    const key = generatePrivateKey();
    const address = hexToTron(privateKeyToAccount(key).address);
    const c = (await post(challenge, "/v1/auth/wallet/challenge", { address })).body;
    const message = mutate(c.message);
    const res = await post(verify, "/v1/auth/wallet/verify", {
      challengeId: c.challengeId,
      nonce: c.nonce,
      message,
      signature: await tronSign(key, message),
    });
    expect(res.status).toBe(401);
  });

  it("rejects another key's Tron signature", async () => {
    const address = hexToTron(privateKeyToAccount(generatePrivateKey()).address);
    const c = (await post(challenge, "/v1/auth/wallet/challenge", { address })).body;
    const res = await post(verify, "/v1/auth/wallet/verify", {
      challengeId: c.challengeId,
      nonce: c.nonce,
      message: c.message,
      signature: await tronSign(generatePrivateKey(), c.message),
    });
    expect(res.status).toBe(401);
  });
});

async function walletSession() {
  const c = await evmChallenge();
  const res = await post(verify, "/v1/auth/wallet/verify", {
    challengeId: c.challengeId,
    nonce: c.nonce,
    message: c.message,
    signature: await c.account.signMessage({ message: c.message }),
  });
  return res.body.token as string;
}

const me = (headers: Record<string, string>) => call(currentSession, "/v1/auth/session", { headers });

describe("sessions", () => {
  it("wallet sessions end after 15 minutes idle; use keeps them alive", async () => {
    const token = await walletSession();
    const bearer = { authorization: `Bearer ${token}` };
    t += minutes(14);
    expect((await me(bearer)).status).toBe(200);
    t += minutes(14);
    expect((await me(bearer)).status).toBe(200);
    t += minutes(15);
    expect((await me(bearer)).status).toBe(401);
  });

  it("email sessions last 30 days, idle or not", async () => {
    expect((await post(register, "/v1/auth/register", { email: "Ada@Example.com", password: "correct horse" })).status).toBe(201);
    const res = await post(login, "/v1/auth/login", { email: "ada@example.com", password: "correct horse" });
    expect(res.status).toBe(200);
    const bearer = { authorization: `Bearer ${res.body.token}` };
    t += minutes(60 * 24 * 29);
    expect((await me(bearer)).status).toBe(200);
    t += minutes(60 * 24 + 1);
    expect((await me(bearer)).status).toBe(401);
  });

  it("accepts the cookie; cookie writes need our Origin; logout kills the token", async () => {
    const token = await walletSession();
    const cookie = { cookie: `other=1; session_token=${token}` };
    expect((await me(cookie)).status).toBe(200);
    const noOrigin = await call(logout, "/v1/auth/logout", { method: "POST", headers: cookie });
    expect(noOrigin.status).toBe(403);
    const foreign = await call(logout, "/v1/auth/logout", { method: "POST", headers: { ...cookie, origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    const out = await call(logout, "/v1/auth/logout", { method: "POST", headers: { ...cookie, origin: "http://localhost:3000" } });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await me(cookie)).status).toBe(401);
    expect((await me({ authorization: `Bearer ${token}` })).status).toBe(401);
  });

  it("issues a new token at every sign-in", async () => {
    expect(await walletSession()).not.toBe(await walletSession());
  });
});

describe("email and password", () => {
  it("registers once, validates the password length, and hides which part was wrong", async () => {
    const short = await post(register, "/v1/auth/register", { email: "a@example.com", password: "short" });
    expect(short.status).toBe(400);
    expect(short.body.errors[0]).toEqual({ field: "password", message: "must be 8 to 100 characters" });
    expect((await post(register, "/v1/auth/register", { email: "a@example.com", password: "x".repeat(101) })).status).toBe(400);
    expect((await post(register, "/v1/auth/register", { email: "a@example.com", password: "long enough" })).status).toBe(201);
    expect((await post(register, "/v1/auth/register", { email: "A@example.com", password: "long enough" })).status).toBe(409);
    const wrong = await post(login, "/v1/auth/login", { email: "a@example.com", password: "not the one" });
    const unknown = await post(login, "/v1/auth/login", { email: "nobody@example.com", password: "not the one" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
  });

  it("locks an account for 15 minutes after 5 wrong passwords", async () => {
    await post(register, "/v1/auth/register", { email: "b@example.com", password: "long enough" });
    for (let i = 0; i < 5; i++)
      expect((await post(login, "/v1/auth/login", { email: "b@example.com", password: "wrong pass" })).status).toBe(401);
    const locked = await post(login, "/v1/auth/login", { email: "b@example.com", password: "long enough" });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBe(900);
    t += minutes(15);
    expect((await post(login, "/v1/auth/login", { email: "b@example.com", password: "long enough" })).status).toBe(200);
  });

  it("counts racing wrong passwords atomically: 40 in parallel, at most 5 are checked, then the lock (hardening)", async () => {
    await post(register, "/v1/auth/register", { email: "race@example.com", password: "long enough" });
    const attempts = await Promise.all(
      Array.from({ length: 40 }, () => post(login, "/v1/auth/login", { email: "race@example.com", password: "wrong pass" })),
    );
    const statuses = attempts.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(35);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // Locked now, even for the right password.
    expect((await post(login, "/v1/auth/login", { email: "race@example.com", password: "long enough" })).status).toBe(429);
  });
});
