import type { z } from "zod";
import type { AuthMode } from "@/lib/auth/principal";

/**
 * An API operation: method, path, credentials and the zod schemas of its inputs and
 * outputs. Route files wrap one of these with `withApi`, and /v2/openapi.json is generated
 * from the same objects, so documentation and validation cannot drift apart.
 */
export type { AuthMode };

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** A non-JSON body (e.g. "application/pdf"): documented as a binary string of that media type. */
  contentType?: string;
  /** A body other than JSON (e.g. text/csv), by media type; used instead of `schema`'s application/json. */
  content?: Record<string, z.ZodType>;
}

export interface Operation<Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, P extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/v2/currencies/{currencyId}/conversion-routes`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Accepted credentials, in order of preference. Empty: public. */
  auth: readonly AuthMode[];
  query?: Q;
  body?: B;
  /** An empty request body is read as `{}` (e.g. a toggle that takes optional fields). */
  bodyOptional?: boolean;
  params?: P;
  responses: Record<number, ResponseSpec>;
  /** "relaxed" for client-ID management endpoints (a larger, separate allowance); "off" only for benchmarks. */
  rateLimit?: "default" | "relaxed" | "off";
  /**
   * False for operations a browser must never perform (webhook management: its answers carry
   * secrets and it steers account-wide events): a browser client ID gets 403 there.
   */
  browser?: boolean;
  /** Honour `Idempotency-Key` (writes that create something). */
  idempotent?: boolean;
}

export function defineOperation<Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, P extends z.ZodType = z.ZodType>(
  op: Operation<Q, B, P>,
): Operation<Q, B, P> {
  return op;
}

/** `op` served at another path as well (same schemas, credentials and behaviour), documented under its own id. */
export function aliasOperation<Q extends z.ZodType, B extends z.ZodType, P extends z.ZodType>(
  op: Operation<Q, B, P>,
  path: string,
  operationId: string,
): Operation<Q, B, P> {
  return { ...op, path, operationId, summary: `${op.summary} (alias of ${op.path})` };
}
