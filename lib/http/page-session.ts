import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { SESSION_COOKIE, type SessionPrincipal, verifySessionToken } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { enforceRateLimit } from "@/lib/http/rate-limit/enforce";

/**
 * Pages and server actions use the `/v1` session itself: the httpOnly `session_token` cookie,
 * checked against the Session table on every request (15 minutes idle for wallet sessions,
 * 30 days for email ones, revoked by sign-out or by an admin). One session store, one set of
 * rules for the API and the pages.
 */
export interface PageUser {
  session: SessionPrincipal;
  user: { id: string; email: string | null; walletAddress: string | null };
  account: { id: string; name: string };
}

export async function currentUser(): Promise<PageUser | null> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!token) return null;
  let session: SessionPrincipal;
  try {
    session = await verifySessionToken(token, true);
  } catch (err) {
    if (err instanceof AppError && err.code === "unauthorized") return null;
    throw err;
  }
  const user = await db().user.findUnique({
    where: { id: session.userId },
    select: { id: true, email: true, walletAddress: true, account: { select: { id: true, name: true } } },
  });
  if (!user) return null;
  return { session, user: { id: user.id, email: user.email, walletAddress: user.walletAddress }, account: user.account };
}

/** The signed-in user, or a redirect to /sign-in that comes back to `next`. */
export async function requireUser(next: string): Promise<PageUser> {
  const user = await currentUser();
  if (!user) redirect(`/sign-in?next=${encodeURIComponent(next)}`);
  return user;
}

/** For server actions: a signed-out or expired session is refused, never redirected mid-action. */
export async function userForAction(): Promise<PageUser> {
  const user = await currentUser();
  if (!user) throw new AppError("unauthorized", "Your session has ended. Sign in again.");
  return user;
}

/** As sessionCookie(): the cookie lives as long as the session may; the server enforces the idle rule. */
export async function setSessionCookie(session: { token: string; cookieExpiresAt: Date }): Promise<void> {
  (await cookies()).set(SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: "lax",
    secure: env().NODE_ENV === "production",
    path: "/",
    expires: session.cookieExpiresAt,
  });
}

export async function clearSessionCookie(): Promise<void> {
  (await cookies()).delete(SESSION_COOKIE);
}

/** Only same-site relative paths: `next` comes from the URL. */
export function safeNext(next: string | null | undefined, fallback = "/dashboard"): string {
  return next && /^\/(?!\/)[\w\-/?=&%.]*$/.test(next) ? next : fallback;
}

/**
 * Sign-in and registration actions count against the same per-IP anonymous limit as
 * POST /v1/auth/login and /register, so a form is no way around the API's throttling.
 */
export async function limitAnonymousAction(): Promise<void> {
  await enforceRateLimit(new Request("http://action.invalid/", { headers: await headers() }), null);
}
