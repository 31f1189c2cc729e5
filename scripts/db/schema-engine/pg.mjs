// Postgres side of the schema-engine stand-in: connection-string helpers, the
// `cli` sub-commands, and a driver-adapter factory for the Wasm schema engine
// that works around three @prisma/adapter-pg 7.10.1 bugs on the migration path.
import { randomBytes } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory, ColumnTypeEnum } from "@prisma/driver-adapter-utils";
import pg from "pg";

/** Error carrying a Prisma error code (P1001, P1003, ...) for the CLI. */
export class EngineError extends Error {
  constructor(code, message, meta = {}) {
    super(message);
    this.code = code;
    this.meta = meta;
  }
}

export function dbNameOf(url) {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));
  return name || "postgres";
}

export function withDb(url, name) {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
}

/** SCHEMA_ENGINE_STANDIN_DEBUG=1 traces requests and shadow databases on stderr (shown by DEBUG=prisma:schemaEngine*). */
export const debug = process.env.SCHEMA_ENGINE_STANDIN_DEBUG ? (...args) => console.error("[stand-in]", ...args) : () => {};

const quoteIdent = (name) => `"${name.replaceAll('"', '""')}"`;

/** Map a node-postgres connection error to a Prisma P1xxx error. */
export function toEngineError(err, url) {
  if (err instanceof EngineError) return err;
  const u = new URL(url);
  const host = u.hostname || "localhost";
  const port = u.port || "5432";
  switch (err?.code) {
    case "3D000":
      return new EngineError("P1003", `Database \`${dbNameOf(url)}\` does not exist on the database server at \`${host}:${port}\`.`, {
        database_name: dbNameOf(url),
      });
    case "28P01":
    case "28000":
      return new EngineError("P1000", `Authentication failed against database server at \`${host}\`: ${err.message}`);
    case "ECONNREFUSED":
    case "ENOTFOUND":
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
      return new EngineError("P1001", `Can't reach database server at \`${host}:${port}\``, { database_host: host, database_port: port });
    default:
      return new EngineError("P1000", err?.message ?? String(err));
  }
}

/** Run one simple-protocol query on a short-lived connection. */
export async function runOnce(url, sql) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    return await client.query(sql);
  } catch (err) {
    throw toEngineError(err, url);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Run `sql` against a maintenance database on the same server (for CREATE/DROP DATABASE). */
async function runOnServer(url, sql) {
  let lastErr;
  for (const db of ["postgres", "template1"]) {
    try {
      return await runOnce(withDb(url, db), sql);
    } catch (err) {
      lastErr = err;
      if (err.code !== "P1003") throw err;
    }
  }
  throw lastErr;
}

export async function canConnect(url) {
  await runOnce(url, "SELECT 1");
}

export async function createDatabase(url) {
  const name = dbNameOf(url);
  await runOnServer(url, `CREATE DATABASE ${quoteIdent(name)}`);
  return name;
}

export async function dropDatabase(url) {
  const name = dbNameOf(url);
  await runOnServer(url, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  return name;
}

const OID_CHAR = 18; // pg_catalog "char", e.g. pg_constraint.contype
const OID_TEXT = 25;
const CHAR_COLUMNS = Symbol("charColumns");
const patchedProtos = new WeakSet();

/**
 * Fix an adapter-pg adapter in place (before bindMigrationAwareSqlAdapterFactory binds its methods):
 * - executeScript: send the whole script as one simple-protocol query instead of splitting on `;`
 *   (which breaks function bodies, string literals and comments);
 * - pg_catalog "char" columns (OID 18), which adapter-pg rejects as an unsupported type, are read
 *   as text (OID 25) and reported to the engine as ColumnType Character (what the describer expects).
 */
function patchAdapter(adapter) {
  adapter.executeScript = async function executeScript(script) {
    try {
      await this.client.query(script);
    } catch (err) {
      this.onError(err);
    }
  };
  // performIO/queryRaw live on the base class shared by the adapter and its transactions.
  const base = Object.getPrototypeOf(Object.getPrototypeOf(adapter));
  if (!patchedProtos.has(base) && typeof base.performIO === "function" && typeof base.queryRaw === "function") {
    const { performIO, queryRaw } = base;
    base.performIO = async function (query) {
      const result = await performIO.call(this, query);
      const charColumns = [];
      (result?.fields ?? []).forEach((field, i) => {
        if (field.dataTypeID === OID_CHAR) {
          field.dataTypeID = OID_TEXT;
          charColumns.push(i);
        }
      });
      if (charColumns.length && Array.isArray(result.rows)) result.rows[CHAR_COLUMNS] = charColumns;
      return result;
    };
    base.queryRaw = async function (query) {
      const result = await queryRaw.call(this, query);
      for (const i of result.rows?.[CHAR_COLUMNS] ?? []) result.columnTypes[i] = ColumnTypeEnum.Character;
      return result;
    };
    patchedProtos.add(base);
  }
  return adapter;
}

/** adapter-pg over `url`; a `?schema=` parameter becomes the engine's namespace and the search_path. */
function pgFactory(url) {
  const schema = new URL(url).searchParams.get("schema");
  if (!schema) return new PrismaPg({ connectionString: url });
  return new PrismaPg({ connectionString: url, options: `-c search_path=${quoteIdent(schema)}` }, { schema });
}

/**
 * A migration-aware adapter factory. The shadow database is a fresh temporary database
 * `<db>_shadow_<random>` on the same server, dropped after its pool is closed.
 */
export function createAdapterFactory(url) {
  const shadows = new Set();
  const open = new Set();
  const tracked = (adapter) => {
    const dispose = adapter.dispose;
    let disposed;
    adapter.dispose = function () {
      open.delete(adapter);
      disposed ??= dispose.call(this);
      return disposed;
    };
    open.add(adapter);
    return adapter;
  };
  const factory = {
    provider: "postgres",
    adapterName: "@prisma/adapter-pg",
    async connect() {
      return tracked(patchAdapter(await pgFactory(url).connect()));
    },
    async connectToShadowDb() {
      const name = `${dbNameOf(url).slice(0, 40)}_shadow_${randomBytes(6).toString("hex")}`;
      debug("creating shadow database", name);
      await runOnce(url, `CREATE DATABASE ${quoteIdent(name)}`);
      shadows.add(name);
      const adapter = patchAdapter(await pgFactory(withDb(url, name)).connect());
      const dispose = adapter.dispose;
      adapter.dispose = async function () {
        await dispose.call(this); // closes the shadow pool first
        await dropShadow(name);
      };
      adapter.shadow = name;
      return tracked(adapter);
    },
  };
  async function dropShadow(name) {
    if (!shadows.delete(name)) return;
    debug("dropping shadow database", name);
    try {
      await runOnce(url, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    } catch (err) {
      process.stderr.write(`schema-engine stand-in: could not drop shadow database ${name}: ${err.message}\n`);
    }
  }
  /** Close the pools the engine left open (all, or only shadow ones) and drop leftover shadow databases. */
  async function close(shadowsOnly) {
    await Promise.allSettled([...open].filter((adapter) => !shadowsOnly || adapter.shadow).map((adapter) => adapter.dispose()));
    await Promise.allSettled([...shadows].map(dropShadow));
  }
  return {
    factory: bindMigrationAwareSqlAdapterFactory(factory),
    /** After each request: no shadow database outlives the request that needed it. */
    dropShadows: () => close(true),
    /** At exit. */
    cleanup: () => close(false),
  };
}
