import { AppError } from "@/lib/api/errors";

/**
 * Session principal (wallet or email sign-in). The session store arrives with the auth
 * service (issue #4); until then no session token verifies, so session-only routes answer 401.
 */
export interface SessionPrincipal {
  kind: "session";
  accountId: string;
  sessionId: string;
  userId: string;
}

export async function verifySessionToken(_token: string): Promise<SessionPrincipal> {
  throw new AppError("unauthorized", "Invalid or expired session");
}

/** The session token from `Authorization: Bearer` or the `session_token` cookie. */
export function readSessionToken(req: Request): string | null {
  const auth = req.headers.get("authorization");
  if (auth?.toLowerCase().startsWith("bearer ")) return auth.slice(7).trim() || null;
  const cookie = req.headers.get("cookie");
  if (!cookie) return null;
  for (const part of cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === "session_token") return decodeURIComponent(rest.join("=")) || null;
  }
  return null;
}
