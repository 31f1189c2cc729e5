/**
 * The test database. Tests refuse to run against anything but a local server.
 *
 * Files run in parallel (vitest.config.mts), each worker on its own database: `<name>_w<VITEST_POOL_ID>`,
 * a copy of the migrated `<name>` that tests/helpers/global-setup.ts makes once per run. Outside a worker
 * (the global setup itself) it is `<name>`.
 */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/duebill_test";
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) {
    throw new Error(`TEST_DATABASE_URL must point at a local database, got host ${host}`);
  }
  const worker = process.env.VITEST_POOL_ID;
  return worker ? workerDatabaseUrl(url, Number(worker)) : url;
}

/** The database of worker `n` (1-based, as VITEST_POOL_ID). */
export function workerDatabaseUrl(url: string, n: number): string {
  const u = new URL(url);
  u.pathname = `${u.pathname}_w${n}`;
  return u.toString();
}

/** How many files run at once: TEST_WORKERS, else 2 (the project's machines have 2 cores). */
export function testWorkers(): number {
  const n = Number(process.env.TEST_WORKERS ?? 2);
  return Number.isInteger(n) && n >= 1 ? n : 2;
}
