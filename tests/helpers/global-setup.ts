import { spawnSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { testDatabaseUrl, testWorkers, workerDatabaseUrl } from "./test-db-url";

/**
 * Recreates the test database and applies the migrations once per run, then copies it (CREATE DATABASE …
 * TEMPLATE, a file copy: no second migration run) into one database per worker, so files running in
 * parallel never see each other's rows.
 */
export default async function setup(): Promise<void> {
  const url = new URL(testDatabaseUrl());
  const dbName = url.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${dbName}"`);
    const root = path.resolve(__dirname, "../..");
    const r = spawnSync(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url.toString(), CHECKPOINT_DISABLE: "1" },
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`prisma migrate deploy failed:\n${r.stdout}\n${r.stderr}`);
    for (let n = 1; n <= testWorkers(); n++) {
      const name = new URL(workerDatabaseUrl(url.toString(), n)).pathname.slice(1);
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${name}" TEMPLATE "${dbName}"`);
    }
  } finally {
    await client.end();
  }
}
