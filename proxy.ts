import { type NextRequest, NextResponse } from "next/server";

/**
 * Runs before every API route (/v1, /v2, /api): gives each request its x-request-id (the
 * caller's, when sane) so every answer carries it — the framework's own 404/405 too — and
 * answers what the framework would turn into a plain-text 500 with the JSON error body:
 * methods no route serves (TRACE, CONNECT, …) → 405, malformed percent-escapes → 400.
 * It imports nothing from lib: it stays small and runs on every API request.
 */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;
const STATUS_TEXT: Record<number, string> = { 400: "Bad Request", 405: "Method Not Allowed" };

function fail(
  requestId: string,
  status: 400 | 405,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const body = { statusCode: status, error: STATUS_TEXT[status], message, code, ...extra, requestId };
  return new NextResponse(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-request-id": requestId,
      ...headers,
    },
  });
}

export function proxy(req: NextRequest): NextResponse {
  const incoming = req.headers.get("x-request-id");
  const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  if (!METHODS.has(req.method)) {
    return fail(
      requestId,
      405,
      "method_not_allowed",
      `Method ${req.method.slice(0, 16)} is not allowed`,
      {},
      { allow: [...METHODS].join(", ") },
    );
  }
  const rawPath = req.url.replace(/^[a-z]+:\/\/[^/]+/i, "").split(/[?#]/, 1)[0] ?? "/";
  try {
    decodeURIComponent(rawPath);
  } catch {
    return fail(requestId, 400, "validation_failed", "Validation failed", {
      errors: [{ field: "path", message: "malformed percent-escape in the path" }],
    });
  }
  const headers = new Headers(req.headers);
  headers.set("x-request-id", requestId);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("x-request-id", requestId);
  return res;
}

export const config = { matcher: ["/v1/:path*", "/v2/:path*", "/api/:path*"] };
