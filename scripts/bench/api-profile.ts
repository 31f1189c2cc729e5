/**
 * In-process profile of the API's hot routes, without Next: the route handlers called directly
 * with real Requests against a local database (BENCH_DATABASE_URL, migrated and seeded here).
 * Run with `node --cpu-prof --cpu-prof-dir=bench-results/profiles --import tsx scripts/bench/api-profile.ts`
 * and open the .cpuprofile in Chrome DevTools; it also prints µs per call (wall, one at a time).
 * PROFILE_DIR=<dir> (with plain `npx tsx`) writes one profile per case instead, <dir>/<case>.cpuprofile,
 * for scripts/bench/cpu-profile-summary.ts; PROFILE_CASES=a,b runs only the cases whose names contain one of them.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";

const root = path.resolve(__dirname, "../..");
const dbUrl = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/duebill_bench_profile";
const N = Number(process.env.PROFILE_CALLS ?? 3000);
const PROFILE_DIR = process.env.PROFILE_DIR;
const ONLY = process.env.PROFILE_CASES?.split(",").filter(Boolean);

/** Runs `fn` under the inspector's CPU profiler and writes <PROFILE_DIR>/<name>.cpuprofile (or just runs it). */
async function profiled(name: string, fn: () => Promise<void>): Promise<void> {
  if (!PROFILE_DIR) return fn();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  await fn();
  const { profile } = await session.post("Profiler.stop");
  mkdirSync(PROFILE_DIR, { recursive: true });
  writeFileSync(path.join(PROFILE_DIR, `${name.replace(/[^A-Za-z0-9]+/g, "_")}.cpuprofile`), JSON.stringify(profile));
  session.disconnect();
}

async function main() {
  process.env.DATABASE_URL = dbUrl;
  process.env.BENCH_ROUTES = "true";
  process.env.LOG_LEVEL = "warn";
  process.env.RATE_LIMIT_MULTIPLIER = "1000";
  const pg = (await import("pg")).default;
  const admin = new pg.Client({ connectionString: dbUrl.replace(/\/[^/]+$/, "/postgres") });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${new URL(dbUrl).pathname.slice(1)}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${new URL(dbUrl).pathname.slice(1)}"`);
  await admin.end();
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, CHECKPOINT_DISABLE: "1" },
    stdio: "ignore",
  });
  if (r.status !== 0) throw new Error("migrate deploy failed");
  const { seedDemo } = await import("../ops/seed");
  const demo = await seedDemo();
  const { POST: payouts } = await import("@/app/v2/payouts/route");
  const { GET: getRequest } = await import("@/app/v2/request/[requestId]/route");
  const { POST: insert } = await import("@/app/api/bench/insert/route");
  const { readBenchRoute, limitedBenchRoute, unlimitedBenchRoute } = await import("@/app/api/bench/twin-routes");
  const key = { "x-api-key": demo.apiKey, "x-duebill-socket-ip": "127.0.0.1" };
  const body = JSON.stringify({
    payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
    amount: "25.5",
    invoiceCurrency: "USD",
    paymentCurrency: "USDC-base",
  });
  const post = (p: string) =>
    new Request(`http://127.0.0.1${p}`, { method: "POST", headers: { ...key, "content-type": "application/json" }, body });
  const get = (p: string) => new Request(`http://127.0.0.1${p}`, { headers: key });
  const first = await (await payouts(post("/v2/payouts"))).json();
  const id = first.requestId as string;
  const params = (v: Record<string, string>) => ({ params: Promise.resolve(v) });
  const cases: [string, () => Promise<Response>][] = [
    ["INSERT baseline", () => insert(post("/api/bench/insert"))],
    ["POST /v2/payouts", () => payouts(post("/v2/payouts"))],
    ["read baseline", () => readBenchRoute(get(`/api/bench/read/${id}`), params({ id }))],
    ["GET /v2/request/{id}", () => getRequest(get(`/v2/request/${id}`), params({ requestId: id }))],
    ["no limiter", () => unlimitedBenchRoute(get("/api/bench/unlimited"))],
    ["limited", () => limitedBenchRoute(get("/api/bench/limited"))],
  ];
  for (const [name, fn] of cases) {
    if (ONLY && !ONLY.some((o) => name.includes(o))) continue;
    for (let i = 0; i < 200; i++) await (await fn()).text();
    const t0 = performance.now();
    await profiled(name, async () => {
      for (let i = 0; i < N; i++) {
        const res = await fn();
        if (res.status >= 400) throw new Error(`${name}: ${res.status} ${await res.text()}`);
        await res.text();
      }
    });
    console.log(`${name.padEnd(24)} ${Math.round(((performance.now() - t0) / N) * 1000)} µs/call`);
  }
  const { disconnectDb } = await import("@/lib/db");
  await disconnectDb();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
