import { TronWeb, Trx } from "tronweb";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as login } from "@/app/v1/auth/login/route";
import { POST as logout } from "@/app/v1/auth/logout/route";
import { POST as register } from "@/app/v1/auth/register/route";
import { GET as currentSession } from "@/app/v1/auth/session/route";
import { POST as challenge } from "@/app/v1/auth/wallet/challenge/route";
import { POST as verify } from "@/app/v1/auth/wallet/verify/route";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
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

/**
 * Tron message signing v2 by tronweb (Trx.signMessageV2, what TronLink's signMessageV2 does), not by
 * Duebill's own tronMessageHash: the signer is an outside oracle standing in for a TronLink wallet.
 */
async function tronSign(key: `0x${string}`, message: string) {
  return Trx.signMessageV2(message, key.slice(2)) as `0x${string}`;
}

/** The address tronweb derives for a key (not Duebill's hexToTron). */
const tronAddressOf = (key: `0x${string}`) => TronWeb.address.fromPrivateKey(key.slice(2)) as string;

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
  it("signs in with a locally generated Tron key (tronweb's signMessageV2 standing in for TronLink)", async () => {
    const key = generatePrivateKey();
    const address = tronAddressOf(key);
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
  ])("rejects a Tron message with another %s (signed by tronweb)", async (_what, mutate) => {
    const key = generatePrivateKey();
    const address = tronAddressOf(key);
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

  it("rejects another key's Tron signature (signed by tronweb)", async () => {
    const address = tronAddressOf(generatePrivateKey());
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

  it("the wallet session cookie lives to the session's absolute end, so an active browser session slides past 15 minutes (regression)", async () => {
    const c = await evmChallenge();
    const res = await post(verify, "/v1/auth/wallet/verify", {
      challengeId: c.challengeId,
      nonce: c.nonce,
      message: c.message,
      signature: await c.account.signMessage({ message: c.message }),
    });
    // The body's expiresAt is the idle deadline of an unused token; the cookie's Expires is not.
    expect(Date.parse(res.body.expiresAt) - t).toBe(minutes(15));
    const setCookie = res.headers.get("set-cookie") ?? "";
    const expires = /Expires=([^;]+)/.exec(setCookie)?.[1];
    expect(expires, setCookie).toBeDefined();
    // Before the fix the browser dropped the cookie at sign-in + 15 minutes, however active the session.
    expect(Date.parse(expires ?? "") - t).toBe(minutes(24 * 60));
    // A browser sends the cookie while it lives: used every 10 minutes, the session lasts well past 15 minutes.
    const cookie = { cookie: `session_token=${res.body.token}` };
    for (let i = 0; i < 6; i++) {
      t += minutes(10);
      expect(t < Date.parse(expires ?? ""), "the browser still sends the cookie").toBe(true);
      expect((await me(cookie)).status, `after ${(i + 1) * 10} minutes`).toBe(200);
    }
    // The idle rule still holds for the cookie: 15 minutes unused ends it.
    t += minutes(15);
    expect((await me(cookie)).status).toBe(401);
  });

  it("the email session cookie expires with the 30-day session", async () => {
    await post(register, "/v1/auth/register", { email: "cookie@example.com", password: "long enough" });
    const res = await post(login, "/v1/auth/login", { email: "cookie@example.com", password: "long enough" });
    const expires = /Expires=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1] ?? "";
    expect(Date.parse(expires) - t).toBe(minutes(30 * 24 * 60));
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
    const wrong = await post(login, "/v1/auth/login", { email: "a@example.com", password: "not the one" });
    const unknown = await post(login, "/v1/auth/login", { email: "nobody@example.com", password: "not the one" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
  });

  it("registering an existing email answers like a new one and changes nothing (no existence oracle)", async () => {
    const first = await post(register, "/v1/auth/register", { email: "taken@example.com", password: "owner's password" });
    expect(first.status).toBe(201);
    const again = await post(register, "/v1/auth/register", { email: "Taken@Example.com", password: "attacker password" });
    const fresh = await post(register, "/v1/auth/register", { email: "fresh@example.com", password: "attacker password" });
    // Same status, same shape; the IDs of the existing email's answer name nothing.
    expect(again.status).toBe(201);
    expect(fresh.status).toBe(201);
    expect(Object.keys(again.body).sort()).toEqual(Object.keys(fresh.body).sort());
    expect(again.body).toMatchObject({
      email: "taken@example.com",
      id: expect.stringMatching(/^usr_/),
      accountId: expect.stringMatching(/^acc_/),
    });
    expect(again.body.id).not.toBe(first.body.id);
    expect(again.body.accountId).not.toBe(first.body.accountId);
    expect(await db().user.count({ where: { id: again.body.id } })).toBe(0);
    expect(await db().account.count({ where: { id: again.body.accountId } })).toBe(0);
    expect(JSON.stringify(again.body)).not.toMatch(/exist/i);
    // The owner's password still works; the second registration's does not.
    expect((await post(login, "/v1/auth/login", { email: "taken@example.com", password: "owner's password" })).status).toBe(200);
    expect((await post(login, "/v1/auth/login", { email: "taken@example.com", password: "attacker password" })).status).toBe(401);
    // Parallel registrations of one new email: one account, every answer 201.
    const racing = await Promise.all(
      Array.from({ length: 5 }, () => post(register, "/v1/auth/register", { email: "race-reg@example.com", password: "long enough" })),
    );
    expect(racing.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(await db().user.count({ where: { email: "race-reg@example.com" } })).toBe(1);
  });

  it("locks an unknown email exactly like a known one: 5 × 401, then 429 with the same Retry-After (no existence oracle)", async () => {
    await post(register, "/v1/auth/register", { email: "known@example.com", password: "long enough" });
    const run = async (email: string) => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await post(login, "/v1/auth/login", { email, password: "wrong pass" })).status);
      const last = await post(login, "/v1/auth/login", { email, password: "wrong pass" });
      return { statuses, last: last.status, retryAfter: last.headers.get("retry-after"), message: last.body.message };
    };
    const known = await run("known@example.com");
    const unknown = await run("nobody-here@example.com");
    // Before the fix the unknown email kept answering 401 forever.
    expect(known.statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(unknown).toEqual(known);
    expect(unknown.retryAfter).toBe("900");
    // Unknown emails are counted under their hash, never stored in clear.
    const rows = await db().loginThrottle.findMany();
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain("nobody-here");
    // Both unlock after 15 minutes.
    t += minutes(15);
    expect((await post(login, "/v1/auth/login", { email: "known@example.com", password: "long enough" })).status).toBe(200);
    expect((await post(login, "/v1/auth/login", { email: "nobody-here@example.com", password: "wrong pass" })).status).toBe(401);
  });

  it("locks an account for 15 minutes after 5 wrong passwords", async () => {
    await post(register, "/v1/auth/register", { email: "b@example.com", password: "long enough" });
    for (let i = 0; i < 5; i++)
      expect((await post(login, "/v1/auth/login", { email: "b@example.com", password: "wrong pass" })).status).toBe(401);
    const locked = await post(login, "/v1/auth/login", { email: "b@example.com", password: "long enough" });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBe(900);
    // The code stays rate_limited; the message says how long (issue 27): rounded up to whole minutes.
    expect(locked.body).toMatchObject({ code: "rate_limited", message: "Too many failed attempts. Try again in 15 minutes." });
    t += minutes(1) + 1;
    const later = await post(login, "/v1/auth/login", { email: "b@example.com", password: "long enough" });
    expect(later.body).toMatchObject({ code: "rate_limited", message: "Too many failed attempts. Try again in 14 minutes." });
    t += minutes(13) + 30_000;
    const last = await post(login, "/v1/auth/login", { email: "b@example.com", password: "long enough" });
    expect(last.body).toMatchObject({ message: "Too many failed attempts. Try again in 1 minute." });
    t += minutes(1);
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
