import { createHmac } from "node:crypto";
import type { AuthOptions, Session } from "next-auth";
import type { JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { credentialsBodySchema, verifyBodySchema } from "@/lib/auth/schemas";
import { revokeSession, type SessionPrincipal, verifySessionId } from "@/lib/auth/sessions";
import { login } from "@/lib/auth/sign-in/email";
import { verifyChallenge, verifySiweSignIn } from "@/lib/auth/sign-in/wallet";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { parseWith } from "@/lib/http/parse";
import { enforceRateLimit } from "@/lib/http/rate-limit/enforce";
import { log } from "@/lib/log";

/**
 * Page sign-in through next-auth 4, on the one session store. Each Credentials provider calls the
 * same lib function as its /v1/auth route (login, verifyChallenge; SIWE through verifySiweSignIn,
 * which ends in verifyChallenge) after the same per-IP anonymous limit, so it creates the same
 * Session row. next-auth's JWT carries only that row's id; the jwt callback checks the row on
 * every request (verifySessionId: revoked, absolute end, 15 minutes idle for wallet sessions —
 * the same rules as the /v1 token), so a sign-out, "sign out everywhere" or an admin's
 * revocation ends the page session at the next request.
 */

/** The id of the Session row a page session stands for: all the JWT holds. */
export interface PageJwt extends JWT {
  sid?: string;
}

export interface PageSession extends Session {
  principal: SessionPrincipal;
}

/** A /v1 token of the same row, handed to the route so the browser's /v1 cookie names the same session. */
export type OnSignedIn = (session: { token: string; cookieExpiresAt: Date }) => Promise<void>;

/** Public on purpose: only outside production, where nothing real is protected (as lib/webhooks/secret-box.ts). */
const DEV_APP_SECRET = "duebill-development-app-secret--not-for-production";

/** next-auth's signing/encryption secret, derived from APP_SECRET: no variable of its own. */
export function nextAuthSecret(): string {
  const { APP_SECRET, NODE_ENV } = env();
  if (!APP_SECRET && NODE_ENV === "production") throw new Error("APP_SECRET is not set: it is required in production (page sessions).");
  return createHmac("sha256", APP_SECRET ?? DEV_APP_SECRET)
    .update("duebill:next-auth:v1")
    .digest("base64url");
}

/** What next-auth shows the form: the API's words (the field's message when one is named). */
function signInError(err: unknown): Error {
  if (err instanceof AppError) {
    const first = err.errors?.[0];
    return new Error(first ? `${first.field}: ${first.message}` : err.message);
  }
  return err instanceof Error ? err : new Error(String(err));
}

/** The per-IP anonymous limit of POST /v1/auth/login, /register and /wallet/verify. */
async function limitAnonymous(headers: Record<string, unknown> | undefined): Promise<void> {
  const h = new Headers();
  for (const [k, v] of Object.entries(headers ?? {})) if (typeof v === "string") h.set(k, v);
  await enforceRateLimit(new Request("http://auth.invalid/", { headers: h }), null);
}

type SignedIn = { sessionId: string; token: string; cookieExpiresAt: Date; user: { id: string } };

/** principal of each verified token: handed from the jwt callback to the session callback of the same request. */
const verified = new WeakMap<object, SessionPrincipal>();

export function authOptions(onSignedIn?: OnSignedIn): AuthOptions {
  const signedIn = async (run: () => Promise<SignedIn>) => {
    try {
      const session = await run();
      await onSignedIn?.(session);
      return { id: session.user.id, sessionId: session.sessionId };
    } catch (err) {
      throw signInError(err);
    }
  };
  return {
    secret: nextAuthSecret(),
    session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: [
      // "credentials": the id RainbowKit's SIWE adapter signs in with; the nonce is next-auth's CSRF token.
      CredentialsProvider({
        id: "credentials",
        name: "Ethereum wallet",
        credentials: { message: { type: "text" }, signature: { type: "text" } },
        authorize: (c, req) =>
          signedIn(async () => {
            await limitAnonymous(req.headers);
            const csrfToken = typeof req.body?.csrfToken === "string" ? req.body.csrfToken : "";
            return verifySiweSignIn({ message: String(c?.message ?? ""), signature: String(c?.signature ?? ""), csrfToken });
          }),
      }),
      CredentialsProvider({
        id: "tron",
        name: "TronLink",
        credentials: { challengeId: { type: "text" }, nonce: { type: "text" }, message: { type: "text" }, signature: { type: "text" } },
        authorize: (c, req) =>
          signedIn(async () => {
            await limitAnonymous(req.headers);
            return verifyChallenge(
              parseWith(verifyBodySchema, { challengeId: c?.challengeId, nonce: c?.nonce, message: c?.message, signature: c?.signature }),
            );
          }),
      }),
      CredentialsProvider({
        id: "password",
        name: "Email and password",
        credentials: { email: { type: "email" }, password: { type: "password" } },
        authorize: (c, req) =>
          signedIn(async () => {
            await limitAnonymous(req.headers);
            const body = parseWith(credentialsBodySchema, { email: c?.email ?? "", password: c?.password ?? "" });
            return login(body.email, body.password);
          }),
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        // At sign-in: the row's id and nothing else (no name, email or picture in the JWT).
        if (user) return { sid: (user as unknown as { sessionId: string }).sessionId };
        const sid = typeof (token as PageJwt).sid === "string" ? (token as PageJwt).sid! : "";
        // Throws when the row is revoked, past its end or idle: next-auth then drops the session and its cookie.
        const principal = await verifySessionId(sid);
        const next: PageJwt = { sid };
        verified.set(next, principal);
        return next;
      },
      async session({ session, token }) {
        const principal = verified.get(token);
        if (!principal) throw new AppError("unauthorized", "Invalid or expired session");
        return { expires: session.expires, principal } as PageSession;
      },
    },
    events: {
      // POST /api/auth/signout (next-auth's CSRF-checked route): the row is revoked, /v1 cookie and all.
      async signOut({ token }) {
        const sid = (token as PageJwt | null)?.sid;
        if (sid) await revokeSession(sid);
      },
    },
    logger: {
      // A refused session (revoked, idle, forged) is an ordinary answer, not an error to log.
      error(code, metadata) {
        if (code === "JWT_SESSION_ERROR") return;
        log.warn(`next-auth ${code}`, { error: metadata instanceof Error ? metadata.message : String(code) });
      },
      warn(code) {
        log.warn(`next-auth ${code}`);
      },
      debug() {},
    },
  };
}
