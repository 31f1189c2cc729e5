/**
 * `npm run bench -- soak` (issue 33 item 5): the production server (scripts/runtime/server.mjs on the
 * existing build, built when missing) under a fixed rate of mixed traffic for a bounded time, the RSS of
 * its process group sampled every 10 s; the slope after warm-up, by least squares, in MiB/min, must stay
 * under 1 MiB/min. Prints the samples, the slope, and what the traffic got (statuses, latency).
 *
 * The mix, in turn at BENCH_SOAK_RATE requests a second (default 20; open loop: a request starts on its
 * tick whether or not the previous ones answered, at most 64 in flight): POST /v2/payouts, GET
 * /v2/request/{id} of a payout made earlier, GET /v2/currencies, the hosted pay page GET /pay/{token},
 * POST then DELETE /v1/webhook (a registration), GET /v2/payments (first page, and by wallet), GET
 * /api/health. BENCH_SOAK_SECONDS (default 600) bounds the run, BENCH_SOAK_WARMUP_SECONDS (default a
 * third of it, at most 120) is left out of the slope. Its own database (BENCH_SOAK_DATABASE_URL, default
 * duebill_bench_soak, recreated and migrated), port BENCH_SOAK_PORT (default BENCH_PORT + 5).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { benchServerEnv } from "./server-env";

const dbUrl = process.env.BENCH_SOAK_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/duebill_bench_soak";
const PORT = Number(process.env.BENCH_SOAK_PORT ?? Number(process.env.BENCH_PORT ?? 3917) + 5);
const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const WARMUP = Number(process.env.BENCH_SOAK_WARMUP_SECONDS ?? Math.min(120, Math.floor(SECONDS / 3)));
const RATE = Number(process.env.BENCH_SOAK_RATE ?? 20);
const SAMPLE_MS = 10_000;
const MAX_IN_FLIGHT = 64;
const TARGET_MIB_PER_MIN = 1;
/** The server's inspector (loopback only): a full GC before each sample, so RSS measures what is kept, not the collector's phase. */
const INSPECT_PORT = Number(process.env.BENCH_SOAK_INSPECT_PORT ?? PORT + 100);
const PAYEE = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";

export interface SoakSample {
  /** Seconds since the traffic started. */
  t: number;
  /** RSS of the server's process group right after a full garbage collection of the server. */
  rssMiB: number;
  /** The server's V8 heap in use after that collection. */
  heapMiB: number;
}

interface Inspector {
  send(method: string): Promise<Record<string, unknown>>;
  close(): void;
}

/** A client of the server's inspector (Chrome DevTools protocol over the `ws` package Next already installs). */
async function inspectorOf(): Promise<Inspector> {
  const list = await new Promise<string>((resolve, reject) =>
    http
      .get({ host: "127.0.0.1", port: INSPECT_PORT, path: "/json/list" }, (res) => {
        let b = "";
        res.on("data", (d: Buffer) => {
          b += d.toString("utf8");
        });
        res.on("end", () => resolve(b));
      })
      .on("error", reject),
  );
  const url = (JSON.parse(list) as { webSocketDebuggerUrl: string }[])[0]!.webSocketDebuggerUrl;
  type Ws = { on(e: string, f: (x: unknown) => void): void; send(s: string): void; close(): void };
  const WebSocket = createRequire(import.meta.url)("ws") as new (u: string) => Ws;
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.on("open", () => resolve());
    ws.on("error", (e) => reject(e));
  });
  let id = 0;
  const waiting = new Map<number, (r: Record<string, unknown>) => void>();
  ws.on("message", (data) => {
    const m = JSON.parse(String(data)) as { id?: number; result?: Record<string, unknown> };
    if (m.id === undefined) return;
    waiting.get(m.id)?.(m.result ?? {});
    waiting.delete(m.id);
  });
  return {
    send: (method) =>
      new Promise((resolve) => {
        id += 1;
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ id, method }));
      }),
    close: () => ws.close(),
  };
}

export interface SoakResult {
  at: string;
  seconds: number;
  warmupSeconds: number;
  rate: number;
  load: { before: number; after: number; cores: number };
  requests: number;
  statuses: Record<string, number>;
  /** Statuses per kind of request, and the first failure of each (status and the start of the body). */
  byRoute: Record<string, Record<string, number>>;
  firstFailure: Record<string, string>;
  /** Requests not started because MAX_IN_FLIGHT were still open (the server fell behind the rate). */
  skipped: number;
  latencyMs: { median: number; p99: number };
  samples: SoakSample[];
  /** Least-squares slope of RSS (after a full GC) over the samples after warm-up. */
  slopeMiBPerMin: number;
  /** The same for the server's V8 heap in use. */
  heapSlopeMiBPerMin: number;
  targetMiBPerMin: number;
  ok: boolean;
}

/** RSS of every process in the process group `pgid` (the server and whatever it started), MiB. */
function groupRssMiB(pgid: number): number {
  let kib = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, "utf8"));
      kib += Number(m?.[1] ?? 0);
    } catch {
      // the process ended between the listing and the read
    }
  }
  return kib / 1024;
}

/** Least-squares slope of y over x. */
export function slopeOf(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxy = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return sxy / sxx;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT });

function call(
  method: string,
  pathName: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string; ms: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: PORT,
        path: pathName,
        method,
        agent,
        headers: { ...headers, ...(body ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (d: Buffer) => chunks.push(d));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          }),
        );
      },
    );
    req.on("error", () => resolve({ status: 0, body: "", ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    req.end(body);
  });
}

async function waitReady(): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if ((await call("GET", "/api/bench/empty", {})).status === 200) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("soak: the server did not become ready");
}

export async function measureSoak(opts: {
  root: string;
  prepareDatabase: (url?: string) => Promise<void>;
  migrate: (env: NodeJS.ProcessEnv) => void;
}): Promise<SoakResult> {
  const os = await import("node:os");
  const env = benchServerEnv(dbUrl, {
    // The registrations point at this machine (nothing listens there; nothing is delivered in the soak).
    extra: { WEBHOOK_ALLOW_PRIVATE: "true" },
  });
  await opts.prepareDatabase(dbUrl);
  opts.migrate(env);
  const next = path.join(opts.root, "node_modules/next/dist/bin/next");
  if (!existsSync(path.join(opts.root, ".next/BUILD_ID")) || process.env.BENCH_REBUILD === "true") {
    const r = spawnSync(process.execPath, [next, "build"], { cwd: opts.root, env, stdio: "inherit" });
    if (r.status !== 0) throw new Error("soak: next build failed");
  }
  process.env.DATABASE_URL = dbUrl;
  const { seedDemo } = await import("../ops/seed");
  const { disconnectDb } = await import("@/lib/db");
  const demo = await seedDemo();
  await disconnectDb();

  // Detached: the server leads its own process group, whose RSS is what is sampled.
  const server: ChildProcess = spawn(
    process.execPath,
    [
      `--inspect=127.0.0.1:${INSPECT_PORT}`,
      path.join(opts.root, "scripts/runtime/server.mjs"),
      "--port",
      String(PORT),
      "--hostname",
      "127.0.0.1",
    ],
    {
      cwd: opts.root,
      env,
      detached: true,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const pgid = server.pid!;
  const loadBefore = os.loadavg()[0] ?? 0;
  try {
    await waitReady();
    const inspector = await inspectorOf();
    const sample = async (t: number): Promise<SoakSample> => {
      await inspector.send("HeapProfiler.collectGarbage");
      const heap = (await inspector.send("Runtime.getHeapUsage")) as { usedSize?: number };
      return { t, rssMiB: Number(groupRssMiB(pgid).toFixed(1)), heapMiB: Number(((heap.usedSize ?? 0) / 1048576).toFixed(1)) };
    };
    const key = { "x-api-key": demo.apiKey };
    // Webhook registration is a client-id (or session) operation.
    const client = { ...key, "x-client-id": demo.clientId };
    const payoutBody = JSON.stringify({ payee: PAYEE, amount: "25.5", invoiceCurrency: "USD", paymentCurrency: "USDC-base" });
    const first = await call("POST", "/v2/payouts", key, payoutBody);
    if (first.status !== 201 && first.status !== 200) throw new Error(`soak: POST /v2/payouts ${first.status} ${first.body.slice(0, 300)}`);
    const requestIds: string[] = [(JSON.parse(first.body) as { requestId: string }).requestId];
    const link = await call(
      "POST",
      "/v2/secure-payments",
      { ...key, "x-client-id": demo.clientId },
      JSON.stringify({ requests: [{ amount: "20" }] }),
    );
    if (link.status !== 201) throw new Error(`soak: POST /v2/secure-payments ${link.status} ${link.body.slice(0, 300)}`);
    const payPage = `/pay/${(JSON.parse(link.body) as { token: string }).token}`;
    if ((await call("GET", payPage, {})).status !== 200) throw new Error(`soak: GET ${payPage} is not 200`);

    let n = 0;
    const mix: [string, () => Promise<{ status: number; body: string; ms: number }>][] = [
      [
        "POST /v2/payouts",
        async () => {
          const r = await call("POST", "/v2/payouts", key, payoutBody);
          if (r.status === 201 || r.status === 200) {
            const id = (JSON.parse(r.body) as { requestId: string }).requestId;
            // a bounded set of recent ids to read back
            if (requestIds.length < 256) requestIds.push(id);
            else requestIds[n % 256] = id;
          }
          return r;
        },
      ],
      ["GET /v2/request/{id}", () => call("GET", `/v2/request/${requestIds[n % requestIds.length]}`, key)],
      ["GET /v2/currencies", () => call("GET", "/v2/currencies", key)],
      ["GET /pay/{token}", () => call("GET", payPage, {})],
      [
        "POST+DELETE /v1/webhook",
        async () => {
          const r = await call("POST", "/v1/webhook", client, JSON.stringify({ url: `http://127.0.0.1:9/soak-hook-${n}` }));
          if (r.status !== 201) return r;
          const del = await call("DELETE", `/v1/webhook/${(JSON.parse(r.body) as { id: string }).id}`, client);
          return { ...del, ms: r.ms + del.ms };
        },
      ],
      ["GET /v2/payments", () => call("GET", "/v2/payments?limit=20", key)],
      ["GET /v2/payments?walletAddress=", () => call("GET", `/v2/payments?walletAddress=${PAYEE}`, key)],
      ["GET /api/health", () => call("GET", "/api/health", {})],
    ];

    const statuses: Record<string, number> = {};
    const byRoute: Record<string, Record<string, number>> = {};
    const firstFailure: Record<string, string> = {};
    const latencies: number[] = [];
    let inFlight = 0;
    let skipped = 0;
    let requests = 0;
    const samples: SoakSample[] = [];
    const started = Date.now();
    samples.push(await sample(0));
    console.log(
      `soak: ${RATE} req/s of mixed traffic for ${SECONDS} s (warm-up ${WARMUP} s); every 10 s a full GC of the server, then the RSS of its process group and its V8 heap`,
    );
    console.log(`  t=0 s  RSS ${samples[0]!.rssMiB} MiB  heap ${samples[0]!.heapMiB} MiB`);
    const sampler = setInterval(() => {
      void sample(Math.round((Date.now() - started) / 1000)).then((s) => {
        samples.push(s);
        console.log(`  t=${s.t} s  RSS ${s.rssMiB} MiB  heap ${s.heapMiB} MiB  (${requests} requests, ${inFlight} in flight)`);
      });
    }, SAMPLE_MS);
    const done = new Promise<void>((resolve) => {
      let tick = 0;
      const timer = setInterval(() => {
        const due = Math.floor(((Date.now() - started) / 1000) * RATE);
        for (; tick < due; tick++) {
          if (inFlight >= MAX_IN_FLIGHT) {
            skipped += 1;
            continue;
          }
          inFlight += 1;
          requests += 1;
          const [label, which] = mix[n % mix.length]!;
          n += 1;
          void which().then((r) => {
            inFlight -= 1;
            statuses[r.status] = (statuses[r.status] ?? 0) + 1;
            const mine = byRoute[label] ?? {};
            byRoute[label] = mine;
            mine[r.status] = (mine[r.status] ?? 0) + 1;
            if (r.status >= 400 || r.status === 0) firstFailure[label] ??= `${r.status} ${r.body.slice(0, 200)}`;
            if (latencies.length < 200_000) latencies.push(r.ms);
          });
        }
        if (Date.now() - started >= SECONDS * 1000) {
          clearInterval(timer);
          resolve();
        }
      }, 5);
    });
    await done;
    clearInterval(sampler);
    while (inFlight > 0) await new Promise((r) => setTimeout(r, 50));
    const after = samples.filter((s) => s.t >= WARMUP);
    inspector.close();
    const slope = slopeOf(after.map((s) => ({ x: s.t / 60, y: s.rssMiB })));
    const heapSlope = slopeOf(after.map((s) => ({ x: s.t / 60, y: s.heapMiB })));
    const sorted = latencies.sort((a, b) => a - b);
    const at = (q: number) => Number((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN).toFixed(1));
    const serverErrors = Object.entries(statuses)
      .filter(([s]) => Number(s) >= 500 || s === "0")
      .reduce((x, [, c]) => x + c, 0);
    const result: SoakResult = {
      at: new Date().toISOString(),
      seconds: SECONDS,
      warmupSeconds: WARMUP,
      rate: RATE,
      load: { before: loadBefore, after: os.loadavg()[0] ?? 0, cores: os.cpus().length },
      requests,
      statuses,
      byRoute,
      firstFailure,
      skipped,
      latencyMs: { median: at(0.5), p99: at(0.99) },
      samples,
      slopeMiBPerMin: Number(slope.toFixed(3)),
      heapSlopeMiBPerMin: Number(heapSlope.toFixed(3)),
      targetMiBPerMin: TARGET_MIB_PER_MIN,
      ok: after.length >= 3 && slope < TARGET_MIB_PER_MIN && serverErrors === 0,
    };
    printSoak(result);
    return result;
  } finally {
    try {
      process.kill(-pgid, "SIGTERM");
    } catch {
      // already gone
    }
    agent.destroy();
  }
}

export function printSoak(r: SoakResult): void {
  const first = r.samples.find((s) => s.t >= r.warmupSeconds);
  const last = r.samples.at(-1);
  console.log(
    `\nSoak: ${r.requests} requests at ${r.rate}/s over ${r.seconds} s (load ${r.load.before.toFixed(2)} → ${r.load.after.toFixed(2)} on ${r.load.cores} cores); ` +
      `statuses ${JSON.stringify(r.statuses)}, ${r.skipped} not started (64 in flight); latency median ${r.latencyMs.median} ms, p99 ${r.latencyMs.p99} ms`,
  );
  for (const [route, counts] of Object.entries(r.byRoute))
    console.log(
      `  ${route.padEnd(34)} ${JSON.stringify(counts)}${r.firstFailure[route] ? `  first failure: ${r.firstFailure[route]}` : ""}`,
    );
  console.log(
    `  RSS of the server's process group after a full GC: ${r.samples[0]?.rssMiB} MiB at start, ${first?.rssMiB} MiB after the ${r.warmupSeconds} s warm-up, ${last?.rssMiB} MiB at the end`,
  );
  console.log(`  V8 heap in use after a full GC: slope after warm-up ${r.heapSlopeMiBPerMin} MiB/min`);
  console.log(
    `  RSS slope after warm-up: ${r.slopeMiBPerMin} MiB/min (target < ${r.targetMiBPerMin} MiB/min, no 5xx) ${r.ok ? "OK" : "OVER"}`,
  );
}
