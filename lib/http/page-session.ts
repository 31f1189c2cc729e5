import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { SESSION_COOKIE, type SessionPrincipal, verifySessionToken } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { env, exportNextAuthUrl } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { authOptions, type PageSession } from "@/lib/http/next-auth";
import { enforceRateLimit } from "@/lib/http/rate-limit/enforce";

/**
 * Pages, layouts and server actions read the session here, and only here: next-auth's
 * getServerSession (lib/http/next-auth.ts), whose JWT names a row of the Session table that is
 * checked on every request (15 minutes idle for wallet sessions, 30 days for email ones, revoked
 * by sign-out or by an admin). The /v1 `session_token` cookie of a row (set by the API's own
 * sign-in, e.g. onboarding) is accepted too, under the same rules: one session store, one set of
 * rules for the API and the pages.
 */
export interface PageUser {
  session: SessionPrincipal;
  user: { id: string; email: string | null; walletAddress: string | null };
  account: { id: string; name: string };
}

/** next-auth's session cookie (the `__Secure-` one when APP_URL is https). */
const NEXT_AUTH_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];

const NO_RESPONSE = { getHeader: () => undefined, setHeader: () => undefined, setCookie: () => undefined };

/** The Session row of this request: next-auth's session first, else the /v1 cookie. */
async function pageSession(): Promise<SessionPrincipal | null> {
  const jar = await cookies();
  // next-auth runs only when its cookie is there (nothing to check for an anonymous request).
  if (NEXT_AUTH_COOKIES.some((name) => jar.get(name))) {
    exportNextAuthUrl();
    // getServerSession's (req, res, options) form, fed from next/headers: the page has no response to
    // write (the row, not the cookie, carries the session's time), and the request is read once.
    const req = {
      headers: Object.fromEntries(await headers()),
      cookies: Object.fromEntries(NEXT_AUTH_COOKIES.flatMap((name) => (jar.get(name) ? [[name, jar.get(name)!.value]] : []))),
    };
    const viaNextAuth = (await getServerSession(req as never, NO_RESPONSE as never, authOptions())) as PageSession | null;
    if (viaNextAuth?.principal) return viaNextAuth.principal;
  }
  const token = jar.get(SESSION_COOKIE)?.value;
  if (!token) return null;
  try {
    return await verifySessionToken(token, true);
  } catch (err) {
    if (err instanceof AppError && err.code === "unauthorized") return null;
    throw err;
  }
}

export async function currentUser(): Promise<PageUser | null> {
  const session = await pageSession();
  if (!session) return null;
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

/** Drops both cookies of a page session: next-auth's JWT (either name it may have) and the /v1 token. */
export async function clearSessionCookie(): Promise<void> {
  const jar = await cookies();
  jar.delete(SESSION_COOKIE);
  for (const name of NEXT_AUTH_COOKIES) if (jar.get(name)) jar.delete(name);
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
