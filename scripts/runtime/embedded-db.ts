/**
 * Embedded Postgres for a newcomer's first run: PGlite (Postgres compiled to WASM) served
 * over the Postgres wire protocol by pglite-socket, data in .data/pglite (git-ignored).
 * The app connects to it with the same adapter-pg client it uses for a real server.
 * Limits (docs/toolchain.md §3 "Database"): one transaction at a time across connections, 300–800 MB RSS;
 * good for a demo, not for production. The app uses one connection to it (see `env` below).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export interface EmbeddedDb {
  url: string;
  /** What the app's environment needs to use it (run.ts and the tests use this one definition). */
  env: { DATABASE_URL: string; DATABASE_POOL_MAX: string };
  stop(): Promise<void>;
}

export async function startEmbeddedDb(opts: { dataDir: string; port: number }): Promise<EmbeddedDb> {
  mkdirSync(path.dirname(opts.dataDir), { recursive: true });
  const pg = await PGlite.create(opts.dataDir);
  const server = new PGLiteSocketServer({ db: pg, port: opts.port, host: "127.0.0.1", maxConnections: 32 });
  await server.start();
  const url = `postgresql://postgres@127.0.0.1:${opts.port}/postgres?sslmode=disable`;
  return {
    url,
    // One connection per process: pglite-socket's multiplexer interleaves the extended-protocol
    // messages of concurrent connections (answers with another query's parameters: 08P01, wrong
    // rows), so the app's queries queue on one connection in order. Other processes (the CLIs)
    // may still connect while it runs.
    env: { DATABASE_URL: url, DATABASE_POOL_MAX: "1" },
    async stop() {
      await server.stop();
      await pg.close();
    },
  };
}
