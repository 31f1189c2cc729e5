/**
 * System test of the production path (docs/operations/deployment.md, "Running against a real Postgres"), as a user runs
 * it: a fresh `git clone` of the committed HEAD, an empty Postgres database, `npm start` with
 * DATABASE_URL and APP_SECRET only, a call to /v2/currencies, and SIGTERM → exit code 0. Then the
 * two ways the boot must refuse: a missing or malformed variable (one message naming each, nothing
 * started) and a port already in use (exit code 1 and a clear line, not a process that keeps
 * running without serving). No browser.
 *
 * What the clone gets besides `git clone`, and why it still proves a fresh clone starts:
 * - node_modules: a symlink to this checkout's (what `npm install` / `npm ci` would produce from
 *   the same lockfile; installing again would only re-download the same files);
 * - `prisma generate` run in the clone (what `npm install`'s postinstall does), so the clone's
 *   lib/generated is its own;
 * - `.next`: a copy of this checkout's production build (without its cache). `npm run e2e` has
 *   just built it from the same sources (`npm run build` = prisma generate + next build), and
 *   building again in the clone would cost several minutes for the same output. Everything this
 *   test is about lives outside `.next`: the clone has no `.data/` (git-ignored, the bug this test
 *   was written for: runtime.json was written into a folder nothing created), no database
 *   tables (npm start must migrate from nothing), no runtime file, only the committed scripts
 *   (scripts/runtime/run.ts, scripts/runtime/server.mjs, package.json's `start`) and the committed migrations.
 *   In CI the working tree is HEAD, so the copied build is the clone's build; with uncommitted
 *   changes to app code the copy can differ from HEAD's sources (the test still exercises HEAD's
 *   boot path, which is what it is for).
 * Timing on the 2-core CI machine: clone ≈ 0.5 s, prisma generate ≈ 6 s, copy ≈ 1 s, npm start
 * to "ready" ≈ 10–20 s; a `next build` in the clone would add ≈ 3 min.
 *
 * Own database (<E2E database>_clone, dropped and recreated empty), own ports, own processes
 * (each `npm start` in its own process group, stopped by PID).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { getFreePort } from "@/scripts/devnet";
import { ROOT, waitFor } from "./support/system";

test.describe.configure({ mode: "serial" });

/** A fresh database beside the e2e one: `<e2e name>_clone`, local only. */
function cloneDatabaseUrl(): string {
  const base = new URL(process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/duebill_e2e");
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(base.hostname))
    throw new Error(`E2E_DATABASE_URL must be local, got ${base.hostname}`);
  const name = `${base.pathname.slice(1)}_clone`;
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unexpected database name ${name}`);
  base.pathname = `/${name}`;
  return base.toString();
}

async function onServer<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function recreateEmptyDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  await onServer(admin.toString(), async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}"`);
  });
}

const tableCount = (url: string) =>
  onServer(url, async (c) => Number((await c.query("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")).rows[0].count));

/** What a user's shell has, and nothing of this test run's own configuration. */
function userEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const keep = ["PATH", "HOME", "LANG", "TERM", "TMPDIR", "USER"];
  const env: Record<string, string | undefined> = { NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1" };
  for (const k of keep) if (process.env[k]) env[k] = process.env[k];
  return { ...env, ...extra } as NodeJS.ProcessEnv;
}

interface NpmStart {
  child: ChildProcess;
  output: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `npm start` in the clone, in its own process group (so the test can check nothing is left). */
function npmStart(dir: string, env: NodeJS.ProcessEnv): NpmStart {
  const child = spawn("npm", ["start"], { cwd: dir, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString("utf8");
  });
  child.stderr?.on("data", (d: Buffer) => {
    err += d.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => out + err, stderr: () => err, exited };
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Ends a process group this test started, if anything of it is left (SIGKILL: the test already failed). */
function killGroup(p: NpmStart | undefined): void {
  const pid = p?.child.pid;
  if (pid && groupAlive(pid)) process.kill(-pid, "SIGKILL");
}

function timed<T>(label: string, timings: Record<string, number>, fn: () => T): T {
  const t0 = performance.now();
  try {
    return fn();
  } finally {
    timings[label] = Math.round(performance.now() - t0);
  }
}

const APP_SECRET = "fresh-clone-system-test-secret-not-for-production-000";
const DB = cloneDatabaseUrl();
let dir = "";
const timings: Record<string, number> = {};
const started: NpmStart[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  expect(existsSync(path.join(ROOT, ".next", "BUILD_ID")), "no production build in .next: `npm run e2e` builds it first").toBe(true);
  dir = mkdtempSync(path.join(os.tmpdir(), "duebill-fresh-clone-"));
  timed("git clone", timings, () => {
    const r = spawnSync("git", ["clone", "--quiet", ROOT, dir], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`git clone failed: ${r.stderr}`);
  });
  expect(existsSync(path.join(dir, ".data")), "a fresh clone has no .data/").toBe(false);
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  timed("prisma generate", timings, () => {
    const r = spawnSync(process.execPath, [path.join(dir, "node_modules/prisma/build/index.js"), "generate"], {
      cwd: dir,
      env: userEnv({}),
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`prisma generate failed:\n${r.stdout}\n${r.stderr}`);
  });
  timed("copy .next", timings, () =>
    cpSync(path.join(ROOT, ".next"), path.join(dir, ".next"), {
      recursive: true,
      filter: (src) => !src.startsWith(path.join(ROOT, ".next", "cache")),
    }),
  );
  await recreateEmptyDatabase(DB);
  expect(await tableCount(DB)).toBe(0);
});

test.afterAll(async () => {
  for (const p of started) killGroup(p);
  if (dir) rmSync(dir, { recursive: true, force: true });
  test.info().annotations.push({ type: "timings (ms)", description: JSON.stringify(timings) });
  console.log(`[fresh-clone] timings (ms): ${JSON.stringify(timings)}`);
});

test("npm start on a fresh clone against an empty Postgres: migrates, serves /v2/currencies, stops on SIGTERM with exit code 0", async () => {
  test.setTimeout(180_000);
  const port = await getFreePort();
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const app = npmStart(dir, userEnv({ DATABASE_URL: DB, APP_SECRET, PORT: String(port) }));
  started.push(app);
  await waitFor(
    "npm start to answer /api/health",
    async () => {
      if (app.child.exitCode !== null) throw new Error(`npm start exited with ${app.child.exitCode}:\n${app.output()}`);
      const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
      return res?.status === 200;
    },
    150_000,
    250,
  );
  timings["npm start → healthy"] = Math.round(performance.now() - t0);
  expect(app.output()).toContain("[duebill] ready on");
  // It migrated the empty database, and wrote .data/runtime.json (into a .data/ it had to create).
  expect(await tableCount(DB)).toBeGreaterThan(10);
  const runtime = JSON.parse(readFileSync(path.join(dir, ".data", "runtime.json"), "utf8"));
  expect(runtime).toMatchObject({ appUrl: `http://localhost:${port}` });
  expect(runtime.embeddedDatabaseUrl).toBeUndefined();

  // The credentials path of docs/guides/admin.md (`npm run admin`), beside the running app, then the README's first call.
  const admin = (args: string[]) => {
    const r = spawnSync("npm", ["run", "-s", "admin", "--", ...args, "--json"], {
      cwd: dir,
      env: userEnv({ DATABASE_URL: DB }),
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`npm run admin ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
    return JSON.parse(r.stdout.trim().split("\n").pop() ?? "");
  };
  const account = admin(["account:create", "--name", "Fresh clone"]);
  const key = admin(["api-key:create", "--account", account.id]);
  expect(key.secret).toMatch(/^dbk_/);
  const unauthenticated = await fetch(`${base}/v2/currencies`);
  expect(unauthenticated.status).toBe(401);
  const res = await fetch(`${base}/v2/currencies`, { headers: { "x-api-key": key.secret } });
  expect(res.status).toBe(200);
  const currencies = (await res.json()) as { id: string }[];
  expect(currencies.map((c) => c.id)).toContain("USDC-mainnet");

  // SIGTERM to npm itself (what a service manager sends): everything stops, exit code 0, no orphan.
  const t1 = performance.now();
  const pid = app.child.pid ?? 0;
  process.kill(pid, "SIGTERM");
  const code = await Promise.race([app.exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 20_000))]);
  expect(code, app.output()).toBe(0);
  timings["SIGTERM → exit"] = Math.round(performance.now() - t1);
  await waitFor("the whole process group to be gone", () => !groupAlive(pid), 10_000, 100);
  await expect(fetch(`${base}/api/health`)).rejects.toThrow();
  expect(existsSync(path.join(dir, ".data", "runtime.json")), "runtime.json is removed on exit").toBe(false);
});

test("a missing and a malformed variable stop the boot with one message naming both, before anything starts", async () => {
  test.setTimeout(60_000);
  await recreateEmptyDatabase(DB);
  const port = await getFreePort();
  // No APP_SECRET (required by npm start) and a DATABASE_POOL_MAX that is not a number.
  const app = npmStart(dir, userEnv({ DATABASE_URL: DB, PORT: String(port), DATABASE_POOL_MAX: "ten" }));
  started.push(app);
  expect(await app.exited, app.output()).toBe(1);
  const lines = app
    .stderr()
    .split("\n")
    .filter((l) => l.includes("refusing to start"));
  expect(lines, app.output()).toHaveLength(1);
  expect(lines[0]).toContain("2 environment variables are missing or malformed");
  expect(app.stderr()).toMatch(/- DATABASE_POOL_MAX: must be a number/);
  expect(app.stderr()).toMatch(/- APP_SECRET: is not set/);
  // Nothing ran: no migration touched the database, nothing listens, no runtime file.
  expect(await tableCount(DB)).toBe(0);
  await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
  expect(existsSync(path.join(dir, ".data", "runtime.json"))).toBe(false);

  // Only the secret missing: the one message names it alone.
  const only = npmStart(dir, userEnv({ DATABASE_URL: DB, PORT: String(port) }));
  started.push(only);
  expect(await only.exited).toBe(1);
  expect(only.stderr()).toContain("1 environment variable is missing or malformed");
  expect(only.stderr()).toMatch(/- APP_SECRET: is not set: production needs at least 32 random characters/);
});

test("npm start on a port already in use exits with code 1 and says so (its inline worker does not keep it running)", async () => {
  test.setTimeout(120_000);
  const port = await getFreePort();
  const squatter = net.createServer((s) => s.end("squatter\n"));
  await new Promise<void>((r) => squatter.listen(port, "0.0.0.0", r));
  try {
    const app = npmStart(dir, userEnv({ DATABASE_URL: DB, APP_SECRET, PORT: String(port), WORKER_INLINE: "true" }));
    started.push(app);
    const code = await Promise.race([app.exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 90_000))]);
    expect(code, app.output()).toBe(1);
    expect(app.stderr()).toContain(`[duebill] refusing to start: port ${port} is already in use (EADDRINUSE)`);
    expect(app.output()).not.toContain("[duebill] ready on");
    const pid = app.child.pid ?? 0;
    await waitFor("the whole process group to be gone", () => !groupAlive(pid), 10_000, 100);
  } finally {
    await new Promise<void>((r) => squatter.close(() => r()));
  }
});
