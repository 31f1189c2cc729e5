import { AppError } from "@/lib/errors";

/**
 * Which dependency an error says is unreachable, or null when it is not an outage. A database
 * restart, a cut to Redis or a chain's RPC is not a bug in the request: the API answers 503 with
 * Retry-After (faultResponseError) instead of a 500, and the worker backs off (lib/jobs/worker.ts).
 *
 * Recognised by shape, not by class, because the errors come wrapped: Prisma wraps the pg driver
 * (P1001 can't reach, P1017 closed, P2024 pool timeout, a driver-adapter cause kind, or the raw
 * SQLSTATE in the message: class 08 connection exception, 57P01–57P03 shutdown / starting up,
 * 53300 too many connections), and lib/db.ts rawQuery() wraps pg's own errors in a DatabaseQueryError; viem wraps its transport errors (HttpRequestError, TimeoutError,
 * WebSocketRequestError, SocketClosedError) in call errors; ioredis throws its own.
 */
export type Dependency = "database" | "redis" | "rpc";

const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const SQLSTATE = /\b(08(?:000|001|003|004|006|007|P01)|57P0[1-3]|53300)\b/;
const PG_DOWN =
  /Connection terminated|Can't reach database|the database system is (?:starting up|shutting down|in recovery mode)|terminating connection due to administrator command|timeout exceeded when trying to connect|Client has encountered a connection error|Server has closed the connection/i;
const NET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
const VIEM_TRANSPORT = new Set(["HttpRequestError", "TimeoutError", "WebSocketRequestError", "SocketClosedError"]);
const REDIS_NAMES = new Set(["MaxRetriesPerRequestError"]);
const REDIS_DOWN = /Connection is closed|Stream isn't writeable|enableOfflineQueue/;

interface Shape {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  errors?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } };
}

/** The error and its causes (cause chains, AggregateError members), at most 20 links. */
function chain(err: unknown): Shape[] {
  const out: Shape[] = [];
  const todo: unknown[] = [err];
  while (todo.length > 0 && out.length < 20) {
    const e = todo.shift();
    if (!e || typeof e !== "object" || out.includes(e as Shape)) continue;
    const s = e as Shape;
    out.push(s);
    todo.push(s.cause, s.meta?.driverAdapterError?.cause);
    if (Array.isArray(s.errors)) todo.push(...s.errors);
  }
  return out;
}

export function dependencyFault(err: unknown): Dependency | null {
  if (err instanceof AppError) return null;
  const links = chain(err);
  const name = (s: Shape) => (typeof s.name === "string" ? s.name : "");
  const msg = (s: Shape) => (typeof s.message === "string" ? s.message : "");
  // Ours when it came through the database client: Prisma, its driver adapter, or lib/db.ts rawQuery().
  const isPrisma = links.some(
    (s) => name(s).startsWith("PrismaClient") || name(s) === "DriverAdapterError" || name(s) === "DatabaseQueryError",
  );
  for (const s of links) {
    if (VIEM_TRANSPORT.has(name(s))) return "rpc";
    if (REDIS_NAMES.has(name(s)) || (name(s) !== "Error" && /redis/i.test(name(s)))) return "redis";
    if (name(s) === "PrismaClientInitializationError") return "database";
    if (typeof s.code === "string" && PRISMA_CODES.has(s.code)) return "database";
    if (typeof s.kind === "string" && ADAPTER_KINDS.has(s.kind)) return "database";
    const pgCode = typeof s.originalCode === "string" ? s.originalCode : typeof s.code === "string" ? s.code : "";
    if (SQLSTATE.test(pgCode) || (isPrisma && SQLSTATE.test(msg(s)))) return "database";
    if (PG_DOWN.test(msg(s))) return "database";
    if (REDIS_DOWN.test(msg(s))) return "redis";
  }
  // A bare socket error: ours only when it came through Prisma (a raw fetch's ECONNREFUSED is the caller's to judge).
  if (isPrisma && links.some((s) => typeof s.code === "string" && NET_CODES.has(s.code))) return "database";
  return null;
}

const WHAT: Record<Dependency, string> = {
  database: "The database is unavailable",
  redis: "The rate-limit store (Redis) is unavailable",
  rpc: "The chain's RPC is unavailable",
};

/** Seconds a client should wait before retrying during an outage (a Postgres restart takes a few). */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/** The 503 an outage answers with, or null when `err` is not one. */
export function faultResponseError(err: unknown): AppError | null {
  const dep = dependencyFault(err);
  if (!dep) return null;
  return new AppError("upstream_unavailable", `${WHAT[dep]}; retry shortly`, {
    headers: { "Retry-After": String(OUTAGE_RETRY_AFTER_SECONDS) },
  });
}
