import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { authenticate, type Principal } from "@/lib/auth/principal";
import { env } from "@/lib/env";
import { AppError, errorBody } from "@/lib/errors";
import { faultResponseError, OUTAGE_RETRY_AFTER_SECONDS } from "@/lib/faults";
import { corsResponseHeaders } from "@/lib/http/cors";
import { withIdempotency } from "@/lib/http/idempotency";
import type { Operation } from "@/lib/http/operation";
import { parseWith, queryObject, readJsonBody } from "@/lib/http/parse";
import { enforceRateLimit } from "@/lib/http/rate-limit/enforce";
import { log } from "@/lib/log";

export interface ApiContext<Q, B, P> {
  req: Request;
  requestId: string;
  /** Null only for operations with `auth: []`. */
  principal: Principal;
  query: Q;
  body: B;
  params: P;
}

type RouteContext = { params?: Promise<Record<string, string | string[]>> };
export type RouteHandler = (req: Request, ctx?: RouteContext) => Promise<Response>;
/** A route handler that carries its operation, so tests can match route files to the registry. */
export type ApiRoute = RouteHandler & {
  readonly operation: Operation;
  /** The operation's own handler, so an alias path can serve it (aliasRoute). */
  readonly serve: (ctx: ApiContext<never, never, never>) => Promise<Response>;
};

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * The one wrapper every API route goes through: request ID, authentication, zod parsing of
 * query/params/body, and a single catch that turns any error into the error body of docs/spec/DECISIONS.md "Errors".
 * It reads only the Request, so tests call route handlers directly.
 */
export function withApi<Q extends z.ZodType, B extends z.ZodType, P extends z.ZodType>(
  op: Operation<Q, B, P>,
  handler: (ctx: ApiContext<z.output<Q>, z.output<B>, z.output<P>>) => Promise<Response>,
): ApiRoute {
  const route: RouteHandler = async (req, routeCtx) => {
    const incoming = req.headers.get("x-request-id");
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    let res: Response;
    let limitHeaders: Record<string, string> = {};
    let authenticated: Principal | null = null;
    try {
      const principal = op.auth.length > 0 ? await authenticateLimited(req, op) : (null as unknown as Principal);
      authenticated = principal;
      if (op.rateLimit !== "off") limitHeaders = await enforceRateLimit(req, principal, op.rateLimit === "relaxed");
      const params = op.params ? parseWith(op.params, (await routeCtx?.params) ?? {}) : undefined;
      const query = op.query ? parseWith(op.query, queryObject(new URL(req.url))) : undefined;
      const body = op.body ? parseWith(op.body, await readJsonBody(req, env().MAX_BODY_BYTES, op.bodyOptional)) : undefined;
      const call = () => handler({ req, requestId, principal, query, body, params } as ApiContext<z.output<Q>, z.output<B>, z.output<P>>);
      res = op.idempotent ? await withIdempotency(req, principal, body, call) : await call();
    } catch (err) {
      res = errorResponse(err, requestId, op);
    }
    res.headers.set("x-request-id", requestId);
    for (const [k, v] of Object.entries(limitHeaders)) if (!res.headers.has(k)) res.headers.set(k, v);
    for (const [k, v] of Object.entries(corsResponseHeaders(req, op, authenticated))) {
      if (k === "Vary") res.headers.append(k, v);
      else res.headers.set(k, v);
    }
    return res;
  };
  return Object.assign(route, { operation: op as Operation, serve: handler as ApiRoute["serve"] });
}

/**
 * The same operation at another path (the reference's auth-service paths, e.g. /v1/client-ids
 * for /v2/client-ids): `alias` is `aliasOperation(route.operation, …)`, so parsing, credentials,
 * rate limits and the handler are the original's.
 */
export function aliasRoute(route: ApiRoute, alias: Operation): ApiRoute {
  if (alias.method !== route.operation.method) throw new Error(`alias ${alias.operationId} is not a ${route.operation.method}`);
  return withApi(alias, route.serve as (ctx: ApiContext<unknown, unknown, unknown>) => Promise<Response>);
}

/**
 * Failed authentication counts against the caller's IP, so guessing credentials is throttled
 * too: the 401s (no or unknown credential) and the 403s (revoked or restricted client ID,
 * foreign Origin, a credential kind the operation does not take), or a caller could probe with
 * those unthrottled.
 */
async function authenticateLimited(req: Request, op: Operation): Promise<Principal> {
  try {
    const principal = await authenticate(req, op.auth);
    if (op.browser === false && principal.kind === "clientId" && principal.browser) {
      throw new AppError("credential_not_allowed", "This operation is not available to browser client IDs: call it from your server");
    }
    return principal;
  } catch (err) {
    if (err instanceof AppError && (err.status === 401 || err.status === 403) && op.rateLimit !== "off") await enforceRateLimit(req, null);
    throw err;
  }
}

export function errorResponse(err: unknown, requestId: string, op?: Pick<Operation, "method" | "path">): Response {
  let appErr: AppError;
  const fault = err instanceof AppError ? null : faultResponseError(err);
  if (err instanceof AppError) {
    appErr = err;
  } else if (fault) {
    // A dependency is down (database restart, Redis or RPC cut): a 503 the client retries, not a 500.
    log.warn("dependency unavailable", { requestId, route: op ? `${op.method} ${op.path}` : undefined, err });
    appErr = fault;
  } else {
    log.error("unhandled error", { requestId, route: op ? `${op.method} ${op.path}` : undefined, err });
    appErr = new AppError("internal_error", "Internal server error");
  }
  const headers = new Headers({ "content-type": "application/json", "cache-control": "no-store", ...appErr.headers });
  // Every 503 tells the client when to come back (RFC 9110 §10.2.3).
  if (appErr.status === 503 && !headers.has("retry-after")) headers.set("Retry-After", String(OUTAGE_RETRY_AFTER_SECONDS));
  return new Response(JSON.stringify(errorBody(appErr, requestId)), { status: appErr.status, headers });
}

/** JSON response. Pass a pre-serialised string for hot, immutable payloads. */
export function json(data: unknown, status = 200, headers?: Record<string, string>): Response {
  const body = typeof data === "string" ? data : JSON.stringify(data);
  return new Response(body, { status, headers: { "content-type": "application/json", "cache-control": "no-store", ...headers } });
}
