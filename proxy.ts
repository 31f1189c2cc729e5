import { type NextRequest, NextResponse } from "next/server";

/**
 * Runs before every API route (/v1, /v2, /api): gives each request its x-request-id (the
 * caller's, when sane) so every answer carries it — the framework's own 404/405 too — and
 * answers a malformed percent-escape with the JSON 400 instead of the framework's plain-text
 * 500. Methods no route serves (TRACE, CONNECT) fail inside Next before this runs: the
 * production server (scripts/server.mjs) answers those itself.
 * It imports nothing from lib: it stays small and runs on every API request.
 */
const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

export function proxy(req: NextRequest): NextResponse {
  const incoming = req.headers.get("x-request-id");
  const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
  const rawPath = req.url.replace(/^[a-z]+:\/\/[^/]+/i, "").split(/[?#]/, 1)[0] ?? "/";
  try {
    decodeURIComponent(rawPath);
  } catch {
    const body = {
      statusCode: 400,
      error: "Bad Request",
      message: "Validation failed",
      code: "validation_failed",
      errors: [{ field: "path", message: "malformed percent-escape in the path" }],
      requestId,
    };
    return new NextResponse(JSON.stringify(body), {
      status: 400,
      headers: {
        "content-type": "application/json",
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "x-request-id": requestId,
      },
    });
  }
  const headers = new Headers(req.headers);
  headers.set("x-request-id", requestId);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("x-request-id", requestId);
  return res;
}

export const config = { matcher: ["/v1/:path*", "/v2/:path*", "/api/:path*"] };
