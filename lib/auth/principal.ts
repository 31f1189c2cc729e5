import {
  type ApiKeyPrincipal,
  type ClientIdPrincipal,
  type OrchestratorPrincipal,
  verifyApiKey,
  verifyClientId,
  verifyOrchestratorKey,
} from "@/lib/auth/api-credentials";
import { readSessionToken, type SessionPrincipal, verifySessionToken } from "@/lib/auth/sessions";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

/** The credentials an operation may accept. */
export type AuthMode = "apiKey" | "clientId" | "orchestratorKey" | "session";

export type Principal = ApiKeyPrincipal | ClientIdPrincipal | OrchestratorPrincipal | SessionPrincipal;

/**
 * The identity of the credential behind a principal, stable across requests: `apiKey:<id>`,
 * `orchestratorKey:<id>`, `clientId:<id>` or `session:<userId>` (a user's sessions share one).
 * Scopes idempotency keys and rate-limit buckets; stored idempotency records depend on these
 * exact strings.
 */
export function principalKey(p: Principal): string {
  switch (p.kind) {
    case "apiKey":
    case "orchestratorKey":
      return `${p.kind}:${p.credentialId}`;
    case "clientId":
      return `clientId:${p.clientId}`;
    case "session":
      return `session:${p.userId}`;
  }
}

const ALL_MODES: readonly AuthMode[] = ["apiKey", "orchestratorKey", "clientId", "session"];

function credentialOf(mode: AuthMode, req: Request): string | null {
  switch (mode) {
    case "apiKey":
      return req.headers.get("x-api-key");
    case "clientId":
      return req.headers.get("x-client-id");
    case "orchestratorKey":
      return req.headers.get("x-orchestrator-key");
    case "session":
      return readSessionToken(req)?.token ?? null;
  }
}

function verify(mode: AuthMode, value: string, req: Request): Promise<Principal> {
  switch (mode) {
    case "apiKey":
      return verifyApiKey(value);
    case "clientId":
      return verifyClientId(value, req.headers.get("origin"));
    case "orchestratorKey":
      return verifyOrchestratorKey(value);
    case "session":
      return verifySessionToken(value, readSessionToken(req)?.viaCookie ?? false).then((p) => {
        assertCookieOrigin(req, p);
        return p;
      });
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A cookie rides along on cross-site requests, so a cookie-authenticated write must come from
 * our own origin (CSRF). Bearer tokens are never sent by a browser on its own.
 */
function assertCookieOrigin(req: Request, p: SessionPrincipal): void {
  if (!p.viaCookie || SAFE_METHODS.has(req.method)) return;
  const origin = req.headers.get("origin");
  if (!origin || origin !== new URL(env().APP_URL).origin) {
    throw new AppError("forbidden", "Cookie-authenticated writes must come from the application's own origin");
  }
}

/**
 * Interface rules 1–2: no or invalid credentials → 401; a valid credential of a kind the
 * operation does not accept → 403. The first accepted mode present on the request wins.
 */
export async function authenticate(req: Request, accepted: readonly AuthMode[]): Promise<Principal> {
  for (const mode of accepted) {
    const value = credentialOf(mode, req);
    if (value) return verify(mode, value, req);
  }
  for (const mode of ALL_MODES) {
    const value = credentialOf(mode, req);
    if (value) {
      await verify(mode, value, req);
      throw new AppError("credential_not_allowed", "These credentials are not allowed for this operation");
    }
  }
  throw new AppError("unauthorized", "Missing credentials");
}
