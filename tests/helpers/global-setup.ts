import { spawnSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { testDatabaseUrl } from "./test-db-url";

/** Recreates the test database and applies the migrations once per run. */
export default async function setup(): Promise<void> {
  const url = new URL(testDatabaseUrl());
  const dbName = url.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${dbName}"`);
  await client.end();
  const root = path.resolve(__dirname, "../..");
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url.toString(), CHECKPOINT_DISABLE: "1" },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`prisma migrate deploy failed:\n${r.stdout}\n${r.stderr}`);
}
