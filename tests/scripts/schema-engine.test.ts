// The offline schema-engine stand-in (scripts/db/schema-engine) driven through the real Prisma CLI,
// against a throwaway database and a small schema in a temp folder (independent of the app's schema).
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const prismaCli = path.join(root, "node_modules/prisma/build/index.js");
const engine = path.join(root, "scripts/db/schema-engine/engine.mjs");
const serverUrl = new URL(process.env.SCHEMA_ENGINE_TEST_SERVER_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
const dbName = `duebill_engine_test_${randomBytes(4).toString("hex")}`;
const dbUrl = (() => {
  const u = new URL(serverUrl);
  u.pathname = `/${dbName}`;
  return u.toString();
})();

// A multi-file schema, like the app's prisma/schema/: the CLI passes each file as --datamodels.
const BASE = `generator client {
  provider = "prisma-client"
  output   = "../generated"
}

datasource db {
  provider = "postgresql"
}
`;

const SCHEMA = `model Thing {
  id        String   @id
  name      String
  tags      String[]
  amount    Decimal  @db.Decimal(78, 0)
  createdAt DateTime @default(now())

  @@index([name])
}
`;

const CONFIG = `import { defineConfig } from "prisma/config";

process.env.PRISMA_SCHEMA_ENGINE_BINARY = ${JSON.stringify(engine)};

export default defineConfig({
  schema: "schema",
  migrations: { path: "migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "" },
});
`;

let dir = "";

function prisma(...args: string[]) {
  const r = spawnSync(process.execPath, [prismaCli, ...args], {
    cwd: dir,
    env: { ...process.env, DATABASE_URL: dbUrl, CHECKPOINT_DISABLE: "1", PRISMA_SCHEMA_ENGINE_BINARY: engine },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

const diffArgs = ["migrate", "diff", "--from-migrations", "migrations", "--to-schema", "schema", "--exit-code"];

describe("schema-engine stand-in", () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "duebill-schema-engine-"));
    fs.mkdirSync(path.join(dir, "schema"));
    fs.writeFileSync(path.join(dir, "schema/base.prisma"), BASE);
    fs.writeFileSync(path.join(dir, "schema/thing.prisma"), SCHEMA);
    fs.writeFileSync(path.join(dir, "prisma.config.ts"), CONFIG);
    // The temp config imports "prisma/config"; let it resolve from the project's node_modules.
    fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
    await query(serverUrl.toString(), `CREATE DATABASE "${dbName}"`);
  });

  afterAll(async () => {
    await query(serverUrl.toString(), `DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("writes the initial migration with migrate diff --from-empty --script", () => {
    const migration = path.join(dir, "migrations/20240101000000_init");
    fs.mkdirSync(migration, { recursive: true });
    fs.writeFileSync(path.join(dir, "migrations/migration_lock.toml"), 'provider = "postgresql"\n');
    const r = prisma(
      "migrate",
      "diff",
      "--from-empty",
      "--to-schema",
      "schema",
      "--script",
      "--output",
      path.join(migration, "migration.sql"),
    );
    expect(r.status, r.out).toBe(0);
    expect(fs.readFileSync(path.join(migration, "migration.sql"), "utf8")).toContain('CREATE TABLE "Thing"');
  });

  it("migrate deploy applies the migrations", async () => {
    const r = prisma("migrate", "deploy");
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain("20240101000000_init");

    const rows = await query<{ migration_name: string; checksum: string; finished: boolean }>(
      dbUrl,
      `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished FROM _prisma_migrations`,
    );
    const sql = fs.readFileSync(path.join(dir, "migrations/20240101000000_init/migration.sql"));
    expect(rows).toEqual([
      { migration_name: "20240101000000_init", checksum: createHash("sha256").update(sql).digest("hex"), finished: true },
    ]);
    const columns = await query<{ column_name: string }>(
      dbUrl,
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'Thing' ORDER BY 1`,
    );
    expect(columns.map((c) => c.column_name)).toEqual(["amount", "createdAt", "id", "name", "tags"]);
  });

  it("migrate status reports the database up to date", () => {
    const r = prisma("migrate", "status");
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain("Database schema is up to date");
  });

  it("migrate diff --exit-code exits 0 when the migrations match the schema", () => {
    const r = prisma(...diffArgs);
    expect(r.status, r.out).toBe(0);
  });

  it("migrate diff --exit-code exits 2 when the schema has a change with no migration", async () => {
    fs.writeFileSync(
      path.join(dir, "schema/thing.prisma"),
      SCHEMA.replace("  name      String\n", "  name      String\n  note      String?\n"),
    );
    const r = prisma(...diffArgs);
    expect(r.status, r.out).toBe(2);
    expect(r.out).toContain("note");
    // Its temporary shadow database is gone.
    const shadows = await query(serverUrl.toString(), `SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${dbName}_shadow_%`]);
    expect(shadows).toEqual([]);
  });
});
