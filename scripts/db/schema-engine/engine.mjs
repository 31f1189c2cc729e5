#!/usr/bin/env node
// Project-owned stand-in for Prisma's native schema-engine binary (see the README.md beside this file).
// The Prisma CLI starts it through PRISMA_SCHEMA_ENGINE_BINARY as
//   engine.mjs [--datamodels <file>]... --datasource '{"url":...}' [cli <command>]
// and talks JSON-RPC 2.0, one message per line, over stdin/stdout. Requests are
// served by @prisma/schema-engine-wasm over a fixed-up @prisma/adapter-pg.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { canConnect, createAdapterFactory, createDatabase, debug, dropDatabase, EngineError, runOnce, toEngineError } from "./pg.mjs";

const require = createRequire(import.meta.url);

function parseArgs(argv) {
  const opts = { datamodels: [], datasource: undefined, cli: undefined, version: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--datasource") opts.datasource = JSON.parse(argv[++i]);
    else if (arg === "--datamodels" || arg === "--datamodel") opts.datamodels.push(argv[++i]);
    else if (arg === "--enabled-preview-features" || arg === "--extension-types") i++;
    else if (arg === "--version" || arg === "-V") opts.version = true;
    else if (arg === "cli") opts.cli = argv[++i];
  }
  return opts;
}

// The Wasm engine reports Rust panics through this global before trapping.
let lastPanic;
/** Closes pools and drops leftover shadow databases; set once the adapter exists. */
let cleanup = async () => {};
const exitAfterCleanup = (code) => {
  setTimeout(() => process.exit(code), 5000).unref();
  cleanup().finally(() => process.exit(code));
};
globalThis.PRISMA_WASM_PANIC_REGISTRY ??= {
  set_message(message) {
    lastPanic = message;
  },
};

async function loadWasmEngine() {
  const bgPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const bg = await import(bgPath);
  const bytes = readFileSync(join(dirname(bgPath), "schema_engine_bg.wasm"));
  const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": bg });
  bg.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  return bg;
}

/** Log line in the shape the CLI reads from the engine's stderr. */
function logLine(level, fields) {
  process.stderr.write(`${JSON.stringify({ timestamp: new Date().toISOString(), level, fields, target: "schema_engine::logger" })}\n`);
}

/** `cli <command>`: errors go to stderr as JSON log lines (the CLI skips the first line). */
async function runCliCommand(command, url) {
  try {
    if (command === "can-connect-to-database") await canConnect(url);
    else if (command === "create-database")
      logLine("INFO", { message: `Database '${await createDatabase(url)}' was successfully created.` });
    else if (command === "drop-database")
      logLine("INFO", { message: `The database '${await dropDatabase(url)}' was successfully dropped.` });
    else throw new EngineError("P1000", `Unsupported schema-engine cli command: ${command}`);
    return 0;
  } catch (err) {
    const e = toEngineError(err, url);
    process.stderr.write("schema-engine stand-in error\n");
    logLine("ERROR", { is_panic: false, error_code: e.code, message: e.message });
    return 1;
  }
}

const WASM_METHODS = new Set([
  "applyMigrations",
  "createMigration",
  "devDiagnostic",
  "diagnoseMigrationHistory",
  "diff",
  "evaluateDataLoss",
  "introspect",
  "introspectSql",
  "markMigrationApplied",
  "markMigrationRolledBack",
  "reset",
  "schemaPush",
]);

const NEEDS_PRIMED_SHADOW = new Set(["createMigration", "evaluateDataLoss"]);

function urlOf(datasourceParam, fallback) {
  if (datasourceParam?.tag === "ConnectionString" || datasourceParam?.tag === "url") return datasourceParam.url;
  return fallback;
}

function rpcError(err) {
  const data =
    lastPanic !== undefined
      ? { is_panic: true, message: lastPanic, error: { message: lastPanic }, backtrace: null }
      : // EngineError, or the Wasm engine's SchemaConnectorError (message, sometimes a P3xxx code)
        { is_panic: false, message: err?.message ?? String(err), error_code: err?.code, meta: err?.meta ?? {} };
  return { code: 4466, message: "An error happened. Check the data field for details.", data };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const url = opts.datasource?.url;
  if (opts.version) {
    const bg = await loadWasmEngine();
    process.stdout.write(`schema-engine-cli ${bg.version()} (wasm stand-in)\n`);
    return 0;
  }
  if (!url) {
    process.stderr.write("schema-engine stand-in: --datasource '{\"url\":...}' is required\n");
    return 1;
  }
  if (opts.cli) return runCliCommand(opts.cli, url);

  const adapter = createAdapterFactory(url);
  const datamodels = opts.datamodels.length ? opts.datamodels.map((file) => [file, readFileSync(file, "utf8")]) : undefined;
  const onLog = (log) => {
    const line = (typeof log === "string" ? log : JSON.stringify(log)).trim();
    if (line) process.stderr.write(`${line}\n`);
  };
  let enginePromise;
  const engine = () => (enginePromise ??= loadWasmEngine().then((bg) => bg.SchemaEngine.new({ datamodels }, onLog, adapter.factory)));

  cleanup = () => adapter.cleanup();
  // The CLI SIGTERMs the engine right after closing its stdin, and Ctrl-C reaches the whole
  // process group: never leave a shadow database behind.
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.once(signal, () => exitAfterCleanup(signal === "SIGTERM" ? 0 : 130));

  // Methods answered directly over pg; everything else goes to the Wasm engine.
  const local = {
    createDatabase: async (p) => ({ databaseName: await createDatabase(urlOf(p?.datasource, url)) }),
    ensureConnectionValidity: async (p) => {
      await canConnect(urlOf(p?.datasource, url));
      return {};
    },
    getDatabaseVersion: async (p) => (await runOnce(urlOf(p?.datasource, url), "SELECT version()")).rows[0].version,
    dbExecute: async (p) => {
      const target = p.datasourceType?.tag === "url" ? p.datasourceType.url : url;
      await runOnce(target, p.script);
      return null;
    },
  };

  const handle = async (req) => {
    debug("request", req.method);
    if (local[req.method]) return local[req.method](req.params);
    if (!WASM_METHODS.has(req.method)) {
      throw new EngineError("P1000", `Method not supported by the schema-engine stand-in: ${req.method}`);
    }
    const eng = await engine();
    let result;
    try {
      result = await eng[req.method](req.params ?? {});
    } catch (err) {
      // evaluateDataLoss/createMigration only reuse the migration-history schema that a
      // shadow-database run earlier in the session left behind; on their own (fresh engine,
      // or after applyMigrations changed the database) the Wasm engine fails with "PostgreSQL
      // shadow DB must be provided through an external factory". Prime it and retry once.
      if (!NEEDS_PRIMED_SHADOW.has(req.method) || !/shadow DB must be provided/.test(String(err?.message ?? err))) throw err;
      const { migrationsList, filters } = req.params;
      await eng.diagnoseMigrationHistory({ migrationsList, filters, optInToShadowDatabase: true });
      result = await eng[req.method](req.params);
    } finally {
      await adapter.dropShadows();
    }
    if (req.method === "diff" && typeof result?.stdout === "string") {
      // The CLI prints (or captures for --output) what the engine sends it as a `print` request.
      await callCli("print", { content: result.stdout });
      return { ...result, stdout: null };
    }
    return result ?? {};
  };

  // Requests from the engine to the CLI (only `print`), matched to replies by id.
  const pending = new Map();
  let nextId = 1;
  const callCli = (method, params) =>
    new Promise((resolve) => {
      const id = `stand-in-${nextId++}`;
      pending.set(id, resolve);
      process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });

  // Serve requests one at a time, in order.
  let queue = Promise.resolve();
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    let req;
    try {
      req = JSON.parse(line);
    } catch {
      return;
    }
    if (req.method === undefined) {
      pending.get(req.id)?.(req.result);
      pending.delete(req.id);
      return;
    }
    queue = queue.then(async () => {
      let reply;
      try {
        reply = { jsonrpc: "2.0", id: req.id, result: await handle(req) };
      } catch (err) {
        reply = { jsonrpc: "2.0", id: req.id, error: rpcError(err) };
      }
      if (req.id !== undefined) process.stdout.write(`${JSON.stringify(reply)}\n`);
    });
  });
  await new Promise((resolve) => lines.on("close", resolve));
  await queue;
  await cleanup();
  return 0;
}

// A Rust panic inside a Wasm callback surfaces here (the CLI reports exit code 101 as a panic).
process.on("uncaughtException", (err) => {
  logLine("ERROR", { is_panic: true, message: lastPanic ?? err?.stack ?? String(err) });
  exitAfterCleanup(101);
});

main().then(
  (code) => process.exit(code),
  (err) => {
    logLine("ERROR", { is_panic: true, message: err?.stack ?? String(err) });
    process.exit(101);
  },
);
