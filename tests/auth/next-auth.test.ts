/**
 * Page sign-in through next-auth (issue 26), driven through next-auth's own request handler
 * (NextAuth(req, res, options): the code behind /api/auth/* and getServerSession) and the pages' helper
 * (lib/http/page-session.ts) against real Postgres: the JWT names a Session row and nothing else,
 * the row is checked on every request (wallet idle 15 minutes with the injected clock, revoked,
 * forged or expired JWT), CSRF is required, and each provider runs the /v1 rules (SIWE nonce,
 * single use, lockout). Signatures come from viem (EVM) and tronweb (Tron), not from Duebill.
 */
import NextAuth from "next-auth";
import { decode, encode } from "next-auth/jwt";
import { Trx } from "tronweb";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
    delete: (name: string) => void jar.delete(name),
  }),
  headers: async () => new Headers({ host: "localhost:3000" }),
}));
vi.mock("next/navigation", () => ({
  redirect: (url: string) => {
    throw Object.assign(new Error(`NEXT_REDIRECT ${url}`), { digest: "NEXT_REDIRECT" });
  },
}));

import { POST as challengeRoute } from "@/app/v1/auth/wallet/challenge/route";
import { hashPassword } from "@/lib/auth/passwords";
import { revokeUserSessions } from "@/lib/auth/sessions";
import { STATEMENT } from "@/lib/auth/sign-in/wallet";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { env, exportNextAuthUrl } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { authOptions, nextAuthSecret } from "@/lib/http/next-auth";
import { currentUser, userForAction } from "@/lib/http/page-session";
import { prefixedId } from "@/lib/ids";
import { resetDb } from "@/tests/helpers/db";
import { call } from "@/tests/helpers/http";

const COOKIE = "next-auth.session-token";
let t = 0;
let ip = 1;
let apiCookies: string[] = [];

beforeEach(async () => {
  await resetDb();
  jar.clear();
  apiCookies = [];
  exportNextAuthUrl();
  t = Date.now();
  setClock(() => t);
});
afterEach(() => setClock(null));

const minutes = (n: number) => n * 60_000;

type Cookies = Record<string, string>;
type Body = Record<string, string | undefined>;
/** One request to next-auth's handler (its API-route form: the same AuthHandler as the app route). */
async function auth(action: string, init: { method?: "GET" | "POST"; providerId?: string; body?: Body; cookies?: Cookies }) {
  const headers = new Map<string, unknown>();
  const out: { status: number; json?: unknown; sent?: unknown } = { status: 200 };
  const res = {
    status(code: number) {
      out.status = code;
      return res;
    },
    setHeader: (k: string, v: unknown) => void headers.set(k.toLowerCase(), v),
    getHeader: (k: string) => headers.get(k.toLowerCase()),
    json: (v: unknown) => {
      out.json = v;
    },
    send: (v: unknown) => {
      out.sent = v;
    },
    end: () => undefined,
  };
  const req = {
    query: { nextauth: init.providerId ? [action, init.providerId] : [action] },
    method: init.method ?? "GET",
    body: init.body ? { ...init.body, json: "true" } : {},
    cookies: init.cookies ?? {},
    headers: { host: "localhost:3000", "x-duebill-socket-ip": `198.51.100.${ip++ % 250}` },
  };
  await NextAuth(
    req as never,
    res as never,
    authOptions(async (s) => void apiCookies.push(s.token)),
  );
  const raw = headers.get("set-cookie");
  const set: Cookies = {};
  for (const c of (Array.isArray(raw) ? raw : raw ? [raw] : []) as string[]) {
    const [pair] = c.split(";");
    const i = pair!.indexOf("=");
    set[pair!.slice(0, i)] = decodeURIComponent(pair!.slice(i + 1));
  }
  const redirect = (out.json as { url?: string } | undefined)?.url ?? (headers.get("location") as string | undefined);
  const body = (typeof out.sent === "string" ? JSON.parse(out.sent) : (out.sent ?? out.json)) as Record<string, unknown> | undefined;
  return { status: out.status, body, redirect, set };
}

async function csrf(): Promise<{ token: string; cookies: Cookies }> {
  const res = await auth("csrf", {});
  const token = String(res.body?.csrfToken);
  return { token, cookies: { "next-auth.csrf-token": res.set["next-auth.csrf-token"]! } };
}

async function emailUser(email = "page@x.test", password = "correct-horse-1") {
  const account = await db().account.create({ data: { id: prefixedId("acc_"), name: email } });
  return db().user.create({ data: { id: prefixedId("usr_"), accountId: account.id, email, passwordHash: await hashPassword(password) } });
}

async function signInPassword(email: string, password: string) {
  const c = await csrf();
  return auth("callback", { method: "POST", providerId: "password", body: { email, password, csrfToken: c.token }, cookies: c.cookies });
}

async function signInSiwe(key = generatePrivateKey(), edit: (m: Parameters<typeof createSiweMessage>[0]) => void = () => {}) {
  const account = privateKeyToAccount(key);
  const c = await csrf();
  const app = new URL(env().APP_URL);
  const fields: Parameters<typeof createSiweMessage>[0] = {
    domain: app.host,
    uri: app.origin,
    statement: STATEMENT,
    version: "1",
    chainId: 8453,
    address: account.address,
    nonce: c.token,
    issuedAt: new Date(t),
    expirationTime: new Date(t + minutes(5)),
  };
  edit(fields);
  const message = createSiweMessage(fields);
  const signature = await account.signMessage({ message });
  const body = { message, signature, csrfToken: c.token };
  const res = await auth("callback", { method: "POST", providerId: "credentials", body, cookies: c.cookies });
  return { res, body, cookies: c.cookies, account };
}

/** What a page sees with this next-auth cookie (and no /v1 cookie). */
async function pageWith(jwt: string | undefined) {
  jar.clear();
  if (jwt) jar.set(COOKIE, jwt);
  return currentUser();
}

const errorOf = (redirect: string | undefined) => new URL(redirect ?? "http://x/").searchParams.get("error");

describe("next-auth routes", () => {
  it("GET /api/auth/csrf and /providers answer; the three providers are listed", async () => {
    const c = await csrf();
    expect(c.token).toMatch(/^[0-9a-f]{64}$/);
    const providers = await auth("providers", {});
    expect(Object.keys(providers.body ?? {}).sort()).toEqual(["credentials", "password", "tron"]);
    expect(providers.body?.password).toMatchObject({ type: "credentials", callbackUrl: `${env().APP_URL}/api/auth/callback/password` });
  });

  it("email/password: the JWT carries only the Session row's id; the page reads it; sign-out revokes the row at once", async () => {
    const user = await emailUser();
    const res = await signInPassword("page@x.test", "correct-horse-1");
    const jwt = res.set[COOKIE]!;
    expect(jwt).toBeTruthy();
    const row = await db().session.findFirstOrThrow({ where: { userId: user.id } });
    expect(row.kind).toBe("email");
    const claims = (await decode({ token: jwt, secret: nextAuthSecret() }))!;
    expect(Object.keys(claims).sort()).toEqual(["exp", "iat", "jti", "sid"]);
    expect(claims.sid).toBe(row.id);
    // The browser's /v1 cookie names the same row.
    expect(apiCookies).toHaveLength(1);

    expect((await pageWith(jwt))?.user.id).toBe(user.id);
    const session = await auth("session", { cookies: { [COOKIE]: jwt } });
    expect(session.body).toMatchObject({ principal: { sessionId: row.id, userId: user.id, sessionKind: "email" } });

    const c = await csrf();
    await auth("signout", { method: "POST", body: { csrfToken: c.token }, cookies: { ...c.cookies, [COOKIE]: jwt } });
    expect((await db().session.findUniqueOrThrow({ where: { id: row.id } })).revokedAt).not.toBeNull();
    expect(await pageWith(jwt)).toBeNull();
    expect((await auth("session", { cookies: { [COOKIE]: jwt } })).body).toEqual({});
  });

  it("CSRF token missing or wrong: sign-in and sign-out are refused", async () => {
    const user = await emailUser();
    const c = await csrf();
    for (const body of [
      { email: "page@x.test", password: "correct-horse-1" },
      { email: "page@x.test", password: "correct-horse-1", csrfToken: "0".repeat(64) },
    ]) {
      const res = await auth("callback", { method: "POST", providerId: "password", body, cookies: c.cookies });
      expect(res.redirect).toContain("csrf=true");
      expect(res.set[COOKIE]).toBeUndefined();
    }
    expect(await db().session.count()).toBe(0);
    const jwt = (await signInPassword("page@x.test", "correct-horse-1")).set[COOKIE]!;
    await auth("signout", { method: "POST", body: {}, cookies: { ...c.cookies, [COOKIE]: jwt } });
    expect((await db().session.findFirstOrThrow({ where: { userId: user.id } })).revokedAt).toBeNull();
    expect((await pageWith(jwt))?.user.id).toBe(user.id);
  });

  it("wrong password: the /v1 answer and lockout (5 in a row, then locked)", async () => {
    await emailUser();
    for (let i = 0; i < 5; i++)
      expect(errorOf((await signInPassword("page@x.test", "wrong-password")).redirect)).toBe("Invalid email or password");
    const locked = await signInPassword("page@x.test", "correct-horse-1");
    expect(errorOf(locked.redirect)).toBe("Too many failed attempts. Try again in 15 minutes.");
    expect(locked.set[COOKIE]).toBeUndefined();
    expect(errorOf((await signInPassword("not-an-email", "whatever-long")).redirect)).toMatch(/^email: /);
  });

  it("a forged or expired JWT is refused", async () => {
    const user = await emailUser();
    const jwt = (await signInPassword("page@x.test", "correct-horse-1")).set[COOKIE]!;
    const sid = (await db().session.findFirstOrThrow({ where: { userId: user.id } })).id;
    expect((await pageWith(jwt))?.user.id).toBe(user.id);
    const forged = await encode({ token: { sid }, secret: "someone-else's-secret-of-32-chars-or-more" });
    const expired = await encode({ token: { sid }, secret: nextAuthSecret(), maxAge: -60 });
    const tampered = `${jwt.slice(0, -4)}${jwt.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
    for (const bad of [forged, expired, tampered, "not-a-jwt"]) expect(await pageWith(bad), bad.slice(0, 20)).toBeNull();
    await expect(
      (async () => {
        jar.set(COOKIE, forged);
        return userForAction();
      })(),
    ).rejects.toMatchObject({ code: "unauthorized" });
  });
});

describe("wallet sessions through next-auth", () => {
  it("SIWE (RainbowKit's adapter: nonce = CSRF token): signed in; idle 15 minutes → refused on pages and actions; activity slides", async () => {
    const { res, account } = await signInSiwe();
    const jwt = res.set[COOKIE]!;
    expect(jwt).toBeTruthy();
    const user = await db().user.findUniqueOrThrow({ where: { walletAddress: account.address.toLowerCase() } });
    expect((await db().session.findFirstOrThrow({ where: { userId: user.id } })).kind).toBe("wallet");

    t += minutes(14);
    expect((await pageWith(jwt))?.user.id).toBe(user.id);
    t += minutes(14); // 28 minutes after sign-in, 14 after the last request: still alive
    expect((await pageWith(jwt))?.user.id).toBe(user.id);
    jar.set(COOKIE, jwt);
    expect((await userForAction()).user.id).toBe(user.id);
    t += minutes(15);
    expect(await pageWith(jwt)).toBeNull();
    jar.set(COOKIE, jwt);
    const err = await userForAction().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("unauthorized");
  });

  it("SIWE: replay, a nonce other than the CSRF token, another domain or a stale message are refused", async () => {
    const first = await signInSiwe();
    expect(first.res.set[COOKIE]).toBeTruthy();
    const replay = await auth("callback", { method: "POST", providerId: "credentials", body: first.body, cookies: first.cookies });
    expect(errorOf(replay.redirect)).toBe("Sign-in rejected: challenge already used");
    const cases: [string, (m: Parameters<typeof createSiweMessage>[0]) => void][] = [
      [
        "nonce mismatch",
        (m) => {
          m.nonce = "a".repeat(64);
        },
      ],
      [
        "domain mismatch",
        (m) => {
          m.domain = "evil.example";
        },
      ],
      [
        "challenge expired",
        (m) => {
          m.issuedAt = new Date(t - minutes(6));
        },
      ],
      [
        "statement mismatch",
        (m) => {
          m.statement = "Sign in with Ethereum to the app.";
        },
      ],
    ];
    for (const [why, edit] of cases) {
      const { res } = await signInSiwe(generatePrivateKey(), edit);
      expect(errorOf(res.redirect), why).toBe(`Sign-in rejected: ${why}`);
      expect(res.set[COOKIE]).toBeUndefined();
    }
    expect(await db().session.count()).toBe(1);
  });

  it("Tron (message v2, signed by tronweb) signs in through the /v1 challenge; an admin's revocation ends the page session at the next request", async () => {
    const key = generatePrivateKey();
    const address = Trx.verifyMessageV2("x", Trx.signMessageV2("x", key.slice(2)));
    const ch = await call(challengeRoute, "/v1/auth/wallet/challenge", { method: "POST", json: { address } });
    expect(ch.status).toBe(201);
    const { challengeId, nonce, message } = ch.body as Record<string, string>;
    const signature = Trx.signMessageV2(message!, key.slice(2));
    const c = await csrf();
    const res = await auth("callback", {
      method: "POST",
      providerId: "tron",
      body: { challengeId: challengeId!, nonce: nonce!, message: message!, signature, csrfToken: c.token },
      cookies: c.cookies,
    });
    const jwt = res.set[COOKIE]!;
    const user = await db().user.findUniqueOrThrow({ where: { walletAddress: address } });
    expect((await pageWith(jwt))?.user.id).toBe(user.id);
    expect(await revokeUserSessions(user.id)).toBe(1);
    expect(await pageWith(jwt)).toBeNull();
  });
});
