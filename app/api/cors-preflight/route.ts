import { randomUUID } from "node:crypto";
import { PREFLIGHT_ROUTE_HEADER, preflight } from "@/lib/http/cors";
import { errorResponse } from "@/lib/http/handler";
import { OPERATIONS } from "@/lib/operations/index";

export const dynamic = "force-dynamic";

/**
 * CORS preflights of the API, handed here by proxy.ts (which names the route asked about in
 * x-duebill-preflight-route and drops a client-sent one): the grant needs the client IDs'
 * allowed origins, which the proxy does not read. See lib/http/cors.ts.
 */
export async function OPTIONS(req: Request): Promise<Response> {
  const requestId = req.headers.get("x-request-id") ?? randomUUID();
  const route = req.headers.get(PREFLIGHT_ROUTE_HEADER) ?? "";
  let res: Response;
  try {
    res = await preflight(
      req,
      OPERATIONS.filter((op) => op.path === route),
    );
  } catch (err) {
    res = errorResponse(err, requestId);
  }
  res.headers.set("x-request-id", requestId);
  return res;
}
