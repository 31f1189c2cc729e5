import { AsyncLocalStorage } from "node:async_hooks";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { env } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";

export type Db = PrismaClient;

const globalForDb = globalThis as unknown as {
  duebillDb?: PrismaClient;
  duebillDbShared?: PrismaClient;
  duebillUnitOfWork?: AsyncLocalStorage<PrismaClient>;
  duebillPool?: pg.Pool;
};

function createClient(): PrismaClient {
  const { DATABASE_URL, DATABASE_POOL_MAX } = env();
  if (!DATABASE_URL) {
    throw new Error("DATABASE_URL is not set: start the app with `npm run dev` (embedded database) or set it.");
  }
  // The pool is ours, handed to Prisma's adapter, so the few statements rawQuery() runs share its
  // connections (the embedded database takes one connection per process: a second pool would break it).
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: DATABASE_POOL_MAX });
  // An idle connection the server drops (a restart) is an 'error' event on the pool: without a listener
  // it would end the process. Prisma's adapter adds its own only once Prisma connects; rawQuery may come first.
  pool.on("error", (err) => log.warn("database connection lost while idle", { err }));
  globalForDb.duebillPool = pool;
  const adapter = new PrismaPg(pool);
  return new PrismaClient({ adapter });
}

/** One client per process (Next's dev server re-evaluates modules; keep it on globalThis). */
function rootClient(): PrismaClient {
  globalForDb.duebillDb ??= createClient();
  return globalForDb.duebillDb;
}

/**
 * The transaction a unit of work runs in (see inTransaction), as seen by every db() call in it. On
 * globalThis like the client: a Next build may hold two copies of this module (route bundles), and
 * the shared proxy made by one must run its transactions in the store the other's db() reads.
 */
globalForDb.duebillUnitOfWork ??= new AsyncLocalStorage<PrismaClient>();
const unitOfWork = globalForDb.duebillUnitOfWork;

/**
 * The pool as code sees it: an interactive `$transaction(cb)` is a unit of work too, so every
 * db() call made inside `cb` (however deep, even one that forgot to use `tx`) runs in that
 * transaction instead of taking a second connection. Besides consistency, this is what lets
 * the embedded database run on one connection (scripts/runtime/embedded-db.ts) without a transaction
 * waiting forever on a query of its own.
 */
function sharedClient(): PrismaClient {
  globalForDb.duebillDbShared ??= new Proxy(rootClient(), {
    get(target, prop, receiver) {
      if (prop === "$transaction") {
        return (arg: unknown, opts?: Record<string, unknown>) => {
          if (typeof arg !== "function") return (target.$transaction as (a: unknown, o?: unknown) => unknown)(arg, opts);
          return target.$transaction((tx) => {
            const unit = joined(tx as unknown as PrismaClient);
            return unitOfWork.run(unit, () => (arg as (c: PrismaClient) => Promise<unknown>)(unit));
          }, opts);
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  return globalForDb.duebillDbShared;
}

/** The database: the current unit of work's transaction inside a transaction, the pool otherwise. */
export function db(): PrismaClient {
  return unitOfWork.getStore() ?? sharedClient();
}

/**
 * Runs `fn` as one transaction: every db() call inside it, however deep, uses the same
 * transaction, and a nested db().$transaction(cb) joins it instead of opening another. Used
 * where a whole request must commit or vanish as one (Idempotency-Key: the stored response
 * commits with the objects it describes). Throwing rolls everything back.
 */
export function inTransaction<T>(fn: () => Promise<T>, opts: { timeoutMs?: number } = {}): Promise<T> {
  return rootClient().$transaction((tx) => unitOfWork.run(joined(tx as unknown as PrismaClient), fn), {
    timeout: opts.timeoutMs ?? 30_000,
    maxWait: 10_000,
  });
}

function joined(tx: PrismaClient): PrismaClient {
  const proxy: PrismaClient = new Proxy(tx, {
    get(target, prop, receiver) {
      if (prop === "$transaction") {
        return (arg: unknown) =>
          typeof arg === "function" ? (arg as (c: PrismaClient) => unknown)(proxy) : Promise.all(arg as Promise<unknown>[]);
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  return proxy;
}

export async function disconnectDb(): Promise<void> {
  const client = globalForDb.duebillDb;
  const pool = globalForDb.duebillPool;
  globalForDb.duebillDb = undefined;
  globalForDb.duebillDbShared = undefined;
  globalForDb.duebillPool = undefined;
  try {
    await client?.$disconnect();
  } finally {
    await pool?.end();
  }
}

/** An error of a rawQuery() statement: the driver's error as its cause, its SQLSTATE as `code` (lib/faults.ts reads both). */
export class DatabaseQueryError extends Error {
  override name = "DatabaseQueryError";
  readonly code: string | undefined;
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    const code = (cause as { code?: unknown } | null)?.code;
    this.code = typeof code === "string" ? code : undefined;
  }
}

/**
 * One SQL statement ($1, $2… parameters) on the pool under Prisma, through node-postgres itself:
 * for the few statements run so often that Prisma's own work per row is what the profile names
 * (the webhook sweep's claim and outcome write: 85 and 53 µs of client CPU per delivery through
 * $queryRaw, 27 and 19 through pg, measured on this machine). Rows come back as pg parses them: text,
 * int4 as number, bool; pass timestamps as ISO strings and cast them in the SQL (`$1::timestamp`),
 * since pg sends a Date in the process's time zone. Inside a unit of work (inTransaction, an
 * interactive $transaction) the statement runs in that transaction, through Prisma.
 */
export async function rawQuery<R>(text: string, values: readonly unknown[]): Promise<R[]> {
  const unit = unitOfWork.getStore();
  if (unit) return unit.$queryRawUnsafe<R[]>(text, ...values);
  rootClient();
  try {
    return (await globalForDb.duebillPool!.query(text, values as unknown[])).rows as R[];
  } catch (err) {
    throw new DatabaseQueryError(err);
  }
}
export async function checkHealth(): Promise<{ ok: boolean; database: "up" | "down" }> {
  try {
    await rootClient().$queryRaw`SELECT 1`;
    return { ok: true, database: "up" };
  } catch {
    return { ok: false, database: "down" };
  }
}
