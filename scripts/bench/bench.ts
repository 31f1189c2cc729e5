/**
 * `npm run bench`: starts the production build against a local Postgres and measures the
 * server's CPU time per request (user+system of the Next process tree, from /proc) for each
 * route, against a baseline measured in the same run. Rounds alternate between routes so
 * drift hits all of them alike; the median round counts.
 *
 * `npm run bench -- webhooks` runs only the webhook delivery throughput; `-- scale [curve]` the cost curves
 * (scripts/bench/scale.ts); `-- soak` the memory soak (scripts/bench/soak.ts).
 *
 * `npm run bench -- lookahead` runs only the dunning look-ahead (scripts/bench/lookahead.ts: 100 000 schedules, anvil).
 * `npm run bench -- recurring` runs only the recurring executor case (scripts/bench/recurring.ts):
 * no build and no server, and it updates only the `recurring` entry of bench-results/latest.json.
 * `npm run bench -- dashboard` runs only the dashboard pages at 100 000 payments (scripts/bench/dashboard.ts,
 * its own database: BENCH_DASHBOARD_DATABASE_URL, default duebill_bench_dashboard); it builds only
 * when there is no build and updates only the `dashboard` entry.
 *
 * `npm run bench -- lighthouse` runs only the Lighthouse mobile run of the pay page (scripts/bench/lighthouse.ts:
 * its own devnet and database, BENCH_LIGHTHOUSE_DATABASE_URL); it builds only when there is no build and
 * updates only the `lighthouse` entry.
 *
 * `npm run bench -- exports` runs only the streamed export at 10 000 and 100 000 payments (scripts/bench/exports.ts:
 * its own database, BENCH_EXPORTS_DATABASE_URL; no build, no server: the route handler runs in a child
 * process that measures its own RSS) and updates only the `exports` entry.
 *
 * Env: BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/duebill_bench),
 * BENCH_REQUESTS (per round, default 2000), BENCH_ROUNDS (default 5), BENCH_CONCURRENCY (8).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import pg from "pg";
import { dashboardDbUrl, measureDashboard, printDashboard } from "./dashboard";
import { exportsDbUrl, measureExports, printExports } from "./exports";
import { type DetectionLatency, measureDetectionLatency } from "./latency";
import { measurePayPageLighthouse, printLighthouse } from "./lighthouse";
import { measureLookahead, printLookahead } from "./lookahead";
import { measureRecurring, printRecurring } from "./recurring";
import { benchServerEnv } from "./server-env";
import { measureWebhookThroughput } from "./webhooks";

const root = path.resolve(__dirname, "../..");
const dbUrl = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/duebill_bench";
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const PORT = Number(process.env.BENCH_PORT ?? 3917);
const CLK_TCK = 100;
/** Cases that can run alone: `npm run bench -- <case>`. */
const SOLO_CASES = [
  "recurring",
  "lookahead",
  "dashboard",
  "lighthouse",
  "exports",
  "api",
  "detection",
  "webhooks",
  "scale",
  "soak",
] as const;
/** BENCH_CPU_PROF=<dir>: the API server runs with --cpu-prof and writes its profile there on exit, and the webhook case profiles its sweeps there (open them in Chrome DevTools). */
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;

interface BenchCase {
  name: string;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: () => string;
  /** Name of the case this one is compared with, and the target ratio. */
  baseline?: string;
  target?: number;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): void {
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed`);
}

async function prepareDatabase(databaseUrl = dbUrl): Promise<void> {
  const url = new URL(databaseUrl);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
  await c.query(`CREATE DATABASE "${url.pathname.slice(1)}"`);
  await c.end();
}

/** Sum of utime+stime (seconds) of a process and all its descendants. */
function treeCpuSeconds(pid: number): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const raw = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = raw.slice(raw.lastIndexOf(")") + 2).split(" ");
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // process exited while scanning
    }
  }
  let total = 0;
  const queue = [pid];
  while (queue.length) {
    const p = queue.pop()!;
    total += stats.get(p)?.ticks ?? 0;
    for (const [child, s] of stats) if (s.ppid === p) queue.push(child);
  }
  return total / CLK_TCK;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function request(c: BenchCase): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = c.body?.();
    const req = http.request(
      {
        host: "127.0.0.1",
        port: PORT,
        path: c.path,
        method: c.method,
        agent,
        headers: { ...c.headers, ...(body ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) } : {}) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function load(c: BenchCase, n: number): Promise<void> {
  let next = 0;
  let bad = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        next += 1;
        const status = await request(c);
        if (status >= 400) bad += 1;
      }
    }),
  );
  if (bad > 0) throw new Error(`${c.name}: ${bad} of ${n} requests failed`);
}

function createOnePayout(headers: Record<string, string>, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: PORT,
        path: "/v2/payouts",
        method: "POST",
        headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.on("data", (d: Buffer) => {
          text += d.toString("utf8");
        });
        res.on("end", () =>
          res.statusCode === 201
            ? resolve((JSON.parse(text) as { requestId: string }).requestId)
            : reject(new Error(`payout: ${res.statusCode} ${text}`)),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function postJson(pathName: string, headers: Record<string, string>, payload: unknown): Promise<Record<string, unknown>> {
  const body = JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: PORT,
        path: pathName,
        method: "POST",
        headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.on("data", (d: Buffer) => {
          text += d.toString("utf8");
        });
        res.on("end", () =>
          res.statusCode && res.statusCode < 300 ? resolve(JSON.parse(text)) : reject(new Error(`${pathName}: ${res.statusCode} ${text}`)),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Wall time of one GET until the last byte (the page streams its HTML). */
function timedGet(pathName: string): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: PORT, path: pathName, method: "GET", agent }, (res) => {
      res.resume();
      res.on("end", () =>
        res.statusCode === 200
          ? resolve(Number(process.hrtime.bigint() - started) / 1e6)
          : reject(new Error(`${pathName}: ${res.statusCode}`)),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

async function waitReady(): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      const status = await request({ name: "ready", method: "GET", path: "/api/bench/empty" });
      if (status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not become ready");
}

/** Updates one case's entry of bench-results/latest.json, keeping the others (the solo cases). */
function writeReportEntry(key: string, value: unknown): void {
  const file = path.join(root, "bench-results/latest.json");
  const report = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>) : {};
  report[key] = value;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nWritten to bench-results/latest.json (its \`${key}\` entry only)`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function main(apiOnly = false): Promise<void> {
  const env = benchServerEnv(dbUrl, { signReceipts: true });
  await prepareDatabase();
  const prisma = path.join(root, "node_modules/prisma/build/index.js");
  run(process.execPath, [prisma, "migrate", "deploy"], env);
  const next = path.join(root, "node_modules/next/dist/bin/next");
  if (!existsSync(path.join(root, ".next/BUILD_ID")) || process.env.BENCH_REBUILD === "true") run(process.execPath, [next, "build"], env);
  process.env.DATABASE_URL = dbUrl;
  const { seedDemo } = await import("../ops/seed");
  const { disconnectDb } = await import("@/lib/db");
  const demo = await seedDemo();
  await disconnectDb();

  const key = { "x-api-key": demo.apiKey };
  const payoutBody = JSON.stringify({
    payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
    amount: "25.5",
    invoiceCurrency: "USD",
    paymentCurrency: "USDC-base",
  });
  const EMPTY = "empty route (baseline)";
  const INSERT = "one INSERT route (baseline)";
  const READ = "one indexed read route (baseline)";
  const cases: BenchCase[] = [
    { name: EMPTY, method: "GET", path: "/api/bench/empty" },
    { name: "GET /v2/currencies", method: "GET", path: "/v2/currencies", headers: key, baseline: EMPTY, target: 1.3 },
    { name: INSERT, method: "POST", path: "/api/bench/insert", headers: key, body: () => payoutBody },
    { name: "POST /v2/payouts", method: "POST", path: "/v2/payouts", headers: key, body: () => payoutBody, baseline: INSERT, target: 1.25 },
    { name: READ, method: "GET", path: "", headers: key },
    { name: "GET /v2/request/{id}", method: "GET", path: "", headers: key, baseline: READ, target: 1.25 },
    { name: "API-key route, no limiter", method: "GET", path: "/api/bench/unlimited", headers: key },
    {
      name: "API-key route, rate-limited",
      method: "GET",
      path: "/api/bench/limited",
      headers: key,
      baseline: "API-key route, no limiter",
      target: 1.1,
    },
  ];

  const server: ChildProcess = spawn(
    process.execPath,
    [
      ...(CPU_PROF_DIR ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(CPU_PROF_DIR)] : []),
      path.join(root, "scripts/runtime/server.mjs"),
      "--port",
      String(PORT),
      "--hostname",
      "127.0.0.1",
    ],
    {
      cwd: root,
      env,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  let failed = false;
  const report: Record<string, unknown> = { at: new Date().toISOString(), requests: REQUESTS, rounds: ROUNDS, concurrency: CONCURRENCY };
  try {
    await waitReady();
    const requestId = await createOnePayout(key, payoutBody);
    cases[4]!.path = `/api/bench/read/${requestId}`;
    cases[5]!.path = `/v2/request/${requestId}`;
    for (const c of cases) await load(c, Math.min(1000, REQUESTS));
    const perRequest = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of round % 2 === 0 ? cases : [...cases].reverse()) {
        const before = treeCpuSeconds(server.pid!);
        await load(c, REQUESTS);
        const after = treeCpuSeconds(server.pid!);
        perRequest.get(c.name)!.push(((after - before) / REQUESTS) * 1e6);
      }
    }
    const results = cases.map((c) => ({
      name: c.name,
      cpuMicrosPerRequest: Math.round(median(perRequest.get(c.name)!)),
      rounds: perRequest.get(c.name)!.map(Math.round),
    }));
    console.log(
      `\nServer CPU per request (median of ${ROUNDS} rounds × ${REQUESTS} requests, concurrency ${CONCURRENCY}; ratios: median of per-round ratios):`,
    );
    for (const c of cases) {
      const r = results.find((x) => x.name === c.name)!;
      let line = `  ${c.name.padEnd(32)} ${String(r.cpuMicrosPerRequest).padStart(6)} µs`;
      if (c.baseline) {
        // Paired estimator: each round measures the case and its baseline back to back, so the
        // median of the per-round ratios cancels the machine's drift between rounds (which the
        // ratio of the two medians does not: rounds here vary by ±15 %).
        const own = perRequest.get(c.name)!;
        const base = perRequest.get(c.baseline)!;
        const ratio = median(own.map((v, i) => v / base[i]!));
        const ok = c.target === undefined || ratio <= c.target;
        failed ||= !ok;
        line += `   ${ratio.toFixed(2)}× ${c.baseline}${c.target ? `  (target ≤ ${c.target}×) ${ok ? "OK" : "OVER"}` : ""}`;
        Object.assign(r, { ratio: Number(ratio.toFixed(3)), target: c.target ?? null, baseline: c.baseline });
      }
      console.log(line);
    }
    report.results = results;
    if (apiOnly) {
      writeReportEntry("results", results);
      if (failed) process.exitCode = 1;
      return;
    }

    // Hosted page: server render time of /pay/{token} (sequential requests, wall clock).
    const link = await postJson(
      "/v2/secure-payments",
      { "x-client-id": demo.clientId },
      { requests: [{ amount: "12.5" }], reference: "BENCH-1" },
    );
    const pagePath = `/pay/${link.token as string}`;
    const measureRender = async (path: string) => {
      for (let i = 0; i < 10; i++) await timedGet(path);
      const renders: number[] = [];
      for (let i = 0; i < 50; i++) renders.push(await timedGet(path));
      const sorted = [...renders].sort((x, y) => x - y);
      return {
        medianMs: Number(median(renders).toFixed(1)),
        p95Ms: Number((sorted[Math.floor(sorted.length * 0.95)] ?? Number.NaN).toFixed(1)),
      };
    };
    const pageRender = await measureRender(pagePath);
    const renderOk = pageRender.medianMs <= 100;
    failed ||= !renderOk;
    console.log(
      `\nHosted page ${pagePath.slice(0, 10)}… server render: median ${pageRender.medianMs} ms, p95 ${pageRender.p95Ms} ms  (target ≤ 100 ms) ${renderOk ? "OK" : "OVER"}`,
    );
    report.pageRender = pageRender;

    // Hosted onboarding page (issue 12): same measure, same target, on an open intent.
    const { createOrchestratorKey } = await import("@/lib/accounts/issue-credentials");
    const orchestrator = await createOrchestratorKey(demo.accountId, "bench");
    const intent = await postJson(
      "/v2/orchestrators/client-id-link-intents",
      { "x-orchestrator-key": orchestrator.secret },
      { clientIdName: "Bench platform", domains: ["https://bench.example"] },
    );
    const onboardingUrl = new URL(String(intent.url));
    const onboardingRender = await measureRender(`${onboardingUrl.pathname}${onboardingUrl.search}`);
    const onboardingOk = onboardingRender.medianMs <= 100;
    failed ||= !onboardingOk;
    console.log(
      `Onboarding page /onboarding?token=… server render: median ${onboardingRender.medianMs} ms, p95 ${onboardingRender.p95Ms} ms  (target ≤ 100 ms) ${onboardingOk ? "OK" : "OVER"}`,
    );
    report.onboardingRender = onboardingRender;
  } finally {
    server.kill("SIGTERM");
    agent.destroy();
    if (apiOnly) await new Promise((r) => server.once("exit", r));
  }
  if (apiOnly) return;

  const latency = await measureDetectionLatency({ root, next, env, port: PORT + 1, apiKey: demo.apiKey, payments: LATENCY_PAYMENTS });
  failed ||= !printLatency(latency);
  report.detectionLatency = latency;
  const deep = await measureDetectionLatency({ ...LATENCY_DEPTH_RUN, root, next, env, port: PORT + 1, apiKey: demo.apiKey });
  failed ||= !printLatencyAtDepth(deep);
  report.detectionLatencyAtDepth = { depth: LATENCY_DEPTH, ...deep };
  const { disconnectDb: closeDb } = await import("@/lib/db");
  const webhooks = await measureWebhookThroughput(WEBHOOK_DELIVERIES);
  failed ||= !printWebhooks(webhooks);
  report.webhookThroughput = webhooks;
  const recurring = await measureRecurring();
  failed ||= !printRecurring(recurring);
  report.recurring = recurring;
  const lookahead = await measureLookahead();
  await closeDb();
  failed ||= !printLookahead(lookahead);
  report.lookahead = lookahead;
  const dashboard = await measureDashboard({ root, env, port: PORT + 2, prepare: () => freshDashboardDatabase(env) });
  failed ||= !printDashboard(dashboard);
  report.dashboard = dashboard;
  const lighthouse = await measurePayPageLighthouse();
  failed ||= !printLighthouse(lighthouse);
  report.lighthouse = lighthouse;
  const exported = await measureExports({ root, prepare: freshExportsDatabase });
  failed ||= !printExports(exported);
  report.exports = exported;
  mkdirSync(path.join(root, "bench-results"), { recursive: true });
  writeFileSync(path.join(root, "bench-results/latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  console.log("\nWritten to bench-results/latest.json");
  if (failed) process.exitCode = 1;
}

/** Deliveries in the webhook throughput case (BENCH_WEBHOOK_DELIVERIES). */
const WEBHOOK_DELIVERIES = Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? 10000);
const WEBHOOKS_TARGET_PER_SECOND = 3000;

function printWebhooks(w: { deliveries: number; seconds: number; perSecond: number }): boolean {
  const ok = w.perSecond >= WEBHOOKS_TARGET_PER_SECOND;
  console.log(
    `Webhook delivery to a local receiver: ${w.deliveries} in ${w.seconds} s = ${w.perSecond}/s  (target ≥ ${WEBHOOKS_TARGET_PER_SECOND}/s) ${ok ? "OK" : "UNDER"}`,
  );
  return ok;
}

const LATENCY_PAYMENTS = Number(process.env.BENCH_LATENCY_PAYMENTS ?? 20);

function printLatency(l: DetectionLatency): boolean {
  const ok = l.medianMs <= 300 && l.p95Ms <= 600;
  console.log(
    `\nDetection latency on anvil (woken by each block), receipt → API shows paid, ${l.samplesMs.length} payments: median ${l.medianMs} ms, p95 ${l.p95Ms} ms, max ${l.maxMs} ms  (target median ≤ 300 ms, p95 ≤ 600 ms) ${ok ? "OK" : "OVER"}`,
  );
  return ok;
}

/** The depth-N case: BENCH_LATENCY_DEPTH confirmations (default 2), "paid" within 300 ms of the Nth. */
const LATENCY_DEPTH = Number(process.env.BENCH_LATENCY_DEPTH ?? 2);
const LATENCY_DEPTH_RUN = { depth: LATENCY_DEPTH, payments: Math.max(5, Math.round(LATENCY_PAYMENTS / 2)) };

function printLatencyAtDepth(l: DetectionLatency): boolean {
  const ok = l.medianMs <= 300 && l.p95Ms <= 600;
  console.log(
    `Detection latency at confirmation depth ${LATENCY_DEPTH}, Nth confirmation block → API shows paid, ${l.samplesMs.length} payments: median ${l.medianMs} ms, p95 ${l.p95Ms} ms, max ${l.maxMs} ms  (target median ≤ 300 ms, p95 ≤ 600 ms) ${ok ? "OK" : "OVER"}`,
  );
  return ok;
}

/** `npm run bench -- detection`: detection latency only, on the existing build (built when missing). */
async function detectionOnly(): Promise<void> {
  const env = benchServerEnv(dbUrl, { signReceipts: true });
  await prepareDatabase();
  run(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"], env);
  const next = path.join(root, "node_modules/next/dist/bin/next");
  if (!existsSync(path.join(root, ".next/BUILD_ID")) || process.env.BENCH_REBUILD === "true") run(process.execPath, [next, "build"], env);
  process.env.DATABASE_URL = dbUrl;
  const { seedDemo } = await import("../ops/seed");
  const { disconnectDb } = await import("@/lib/db");
  const demo = await seedDemo();
  await disconnectDb();
  const latency = await measureDetectionLatency({ root, next, env, port: PORT + 1, apiKey: demo.apiKey, payments: LATENCY_PAYMENTS });
  const ok = printLatency(latency);
  writeReportEntry("detectionLatency", latency);
  const deep = await measureDetectionLatency({ ...LATENCY_DEPTH_RUN, root, next, env, port: PORT + 1, apiKey: demo.apiKey });
  const okDeep = printLatencyAtDepth(deep);
  writeReportEntry("detectionLatencyAtDepth", { depth: LATENCY_DEPTH, ...deep });
  if (!ok || !okDeep) process.exitCode = 1;
}

/** `npm run bench -- recurring`: a fresh database, the migrations and the recurring case only. */
async function recurringOnly(): Promise<void> {
  await prepareDatabase();
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: dbUrl, LOG_LEVEL: "warn" };
  run(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"], env);
  process.env.DATABASE_URL = dbUrl;
  process.env.LOG_LEVEL = "warn";
  const { disconnectDb } = await import("@/lib/db");
  const recurring = await measureRecurring();
  await disconnectDb();
  const ok = printRecurring(recurring);
  writeReportEntry("recurring", recurring);
  if (!ok) process.exitCode = 1;
}

/** `npm run bench -- lookahead`: a fresh database, the migrations and the dunning look-ahead case only. */
async function lookaheadOnly(): Promise<void> {
  await prepareDatabase();
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: dbUrl, LOG_LEVEL: "warn" };
  run(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"], env);
  process.env.DATABASE_URL = dbUrl;
  process.env.LOG_LEVEL = "warn";
  const { disconnectDb } = await import("@/lib/db");
  const lookahead = await measureLookahead();
  await disconnectDb();
  const ok = printLookahead(lookahead);
  writeReportEntry("lookahead", lookahead);
  if (!ok) process.exitCode = 1;
}

/** A fresh, migrated database for the dashboard case (its own: 100 000 payments stay out of the others' runs). */
async function freshDashboardDatabase(env: NodeJS.ProcessEnv): Promise<void> {
  await prepareDatabase(dashboardDbUrl);
  run(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    ...env,
    DATABASE_URL: dashboardDbUrl,
  });
}

/** `npm run bench -- dashboard`: the dashboard pages at scale only, on the existing build (built when missing). */
async function dashboardOnly(): Promise<void> {
  const env = benchServerEnv(dashboardDbUrl, { signReceipts: true });
  const next = path.join(root, "node_modules/next/dist/bin/next");
  if (!existsSync(path.join(root, ".next/BUILD_ID")) || process.env.BENCH_REBUILD === "true") run(process.execPath, [next, "build"], env);
  const dashboard = await measureDashboard({ root, env, port: PORT + 2, prepare: () => freshDashboardDatabase(env) });
  const ok = printDashboard(dashboard);
  writeReportEntry("dashboard", dashboard);
  if (!ok) process.exitCode = 1;
}

/** A fresh, migrated database for the exports case (its 110 000 payments stay out of the others' runs). */
async function freshExportsDatabase(): Promise<void> {
  await prepareDatabase(exportsDbUrl);
  run(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    ...process.env,
    DATABASE_URL: exportsDbUrl,
  });
}

/** `npm run bench -- exports`: the streamed export at 10 000 and 100 000 payments only (no build, no server). */
async function exportsOnly(): Promise<void> {
  const exported = await measureExports({ root, prepare: freshExportsDatabase });
  const ok = printExports(exported);
  writeReportEntry("exports", exported);
  if (!ok) process.exitCode = 1;
}

/** `npm run bench -- lighthouse`: the pay page's Lighthouse mobile run only, on the existing build (built when missing). */
async function lighthouseOnly(): Promise<void> {
  const next = path.join(root, "node_modules/next/dist/bin/next");
  if (!existsSync(path.join(root, ".next/BUILD_ID")) || process.env.BENCH_REBUILD === "true")
    run(process.execPath, [next, "build"], { ...process.env, NEXT_TELEMETRY_DISABLED: "1" });
  const lighthouse = await measurePayPageLighthouse();
  const ok = printLighthouse(lighthouse);
  writeReportEntry("lighthouse", lighthouse);
  if (!ok) process.exitCode = 1;
}

/** `npm run bench -- webhooks`: webhook delivery throughput only (no build, no server). */
async function webhooksOnly(): Promise<void> {
  await prepareDatabase();
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: dbUrl, LOG_LEVEL: "warn" };
  run(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"], env);
  process.env.DATABASE_URL = dbUrl;
  process.env.LOG_LEVEL = "warn";
  const { disconnectDb } = await import("@/lib/db");
  const webhooks = await measureWebhookThroughput(WEBHOOK_DELIVERIES);
  await disconnectDb();
  const ok = printWebhooks(webhooks);
  writeReportEntry("webhookThroughput", webhooks);
  if (!ok) process.exitCode = 1;
}

/** `npm run bench -- scale [curve]`: the cost curves (scripts/bench/scale.ts), each on its own database. */
async function scaleOnly(): Promise<void> {
  const { measureScale } = await import("./scale");
  const curves = await measureScale(process.argv[3]);
  writeReportEntry(process.argv[3] ? `scale.${process.argv[3]}` : "scale", curves);
  if (curves.some((c) => c.ok === false)) process.exitCode = 1;
}

/** `npm run bench -- soak`: RSS of the server under a fixed rate of mixed traffic (scripts/bench/soak.ts). */
async function soakOnly(): Promise<void> {
  const { measureSoak } = await import("./soak");
  const soak = await measureSoak({
    root,
    prepareDatabase,
    migrate: (env) => run(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"], env),
  });
  writeReportEntry("soak", soak);
  if (!soak.ok) process.exitCode = 1;
}

const solo = process.argv[2];
if (solo !== undefined && !(SOLO_CASES as readonly string[]).includes(solo)) {
  console.error(`unknown bench case "${solo}": npm run bench [-- ${SOLO_CASES.join(" | ")}]`);
  process.exit(2);
}
const SOLO: Record<string, () => Promise<void>> = {
  recurring: recurringOnly,
  lookahead: lookaheadOnly,
  dashboard: dashboardOnly,
  lighthouse: lighthouseOnly,
  exports: exportsOnly,
  // The API's CPU per request against its baselines only (no pages, detection, webhooks or solo cases).
  api: () => main(true),
  detection: detectionOnly,
  webhooks: webhooksOnly,
  scale: scaleOnly,
  soak: soakOnly,
};
(solo === undefined ? main() : SOLO[solo]!()).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
