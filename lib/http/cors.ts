import { isBrowserOriginOfSomeClientId } from "@/lib/auth/api-credentials";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import type { Operation } from "@/lib/http/operation";
import { enforceRateLimit } from "@/lib/http/rate-limit/enforce";

/**
 * CORS for browser client IDs (docs/api/auth.md "Browser calls (CORS)"). A page on one of a client ID's
 * allowed domains calls the operations that take `x-client-id` with fetch; nothing else is
 * opened cross-origin.
 *
 * - Never credentialed: no `Access-Control-Allow-Credentials`, so a browser refuses any
 *   cross-origin call that would carry the session cookie (or asks for it), and the session
 *   routes stay same-origin. `Authorization`, `x-api-key` and `x-orchestrator-key` are not
 *   allowed request headers: server credentials cannot be sent from another origin's page.
 * - Preflight (OPTIONS): it carries no x-client-id value, only the header's name, so it cannot
 *   be checked against one client ID. It is granted to an Origin that is an allowed domain of
 *   at least one active client ID, for a method of the path that browser client IDs may call
 *   and only the headers listed below; anything else gets the JSON 403 and no grant, so a
 *   foreign origin's browser never sends the request. A refused preflight counts against the
 *   caller's IP like a failed authentication.
 * - Actual response: `Access-Control-Allow-Origin` echoes the Origin only when the presented
 *   client ID allows that Origin (verifyClientId checked it); a foreign Origin gets the 403 it
 *   always got, without the header, so its page cannot read even that.
 */
export const CORS_ALLOW_HEADERS = ["content-type", "x-client-id", "idempotency-key", "x-request-id"] as const;
export const CORS_EXPOSE_HEADERS = [
  "x-request-id",
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
  "retry-after",
  "idempotent-replayed",
] as const;
/** Browsers cache a granted preflight this long: a removed allowed domain stops preflights within 10 minutes. */
export const CORS_MAX_AGE_SECONDS = 600;
/** Set by proxy.ts on a preflight it hands to /api/cors-preflight: the path template of the route asked about. */
export const PREFLIGHT_ROUTE_HEADER = "x-duebill-preflight-route";

/** An operation a browser client ID may call (and so may call cross-origin). */
export function isBrowserOperation(op: Pick<Operation, "auth" | "browser">): boolean {
  return op.auth.includes("clientId") && op.browser !== false;
}

/** The Origin header when it is a serialised origin as browsers send it, else null. */
function canonicalOrigin(req: Request): string | null {
  const origin = req.headers.get("origin");
  if (!origin) return null;
  try {
    return new URL(origin).origin === origin ? origin : null;
  } catch {
    return null;
  }
}

/**
 * CORS headers of an actual response of `op`: `Vary: Origin` on every browser operation, the
 * grant only for a client-ID principal whose allowed domains include the request's Origin.
 */
export function corsResponseHeaders(
  req: Request,
  op: Pick<Operation, "auth" | "browser">,
  principal: Principal | null,
): Record<string, string> {
  if (!isBrowserOperation(op)) return {};
  const origin = canonicalOrigin(req);
  if (!origin || principal?.kind !== "clientId" || !principal.browser) return { Vary: "Origin" };
  return {
    Vary: "Origin",
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": CORS_EXPOSE_HEADERS.join(", "),
  };
}

/** Methods of `ops` (one path's operations) that browser client IDs may call, HEAD with GET. */
export function browserMethods(ops: readonly Pick<Operation, "auth" | "browser" | "method">[]): string[] {
  const methods = new Set(ops.filter(isBrowserOperation).map((op) => op.method as string));
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods];
}

/**
 * The answer to a CORS preflight for the operations at one path: 204 with the grant, or the
 * JSON error (403, or 429 once refusals from this IP exceed its limit) without one.
 */
export async function preflight(req: Request, ops: readonly Pick<Operation, "auth" | "browser" | "method">[]): Promise<Response> {
  const requested = (req.headers.get("access-control-request-method") ?? "").toUpperCase();
  const requestedHeaders = (req.headers.get("access-control-request-headers") ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const methods = browserMethods(ops);
  const origin = canonicalOrigin(req);
  let refusal: AppError | null = null;
  if (!methods.includes(requested)) {
    refusal = new AppError(
      "credential_not_allowed",
      `${requested || "This method"} at this path is not open to browser client IDs: call it from your server`,
    );
  } else {
    const foreign = requestedHeaders.filter((h) => !(CORS_ALLOW_HEADERS as readonly string[]).includes(h));
    if (foreign.length > 0) {
      refusal = new AppError(
        "forbidden",
        `Cross-origin requests may send only ${CORS_ALLOW_HEADERS.join(", ")}; not ${foreign.join(", ")} (server credentials never leave your server)`,
      );
    } else if (!origin || !(await isBrowserOriginOfSomeClientId(origin))) {
      refusal = new AppError("origin_not_allowed", "Origin is not an allowed domain of any active client ID");
    }
  }
  if (refusal) {
    await enforceRateLimit(req, null);
    throw refusal;
  }
  return new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": origin as string,
      "Access-Control-Allow-Methods": methods.join(", "),
      "Access-Control-Allow-Headers": CORS_ALLOW_HEADERS.join(", "),
      "Access-Control-Max-Age": String(CORS_MAX_AGE_SECONDS),
      Vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
      "cache-control": "no-store",
    },
  });
}
