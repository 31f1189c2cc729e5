import { type NextRequest, NextResponse } from "next/server";
import { socketIpProof } from "@/lib/env";
import { matchApiRoute } from "@/lib/http/api-routes";

/**
 * Runs before every request but static assets. It imports only the route table and lib/env (no
 * database, no operation schemas): it stays small.
 *
 * Every request: `x-duebill-socket-ip` (the client IP the rate limiter trusts) survives only
 * when scripts/runtime/server.mjs stamped it, proven by the per-process secret it puts in
 * `x-duebill-socket-ip-proof` and in DUEBILL_SOCKET_IP_PROOF (lib/env.ts socketIpProof); under any other server (`next
 * start`, `next dev`) a client-sent value is dropped, so a client cannot pick its own rate-limit
 * bucket there. A client-sent preflight-route header is dropped too.
 *
 * API paths (/v1, /v2, /api): each request gets its x-request-id (the caller's, when sane) so
 * every answer carries it, and every answer that is not an operation's own is still the JSON
 * error body: a malformed percent-escape (400; Next would answer a plain-text 500), a path no
 * route serves (404; Next's HTML page) and a method the route does not serve (405 with Allow;
 * Next's empty body). A plain OPTIONS answers 204 with Allow; a CORS preflight (Origin and
 * Access-Control-Request-Method) is marked with the route's template and rewritten (next.config.ts)
 * to /api/cors-preflight, which knows the client IDs' allowed origins (lib/http/cors.ts). Methods Next cannot route at all (TRACE, CONNECT) fail
 * inside Next before this runs: the production server (scripts/runtime/server.mjs) answers those itself.
 *
 * Pages: a malformed percent-escape in the path answers a 400 page instead of Next's plain-text
 * 500.
 */
const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;
const API = /^\/(v1|v2|api)(\/|$)/;
const SOCKET_IP = "x-duebill-socket-ip";
const SOCKET_IP_PROOF = "x-duebill-socket-ip-proof";
const PREFLIGHT_ROUTE = "x-duebill-preflight-route";
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

/**
 * The 400 page of a page path with a malformed percent-escape: self-contained (the app cannot
 * route a path it cannot decode), in the look of app/not-found.tsx, under the pages' CSP
 * (next.config.ts adds it; inline styles are allowed there).
 */
function malformedPage(): NextResponse {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bad address · Duebill</title><meta name="robots" content="noindex, nofollow">
<style>
body{margin:0;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8fafc;color:#0f172a}
header{border-bottom:1px solid #e2e8f0;background:#fff}header a{display:block;max-width:64rem;margin:0 auto;padding:1rem;font-weight:600;color:#0f172a;text-decoration:none}
main{max-width:36rem;margin:0 auto;padding:3rem 1rem}
section{background:#fff;border-radius:1rem;padding:1.5rem;box-shadow:0 1px 2px rgba(15,23,42,.06);outline:1px solid #e2e8f0}
.code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.875rem;font-weight:600;color:#4f46e5;margin:0}
h1{margin:.25rem 0 0;font-size:1.5rem;letter-spacing:-.01em}p.text{margin:.5rem 0 0;font-size:.875rem;line-height:1.5rem;color:#475569}
.actions{margin-top:1.5rem;display:flex;flex-wrap:wrap;gap:.75rem}
.actions a{border-radius:.75rem;padding:.625rem 1rem;font-size:.875rem;font-weight:600;text-decoration:none}
.primary{background:#4f46e5;color:#fff}.secondary{background:#fff;color:#1e293b;outline:1px solid #cbd5e1}
</style></head>
<body><header><a href="/">Duebill</a></header>
<main><section aria-labelledby="h"><p class="code">400</p><h1 id="h">This address is malformed</h1>
<p class="text">Part of the address is not valid (a broken percent-escape), so there is no page to show. If you followed a payment link, check that you opened the complete link, exactly as you received it.</p>
<div class="actions"><a class="primary" href="/">Go to the home page</a><a class="secondary" href="/docs">API reference</a></div>
</section></main></body></html>`;
  return new NextResponse(html, { status: 400, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
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
  const proof = socketIpProof();
  const presented = headers.get(SOCKET_IP_PROOF);
  if (!proof || !presented || !sameSecret(presented, proof)) headers.delete(SOCKET_IP);
  headers.delete(SOCKET_IP_PROOF);
  headers.delete(PREFLIGHT_ROUTE);

  const rawPath = req.url.replace(/^[a-z]+:\/\/[^/]+/i, "").split(/[?#]/, 1)[0] ?? "/";
  if (!API.test(rawPath)) {
    if (!decodable(rawPath)) return malformedPage();
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
      // next.config.ts rewrites a request carrying this header to /api/cors-preflight. Not
      // NextResponse.rewrite: behind a custom server its absolute URL (built on "localhost")
      // need not match the server's own origin, and Next would then proxy it over the network.
      headers.set(PREFLIGHT_ROUTE, route.template);
      res = NextResponse.next({ request: { headers } });
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
