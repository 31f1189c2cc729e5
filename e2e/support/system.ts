/**
 * System-test plumbing for the crash and scale-out specs (no browser): production servers and
 * workers as child processes that can be SIGKILLed as a whole process group, a webhook
 * receiver on 127.0.0.1, a bounded HTTP client, and the database and Redis touches the specs
 * need. Everything runs on this machine; every process started here is stopped by PID (its
 * process group), never by name.
 *
 * Linux only: which worker sent a webhook is read from /proc (socket → process).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import pg from "pg";
import type { Devnet } from "@/scripts/devnet";
import type { SeededDemo } from "./app-server";

export const ROOT = path.resolve(__dirname, "../..");
export const LOG_DIR = path.join(ROOT, "test-results");
/** Fixed, public: these servers only ever hold test data. */
export const SYSTEM_APP_SECRET = "duebill-system-test-app-secret-not-for-production";

const TSX = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");

// ---------------------------------------------------------------------------------------------
// Small utilities

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` until it returns a value other than undefined/false, at most `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs: number,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() >= deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ""}`);
    await sleep(intervalMs);
  }
}

/** Runs `fn` over `items`, `n` at a time, in order of `items`; `fn` may ask to stop taking new items. */
export async function pool<T>(
  items: readonly T[],
  n: number,
  fn: (item: T, index: number) => Promise<void>,
  stop: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length && !stop()) {
      const i = next++;
      await fn(items[i]!, i);
    }
  });
  await Promise.all(lanes);
}

export function logFile(name: string): string {
  mkdirSync(LOG_DIR, { recursive: true });
  return path.join(LOG_DIR, `${name}.log`);
}

// ---------------------------------------------------------------------------------------------
// Databases (local only) and Redis

/** A database on the local server; like the other suites, refuses anything but localhost. */
export function localDatabaseUrl(name: string): string {
  if (!/^duebill_[a-z0-9_]+$/.test(name)) throw new Error(`unexpected database name ${name}`);
  const base = new URL(process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/duebill_e2e");
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(base.hostname))
    throw new Error(`E2E_DATABASE_URL must be local, got ${base.hostname}`);
  base.pathname = `/${name}`;
  return base.toString();
}

export async function dropDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^duebill_[a-z0-9_]+$/.test(name)) throw new Error(`unexpected database name ${name}`);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export async function withDb<T>(url: string, fn: (db: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** FLUSHDB on one local Redis database index (the scale-out spec owns its index). */
export async function flushRedisDb(url: string): Promise<void> {
  const u = new URL(url);
  if (!["127.0.0.1", "localhost"].includes(u.hostname)) throw new Error(`Redis must be local, got ${u.hostname}`);
  const index = Number(u.pathname.slice(1) || "0");
  if (!Number.isInteger(index) || index === 0) throw new Error("use a dedicated Redis database index (redis://127.0.0.1:6379/<n>, n ≠ 0)");
  const { default: Redis } = await import("ioredis");
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

// ---------------------------------------------------------------------------------------------
// Environment, seed and admin CLI

/** Variables the app reads that must come from the spec, not from whoever started Playwright. */
const APP_VARS = [
  "DATABASE_URL",
  "DATABASE_POOL_MAX",
  "CHAIN_CONFIG",
  "CHAIN_CONFIG_FILE",
  "REDIS_URL",
  "RATE_LIMIT_MULTIPLIER",
  "TRUSTED_PROXY_HOPS",
  "WORKER_INLINE",
  "WEBHOOK_ALLOW_PRIVATE",
  "WEBHOOK_TIMEOUT_MS",
  "WEBHOOK_INTERVAL_MS",
  "DETECTION_INTERVAL_MS",
  "KYT_DENY_LIST",
  "KYT_DENY_LIST_FILE",
  "CRON_SECRET",
  "BENCH_ROUTES",
  "PORT",
  "HOSTNAME",
  "E2E_STATE",
];

export function systemEnv(opts: {
  databaseUrl: string;
  devnet: Devnet;
  appUrl: string;
  extra?: Record<string, string>;
}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of APP_VARS) delete env[k];
  return {
    ...env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    CHECKPOINT_DISABLE: "1",
    DATABASE_URL: opts.databaseUrl,
    CHAIN_CONFIG: JSON.stringify(opts.devnet.chainConfig()),
    APP_URL: opts.appUrl,
    APP_SECRET: SYSTEM_APP_SECRET,
    LOG_LEVEL: "warn",
    WORKER_INLINE: "false",
    WEBHOOK_ALLOW_PRIVATE: "true",
    DETECTION_INTERVAL_MS: "500",
    ...opts.extra,
  };
}

/** scripts/ops/seed.ts in its own process (the generated Prisma client is ESM, which Playwright's loader does not run). */
export function seedDemo(env: NodeJS.ProcessEnv): SeededDemo {
  const r = spawnSync(process.execPath, [TSX, "scripts/ops/seed.ts", "--json"], {
    cwd: ROOT,
    env: { ...env, NODE_ENV: "test" },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`seed failed:\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop() ?? "") as SeededDemo;
}

/** `npm run admin -- <args> --json`, parsed. */
export function adminJson<T>(env: NodeJS.ProcessEnv, args: string[]): T {
  const r = spawnSync(process.execPath, [TSX, "scripts/ops/admin.ts", ...args, "--json"], {
    cwd: ROOT,
    env: { ...env, NODE_ENV: "test" },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`admin ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop() ?? "") as T;
}

// ---------------------------------------------------------------------------------------------
// Processes

/**
 * Each process runs detached (its own process group, so a SIGKILL to the group takes the whole
 * tree, as a crashed host would) under a small `sh` watchdog that reads our stdin pipe: if the
 * Playwright worker itself dies, the pipe closes and the watchdog SIGKILLs the group, so
 * nothing outlives the run (the same idea as scripts/devnet/anvil.ts).
 */
const WATCHDOG = 'exec 3<&0; "$@" </dev/null 3<&- & pid=$!; (cat <&3 >/dev/null; kill -9 -$$ 2>/dev/null) & wait $pid';

export interface Proc {
  readonly name: string;
  /** PID of the group leader = the process group ID. */
  readonly pid: number;
  /** True until the group leader has exited. */
  running(): boolean;
  /** Every PID in the process group now (from /proc). */
  pids(): number[];
  /** SIGKILL to the whole process group, at once. */
  crash(): void;
  /** SIGTERM to the group, up to 8 s for it to go, then SIGKILL; resolves when the group is empty. */
  stop(): Promise<void>;
}

/** PIDs whose process group is `pgid` (field 5 of /proc/<pid>/stat). */
export function groupPids(pgid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid && fields[0] !== "Z") out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
  }
}

export function startProcess(name: string, args: string[], env: NodeJS.ProcessEnv, log: string): Proc {
  appendFileSync(log, `\n===== ${new Date().toISOString()} start ${name}: node ${args.join(" ")}\n`);
  const child: ChildProcess = spawn("sh", ["-c", WATCHDOG, "sh", process.execPath, ...args], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${name}`);
  const write = (d: Buffer) => appendFileSync(log, d);
  child.stdout?.on("data", write);
  child.stderr?.on("data", write);
  let exited = false;
  child.once("exit", (code, signal) => {
    exited = true;
    appendFileSync(log, `\n===== ${new Date().toISOString()} ${name} exited (code ${code}, signal ${signal})\n`);
  });
  const release = () => {
    child.stdin?.destroy();
    child.stdout?.destroy();
    child.stderr?.destroy();
  };
  return {
    name,
    pid,
    running: () => !exited,
    pids: () => groupPids(pid),
    crash() {
      appendFileSync(log, `\n===== ${new Date().toISOString()} SIGKILL to process group ${pid} (${name})\n`);
      signalGroup(pid, "SIGKILL");
    },
    async stop() {
      if (groupPids(pid).length > 0) {
        signalGroup(pid, "SIGTERM");
        const deadline = Date.now() + 8_000;
        while (groupPids(pid).length > 0 && Date.now() < deadline) await sleep(100);
        signalGroup(pid, "SIGKILL");
        const hard = Date.now() + 5_000;
        while (groupPids(pid).length > 0 && Date.now() < hard) await sleep(50);
      }
      release();
    },
  };
}

/**
 * The production server `npm start` runs: scripts/runtime/server.mjs when the checkout has it (Next's
 * handler behind node:http), otherwise `next start`. Bound to 127.0.0.1.
 */
function serverArgs(port: number): string[] {
  const server = path.join(ROOT, "scripts/runtime/server.mjs");
  if (existsSync(server)) return [server, "--port", String(port), "--hostname", "127.0.0.1"];
  return [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "--port", String(port), "--hostname", "127.0.0.1"];
}

export interface AppProc extends Proc {
  baseUrl: string;
}

/** Starts a production server on `port` and waits for /api/health (the build must exist). */
export async function startApp(name: string, port: number, env: NodeJS.ProcessEnv, log: string): Promise<AppProc> {
  if (!existsSync(path.join(ROOT, ".next", "BUILD_ID")))
    throw new Error("No production build in .next: run `npm run build` first (`npm run e2e` does).");
  const proc = startProcess(name, serverArgs(port), env, log);
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      `${name} /api/health`,
      async () => {
        if (!proc.running()) throw new Error(`${name} exited (see ${log})`);
        const res = await request(`${baseUrl}/api/health`, { timeoutMs: 2_000 }).catch(() => null);
        return res?.status === 200;
      },
      60_000,
      200,
    );
  } catch (err) {
    await proc.stop();
    throw err;
  }
  return { ...proc, baseUrl };
}

/** `npm run worker` (tsx scripts/runtime/worker.ts), as its own process group. */
export function startWorker(name: string, env: NodeJS.ProcessEnv, log: string): Proc {
  return startProcess(name, [TSX, "scripts/runtime/worker.ts"], env, log);
}

/** Stops whatever was started, tolerating failures, so one failing stop does not leak the rest. */
export async function stopAll(items: ({ stop(): Promise<void> } | undefined)[]): Promise<void> {
  await Promise.allSettled(items.map((p) => p?.stop()));
}

// ---------------------------------------------------------------------------------------------
// /proc: which process owns a TCP connection

function socketInodes(pids: number[]): Set<string> {
  const inodes = new Set<string>();
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]!);
      } catch {
        // closed meanwhile
      }
    }
  }
  return inodes;
}

/** Local ports of the TCP connections that `pids` hold to `remotePort` on this machine. */
export function connectionPorts(pids: number[], remotePort: number): Set<number> {
  const inodes = socketInodes(pids);
  const ports = new Set<number>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      const local = Number.parseInt(f[1]!.split(":")[1]!, 16);
      const remote = Number.parseInt(f[2]!.split(":")[1]!, 16);
      if (remote === remotePort && inodes.has(f[9]!)) ports.add(local);
    }
  }
  return ports;
}

// ---------------------------------------------------------------------------------------------
// HTTP client (node:http, bounded by a timeout)

export interface HttpResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are read field by field
  json: any;
}

export function request(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: unknown; agent?: http.Agent; timeoutMs?: number } = {},
): Promise<HttpResult> {
  const payload = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body), "utf8");
  const headers: Record<string, string> = { ...opts.headers };
  if (payload) {
    headers["content-type"] = "application/json";
    headers["content-length"] = String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? "GET", headers, agent: opts.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown = null;
        try {
          json = text ? JSON.parse(text) : null;
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error(`timeout after ${opts.timeoutMs ?? 30_000} ms`)));
    req.on("error", reject);
    req.end(payload);
  });
}

/** A request that waits out 429s (Retry-After) like a well-behaved client, a bounded number of times. */
export async function requestPolitely(url: string, opts: Parameters<typeof request>[1] = {}, maxWaits = 10): Promise<HttpResult> {
  for (let i = 0; ; i++) {
    const res = await request(url, opts);
    if (res.status !== 429 || i >= maxWaits) return res;
    await sleep(Number(res.headers["retry-after"] ?? "1") * 1000 + 50);
  }
}

// ---------------------------------------------------------------------------------------------
// Webhook receiver

export interface Received {
  seq: number;
  path: string;
  deliveryId: string;
  signature: string;
  retryCount: string;
  body: string;
  remotePort: number;
  /** Who sent it, when the receiver was told how to tell (see `attribute`). */
  sender: string | null;
  at: number;
  /** Set once the response went out. */
  answered: boolean;
  /** The connection closed before we answered: the sender never learnt the outcome. */
  aborted: boolean;
}

/**
 * node:http on 127.0.0.1: records every POST (path, x-duebill-delivery, signature, body) when
 * its body has arrived, and answers 200 after `delayMs`.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  delayMs = 0;
  /** Maps a connection's remote port to a sender name (e.g. which worker), or null. */
  attribute: ((remotePort: number) => string | null) | null = null;
  private readonly server: http.Server;
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(server: http.Server) {
    this.server = server;
  }

  static async start(): Promise<WebhookReceiver> {
    const server = http.createServer();
    const receiver = new WebhookReceiver(server);
    server.on("request", (req, res) => receiver.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(p: string): string {
    return `http://127.0.0.1:${this.port}${p}`;
  }

  inflight(): Received[] {
    return this.received.filter((r) => !r.answered && !r.aborted);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const remotePort = req.socket.remotePort ?? 0;
      const r: Received = {
        seq: this.received.length,
        path: req.url ?? "",
        deliveryId: String(req.headers["x-duebill-delivery"] ?? ""),
        signature: String(req.headers["x-duebill-signature"] ?? ""),
        retryCount: String(req.headers["x-duebill-retry-count"] ?? ""),
        body: Buffer.concat(chunks).toString("utf8"),
        remotePort,
        sender: null,
        at: Date.now(),
        answered: false,
        aborted: false,
      };
      try {
        r.sender = this.attribute?.(remotePort) ?? null;
      } catch {
        r.sender = null;
      }
      this.received.push(r);
      res.on("close", () => {
        if (!r.answered) r.aborted = true;
      });
      const answer = () => {
        if (res.destroyed) return;
        r.answered = true;
        res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      };
      if (this.delayMs <= 0) answer();
      else {
        const t = setTimeout(() => {
          this.timers.delete(t);
          answer();
        }, this.delayMs);
        this.timers.add(t);
      }
    });
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** x-duebill-signature: hex HMAC-SHA256 of the exact body, keyed with the secret string (docs/guides/webhooks.md). */
export function signatureOk(secret: string, body: string, signature: string): boolean {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(Buffer.from(body, "utf8")).digest("hex") === signature;
}

/**
 * Identifies which of `workers` owns a connection to the receiver, from /proc (cached per port;
 * a keep-alive connection keeps its port, a new one triggers a fresh lookup).
 */
export function workerAttribution(workers: Proc[], receiverPort: () => number): (remotePort: number) => string | null {
  const cache = new Map<number, Proc>();
  return (remotePort) => {
    const hit = cache.get(remotePort);
    // A port cached for a worker that has exited may have been reused by another connection.
    if (hit?.running()) return hit.name;
    for (const w of workers) {
      if (w.running() && connectionPorts(w.pids(), receiverPort()).has(remotePort)) {
        cache.set(remotePort, w);
        return w.name;
      }
    }
    return null;
  };
}

// ---------------------------------------------------------------------------------------------
// Webhooks and outbox, as an integrator and as the product writes them

export interface RegisteredWebhook {
  id: string;
  url: string;
  secret: string;
}

/** POST /v1/webhook with the backend client ID. */
export async function registerWebhook(baseUrl: string, clientId: string, url: string): Promise<RegisteredWebhook> {
  const res = await requestPolitely(`${baseUrl}/v1/webhook`, { method: "POST", headers: { "x-client-id": clientId }, body: { url } });
  if (res.status !== 201) throw new Error(`POST /v1/webhook → ${res.status}: ${res.text}`);
  return { id: res.json.id, url, secret: res.json.secret };
}

/**
 * Outbox events written as lib/events/outbox.ts writes them (payload = the JSON text that is
 * delivered byte for byte). Account-wide (clientId null): they go to every endpoint of the account.
 */
export async function insertOutboxEvents(
  databaseUrl: string,
  accountId: string,
  tag: string,
  count: number,
): Promise<{ id: string; payload: string }[]> {
  const events = Array.from({ length: count }, (_, i) => {
    const id = `evt_${tag}_${String(i).padStart(4, "0")}`;
    const payload = JSON.stringify({ id, type: "payment.confirmed", test: tag, seq: i, createdAt: new Date().toISOString() });
    return { id, payload };
  });
  await withDb(databaseUrl, (db) =>
    db.query(
      `INSERT INTO "OutboxEvent" ("id", "accountId", "clientId", "type", "dedupeKey", "payload", "requestId")
       SELECT e.id, $2, NULL, 'payment.confirmed', 'system-test:' || e.id, e.payload, NULL
       FROM unnest($1::text[], $3::text[]) AS e(id, payload)`,
      [events.map((e) => e.id), accountId, events.map((e) => e.payload)],
    ),
  );
  return events;
}

export interface DeliveryRow {
  id: string;
  eventId: string | null;
  endpointId: string;
  status: string;
  attempts: number;
}

export async function deliveriesOf(databaseUrl: string, eventIds: string[]): Promise<DeliveryRow[]> {
  return withDb(databaseUrl, async (db) => {
    const r = await db.query<DeliveryRow>(
      `SELECT "id", "eventId", "endpointId", "status"::text AS "status", "attempts" FROM "WebhookDelivery" WHERE "eventId" = ANY($1::text[])`,
      [eventIds],
    );
    return r.rows;
  });
}

export interface WebhookCheck {
  deliveries: number;
  received: number;
  uniqueDeliveryIds: number;
  /** POSTs beyond the first of each delivery ID (at-least-once re-sends). */
  duplicates: number;
}

/**
 * The delivery invariants for a set of events and endpoints, as a list of violations (empty when
 * all hold): exactly one succeeded delivery per (event, endpoint); every one reached the receiver
 * with the event's exact body and a valid signature; the receiver never saw two delivery IDs for
 * one (event, endpoint).
 */
export function checkDeliveries(
  events: { id: string; payload: string }[],
  webhooks: RegisteredWebhook[],
  rows: DeliveryRow[],
  received: Received[],
): { problems: string[]; figures: WebhookCheck } {
  const problems: string[] = [];
  const pathOf = (w: RegisteredWebhook) => new URL(w.url).pathname;
  const byKey = new Map<string, DeliveryRow[]>();
  for (const r of rows) {
    const k = `${r.eventId}|${r.endpointId}`;
    byKey.set(k, [...(byKey.get(k) ?? []), r]);
  }
  const byBody = new Map<string, Received[]>();
  for (const r of received) {
    const k = `${r.path}|${r.body}`;
    byBody.set(k, [...(byBody.get(k) ?? []), r]);
  }
  const relevant = new Set<string>();
  for (const ev of events) {
    for (const w of webhooks) {
      const found = byKey.get(`${ev.id}|${w.id}`) ?? [];
      if (found.length !== 1) {
        problems.push(`event ${ev.id} → endpoint ${w.id}: ${found.length} delivery rows`);
        continue;
      }
      const row = found[0]!;
      if (row.status !== "succeeded") problems.push(`delivery ${row.id} (${ev.id}) is ${row.status} after ${row.attempts} attempts`);
      const got = byBody.get(`${pathOf(w)}|${ev.payload}`) ?? [];
      if (got.length === 0) problems.push(`event ${ev.id} never reached ${pathOf(w)}`);
      const ids = new Set(got.map((g) => g.deliveryId));
      if (ids.size > 1) problems.push(`event ${ev.id} reached ${pathOf(w)} under ${ids.size} delivery IDs: ${[...ids].join(", ")}`);
      for (const g of got) {
        relevant.add(`${g.seq}`);
        if (g.deliveryId !== row.id) problems.push(`event ${ev.id} reached ${pathOf(w)} as delivery ${g.deliveryId}, the row is ${row.id}`);
        if (!signatureOk(w.secret, g.body, g.signature)) problems.push(`bad signature on delivery ${g.deliveryId}`);
      }
    }
  }
  const mine = received.filter((r) => relevant.has(`${r.seq}`));
  const unique = new Set(mine.map((r) => r.deliveryId)).size;
  return {
    problems,
    figures: { deliveries: rows.length, received: mine.length, uniqueDeliveryIds: unique, duplicates: mine.length - unique },
  };
}

/** Counts of deliveries by status for a set of events. */
export async function deliveryStatus(databaseUrl: string, eventIds: string[]): Promise<Record<string, number>> {
  return withDb(databaseUrl, async (db) => {
    const r = await db.query<{ status: string; n: string }>(
      `SELECT "status"::text AS "status", count(*) AS n FROM "WebhookDelivery" WHERE "eventId" = ANY($1::text[]) GROUP BY 1`,
      [eventIds],
    );
    return Object.fromEntries(r.rows.map((x) => [x.status, Number(x.n)]));
  });
}
