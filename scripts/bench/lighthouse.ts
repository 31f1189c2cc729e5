/**
 * Lighthouse mobile run of the hosted pay page, part of `npm run bench` (and runnable alone:
 * `tsx scripts/bench/lighthouse.ts` after `next build`).
 *
 * The stack is the one a payer meets: the production build (`next start`) against a devnet
 * standing in for Sepolia and its own fresh database (BENCH_LIGHTHOUSE_DATABASE_URL, default
 * duebill_bench_lighthouse), the demo account seeded, one pending secure payment link. Lighthouse
 * 12 (pinned: 13.x wants Node 22) runs its default mobile configuration — Moto G Power
 * emulation, simulated slow 4G and 4× CPU throttling — in Debian's Chromium (CHROME_PATH,
 * default /usr/bin/chromium). Simulated throttling makes the figures depend on the machine's
 * load, so it runs LIGHTHOUSE_RUNS times (default 5: an odd count has a true median) and reports each run and the median.
 *
 * Targets (Core Web Vitals "good"): performance ≥ 90, LCP ≤ 2.5 s, TBT ≤ 200 ms.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { getFreePort, startDevnet } from "../devnet";

export const LIGHTHOUSE_TARGETS = { score: 90, lcpMs: 2500, tbtMs: 200 } as const;

export interface LighthouseRun {
  score: number;
  lcpMs: number;
  tbtMs: number;
  fcpMs: number;
  totalBytes: number;
  lcpElement: string | null;
}

export interface LighthouseResult {
  url: string;
  runs: LighthouseRun[];
  median: LighthouseRun;
}

const ROOT = path.resolve(__dirname, "../..");
const DB_URL = process.env.BENCH_LIGHTHOUSE_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/duebill_bench_lighthouse";
/** Fixed, public: this server only ever holds bench data. */
const APP_SECRET = "duebill-bench-app-secret-not-for-production-use";

async function freshDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unexpected database name ${name}`);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  try {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}"`);
  } finally {
    await c.end();
  }
  const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, CHECKPOINT_DISABLE: "1" },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`prisma migrate deploy failed:\n${r.stdout}\n${r.stderr}`);
}

/** The demo account (scripts/ops/seed.ts) in its own process, as the e2e setup does. */
function seed(env: NodeJS.ProcessEnv): { clientId: string } {
  const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/ops/seed.ts", "--json"], {
    cwd: ROOT,
    env,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`seed failed:\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop() ?? "") as { clientId: string };
}

async function waitForHealth(baseUrl: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}`);
    const ok = await fetch(`${baseUrl}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("next start did not become healthy");
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** One Lighthouse mobile run (default config: mobile emulation, simulated throttling) in a fresh Chromium. */
async function runLighthouse(url: string): Promise<LighthouseRun> {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking"],
  });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
    if (!result) throw new Error("Lighthouse returned no result");
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const lcpItems = (
      lhr.audits["largest-contentful-paint-element"]?.details as { items?: { items?: { node?: { snippet?: string } }[] }[] }
    )?.items;
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: Math.round(audit("largest-contentful-paint")),
      tbtMs: Math.round(audit("total-blocking-time")),
      fcpMs: Math.round(audit("first-contentful-paint")),
      totalBytes: Math.round(audit("total-byte-weight")),
      lcpElement: lcpItems?.[0]?.items?.[0]?.node?.snippet ?? null,
    };
  } finally {
    chrome.kill();
  }
}

/** Starts the stack, creates a pending link and runs Lighthouse on its pay page `runs` times. */
export async function measurePayPageLighthouse(runs = Number(process.env.LIGHTHOUSE_RUNS ?? 5)): Promise<LighthouseResult> {
  const next = path.join(ROOT, "node_modules/next/dist/bin/next");
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("No production build in .next: run `next build` first.");
  await freshDatabase(DB_URL);
  const devnet = await startDevnet({ port: 0 });
  let server: ChildProcess | undefined;
  try {
    const port = await getFreePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: DB_URL,
      CHAIN_CONFIG: JSON.stringify(devnet.chainConfig()),
      APP_URL: baseUrl,
      APP_SECRET: process.env.APP_SECRET ?? APP_SECRET,
      LOG_LEVEL: "warn",
      RATE_LIMIT_MULTIPLIER: "1000",
    };
    const demo = seed({ ...env, NODE_ENV: "test" });
    server = spawn(process.execPath, [next, "start", "--port", String(port), "--hostname", "127.0.0.1"], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "ignore", "inherit"],
    });
    await waitForHealth(baseUrl, server);
    const res = await fetch(`${baseUrl}/v2/secure-payments`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-client-id": demo.clientId },
      body: JSON.stringify({ requests: [{ amount: "12.5" }], reference: "LIGHTHOUSE-1" }),
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`POST /v2/secure-payments → ${res.status}: ${text}`);
    const url = `${baseUrl}/pay/${(JSON.parse(text) as { token: string }).token}`;
    // Warm the server (first render compiles nothing in production, but fills its caches).
    await fetch(url).then((r) => r.text());
    const results: LighthouseRun[] = [];
    for (let i = 0; i < runs; i++) results.push(await runLighthouse(url));
    const pick = (k: keyof Omit<LighthouseRun, "lcpElement">) => median(results.map((r) => r[k]));
    return {
      url: url.replace(/\/pay\/.*/, "/pay/…"),
      runs: results,
      median: {
        score: pick("score"),
        lcpMs: pick("lcpMs"),
        tbtMs: pick("tbtMs"),
        fcpMs: pick("fcpMs"),
        totalBytes: pick("totalBytes"),
        lcpElement: results[0]?.lcpElement ?? null,
      },
    };
  } finally {
    server?.kill("SIGTERM");
    await devnet.stop();
  }
}

/** Prints the runs and the median against the targets; returns whether the median meets all of them. */
export function printLighthouse(r: LighthouseResult): boolean {
  const t = LIGHTHOUSE_TARGETS;
  const line = (x: LighthouseRun) =>
    `score ${x.score}, LCP ${(x.lcpMs / 1000).toFixed(2)} s, TBT ${x.tbtMs} ms, FCP ${(x.fcpMs / 1000).toFixed(2)} s, total ${(x.totalBytes / 1024).toFixed(0)} KiB`;
  console.log("\nPay page /pay/[token] (pending EVM link), Lighthouse 12 mobile (simulated throttling):");
  r.runs.forEach((x, i) => {
    console.log(`  run ${i + 1}: ${line(x)}`);
  });
  const m = r.median;
  const ok = m.score >= t.score && m.lcpMs <= t.lcpMs && m.tbtMs <= t.tbtMs;
  console.log(`  median: ${line(m)}  (targets: score ≥ ${t.score}, LCP ≤ ${t.lcpMs / 1000} s, TBT ≤ ${t.tbtMs} ms) ${ok ? "OK" : "UNDER"}`);
  if (m.lcpElement) console.log(`  LCP element: ${m.lcpElement.slice(0, 120)}`);
  return ok;
}

if (require.main === module) {
  measurePayPageLighthouse()
    .then((r) => {
      if (!printLighthouse(r)) process.exitCode = 1;
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
