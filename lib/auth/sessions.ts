import { hashSecret } from "@/lib/auth/secrets";
import { now, nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { SessionKind } from "@/lib/generated/prisma/enums";
import { prefixedId, randomToken } from "@/lib/ids";

/**
 * Server-side sessions. The client holds a random 256-bit token (cookie `session_token` or
 * `Authorization: Bearer`); the database holds its sha256. Wallet sessions end after 15
 * minutes without use (and after 24 h in any case); email sessions after 30 days. Logout
 * revokes the row, so the token stops working everywhere at once.
 */
export interface SessionPrincipal {
  kind: "session";
  accountId: string;
  sessionId: string;
  userId: string;
  sessionKind: SessionKind;
  /** The token came from the cookie (writes must then carry a matching Origin). */
  viaCookie: boolean;
}

export const SESSION_COOKIE = "session_token";
export const WALLET_IDLE_MS = 15 * 60 * 1000;
const WALLET_MAX_MS = 24 * 60 * 60 * 1000;
export const EMAIL_MAX_MS = 30 * 24 * 60 * 60 * 1000;
/** lastSeenAt is written at most this often, so a busy session is not a write per request. */
const TOUCH_EVERY_MS = 30 * 1000;

/**
 * A new session. `expiresAt` is when the token stops working if it is not used (wallet: 15 minutes
 * idle; email: 30 days); `cookieExpiresAt` is the session's absolute end (wallet: 24 h; email: 30
 * days), the cookie's Expires: the idle rule is the server's (lastSeenAt, touched by every page
 * load and API call, cookie or Bearer alike), so an active browser session slides like a Bearer
 * one instead of the browser dropping the cookie 15 minutes after sign-in.
 */
export async function createSession(
  user: { id: string; accountId: string },
  kind: SessionKind,
): Promise<{ sessionId: string; token: string; expiresAt: Date; cookieExpiresAt: Date }> {
  const token = randomToken(32);
  const sessionId = prefixedId("ses_");
  const created = now();
  const expiresAt = new Date(created.getTime() + (kind === "wallet" ? WALLET_MAX_MS : EMAIL_MAX_MS));
  await db().session.create({
    data: {
      id: sessionId,
      tokenHash: hashSecret(token),
      userId: user.id,
      accountId: user.accountId,
      kind,
      createdAt: created,
      lastSeenAt: created,
      expiresAt,
    },
  });
  return {
    sessionId,
    token,
    expiresAt: kind === "wallet" ? new Date(created.getTime() + WALLET_IDLE_MS) : expiresAt,
    cookieExpiresAt: expiresAt,
  };
}

const invalid = () => new AppError("unauthorized", "Invalid or expired session");

export async function verifySessionToken(token: string, viaCookie = false): Promise<SessionPrincipal> {
  if (token.length < 20 || token.length > 200) throw invalid();
  // Looked up by the hash of the presented token: timing reveals nothing about stored tokens.
  const row = await db().session.findUnique({ where: { tokenHash: hashSecret(token) } });
  return checkSessionRow(row, viaCookie);
}

/**
 * A page session (next-auth's JWT carries only the Session row's id, lib/http/next-auth.ts): the
 * same row and the same rules as the token, checked on every request. `viaCookie`: the JWT is a cookie.
 */
export async function verifySessionId(sessionId: string): Promise<SessionPrincipal> {
  if (!/^ses_[A-Za-z0-9_-]{1,100}$/.test(sessionId)) throw invalid();
  const row = await db().session.findUnique({ where: { id: sessionId } });
  return checkSessionRow(row, true);
}

/** The one rule set: revoked, past its absolute end, or (wallet) idle 15 minutes → refused; else touched. */
async function checkSessionRow(
  row: {
    id: string;
    accountId: string;
    userId: string;
    kind: SessionKind;
    revokedAt: Date | null;
    expiresAt: Date;
    lastSeenAt: Date;
  } | null,
  viaCookie: boolean,
): Promise<SessionPrincipal> {
  const t = nowMs();
  if (!row || row.revokedAt || row.expiresAt.getTime() <= t) throw invalid();
  if (row.kind === "wallet" && t - row.lastSeenAt.getTime() >= WALLET_IDLE_MS) throw invalid();
  if (t - row.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    await db().session.update({ where: { id: row.id }, data: { lastSeenAt: new Date(t) } });
  }
  return { kind: "session", accountId: row.accountId, sessionId: row.id, userId: row.userId, sessionKind: row.kind, viaCookie };
}

export async function revokeSession(sessionId: string): Promise<void> {
  await db().session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: now() } });
}

/** Ends every live session of a user (an operator's "sign out everywhere"); returns how many. */
export async function revokeUserSessions(userId: string): Promise<number> {
  const { count } = await db().session.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now() } });
  return count;
}

/** The session token from `Authorization: Bearer` or the `session_token` cookie. */
export function readSessionToken(req: Request): { token: string; viaCookie: boolean } | null {
  const auth = req.headers.get("authorization");
  if (auth?.toLowerCase().startsWith("bearer ")) {
    const token = auth.slice(7).trim();
    return token ? { token, viaCookie: false } : null;
  }
  const cookie = req.headers.get("cookie");
  if (!cookie) return null;
  for (const part of cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE) {
      // A malformed escape is a bad credential (401), never a crash.
      let token: string;
      try {
        token = decodeURIComponent(rest.join("="));
      } catch {
        token = "";
      }
      return token ? { token, viaCookie: true } : null;
    }
  }
  return null;
}

/** The Set-Cookie of a new session; it expires with the session's absolute end (see createSession). */
export function sessionCookie(session: { token: string; cookieExpiresAt: Date }): string {
  const secure = env().NODE_ENV === "production" ? "; Secure" : "";
  return `${SESSION_COOKIE}=${encodeURIComponent(session.token)}; Path=/; HttpOnly; SameSite=Lax; Expires=${session.cookieExpiresAt.toUTCString()}${secure}`;
}

export function clearedSessionCookie(): string {
  const secure = env().NODE_ENV === "production" ? "; Secure" : "";
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`;
}

/** GET /v1/auth/session: the principal already carries the session kind; only the user is read. */
export async function describeSession(principal: { kind: string; userId?: string; sessionKind?: SessionKind }) {
  if (principal.kind !== "session" || !principal.userId || !principal.sessionKind) throw invalid();
  const user = await db().user.findUnique({
    where: { id: principal.userId },
    select: { id: true, accountId: true, walletAddress: true, email: true },
  });
  if (!user) throw invalid();
  return { userId: user.id, accountId: user.accountId, kind: principal.sessionKind, walletAddress: user.walletAddress, email: user.email };
}
