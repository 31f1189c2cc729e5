import { type NextRequest, NextResponse } from "next/server";
import { matchApiRoute } from "@/lib/http/api-routes";

/**
 * Runs before every request but static assets. It imports only the route table (no database,
 * no schemas): it stays small.
 *
 * Every request: `x-duebill-socket-ip` (the client IP the rate limiter trusts) survives only
 * when scripts/server.mjs stamped it, proven by the per-process secret it puts in
 * `x-duebill-socket-ip-proof` and in DUEBILL_SOCKET_IP_PROOF; under any other server (`next
 * start`, `next dev`) a client-sent value is dropped, so a client cannot pick its own rate-limit
 * bucket there. A client-sent preflight-route header is dropped too.
 *
 * API paths (/v1, /v2, /api): each request gets its x-request-id (the caller's, when sane) so
 * every answer carries it, and every answer that is not an operation's own is still the JSON
 * error body: a malformed percent-escape (400; Next would answer a plain-text 500), a path no
 * route serves (404; Next's HTML page) and a method the route does not serve (405 with Allow;
 * Next's empty body). A plain OPTIONS answers 204 with Allow; a CORS preflight (Origin and
 * Access-Control-Request-Method) is handed to /api/cors-preflight, which knows the client IDs'
 * allowed origins (lib/http/cors.ts). Methods Next cannot route at all (TRACE, CONNECT) fail
 * inside Next before this runs: the production server (scripts/server.mjs) answers those itself.
 *
 * Pages: a malformed percent-escape in the path renders the not-found page (404) instead of
 * Next's plain-text 500.
 */
const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;
const API = /^\/(v1|v2|api)(\/|$)/;
const SOCKET_IP = "x-duebill-socket-ip";
const SOCKET_IP_PROOF = "x-duebill-socket-ip-proof";
const PREFLIGHT_ROUTE = "x-duebill-preflight-route";
/** Not a route: rewriting a malformed page path here renders app/not-found.tsx. */
const MALFORMED_PAGE_PATH = "/_malformed-path";
const STATUS_TEXT: Record<number, string> = { 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed" };

function sameSecret(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function apiError(
  status: number,
  code: string,
  message: string,
  requestId: string,
  extra: { errors?: { field: string; message: string }[]; headers?: Record<string, string> } = {},
): NextResponse {
  const body = {
    statusCode: status,
    error: STATUS_TEXT[status],
    message,
    code,
    ...(extra.errors ? { errors: extra.errors } : {}),
    requestId,
  };
  return new NextResponse(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-request-id": requestId,
      ...extra.headers,
    },
  });
}

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export function proxy(req: NextRequest): NextResponse {
  const headers = new Headers(req.headers);
  const proof = process.env.DUEBILL_SOCKET_IP_PROOF;
  const presented = headers.get(SOCKET_IP_PROOF);
  if (!proof || !presented || !sameSecret(presented, proof)) headers.delete(SOCKET_IP);
  headers.delete(SOCKET_IP_PROOF);
  headers.delete(PREFLIGHT_ROUTE);

  const rawPath = req.url.replace(/^[a-z]+:\/\/[^/]+/i, "").split(/[?#]/, 1)[0] ?? "/";
  if (!API.test(rawPath)) {
    if (!decodable(rawPath)) return NextResponse.rewrite(new URL(MALFORMED_PAGE_PATH, req.url), { request: { headers } });
    return NextResponse.next({ request: { headers } });
  }

  const incoming = req.headers.get("x-request-id");
  const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  if (!decodable(rawPath)) {
    return apiError(400, "validation_failed", "Validation failed", requestId, {
      errors: [{ field: "path", message: "malformed percent-escape in the path" }],
    });
  }
  const route = matchApiRoute(rawPath);
  if (!route) return apiError(404, "not_found", "No API operation at this path", requestId);
  const allow = route.allow.join(", ");
  headers.set("x-request-id", requestId);
  let res: NextResponse;
  if (req.method === "OPTIONS") {
    if (req.headers.get("origin") && req.headers.get("access-control-request-method")) {
      headers.set(PREFLIGHT_ROUTE, route.template);
      res = NextResponse.rewrite(new URL("/api/cors-preflight", req.url), { request: { headers } });
      res.headers.set("allow", allow);
    } else {
      res = new NextResponse(null, { status: 204, headers: { allow, "cache-control": "no-store" } });
    }
  } else if (!route.allow.includes(req.method)) {
    res = apiError(405, "method_not_allowed", `Method ${req.method.slice(0, 16)} is not allowed here (allowed: ${allow})`, requestId, {
      headers: { allow },
    });
  } else {
    res = NextResponse.next({ request: { headers } });
  }
  res.headers.set("x-request-id", requestId);
  return res;
}

export const config = {
  // Everything but the build's static files (they are served before any route and carry no escapes of ours).
  matcher: ["/((?!_next/static/|_next/image).*)"],
};
