/**
 * Webhook delivery throughput, part of `npm run bench` (alone: `npm run bench -- webhooks`): N pending
 * deliveries to one local endpoint, sent by the real engine as the worker runs it (sweepWebhooks, its
 * default batch size and delivery lanes) against the bench DB. The receiver runs in ANOTHER process
 * (scripts/bench/webhook-receiver.ts), so its HTTP parsing does not eat the engine's event loop; it
 * verifies every signature and counts delivery IDs. The run fails unless the receiver got every
 * delivery exactly once with a valid signature and the database shows every delivery succeeded at
 * its first attempt with one attempt row each: nothing lost, nothing doubled. The time is from the
 * first claim to the last recorded outcome (the outcomes are durable when it stops).
 *
 * It measures the engine warm, as a worker runs it all day: BENCH_WEBHOOK_WARMUP deliveries (default
 * 2 000) are sent first, unmeasured (the JIT compiles the hot path, the keep-alive pool opens its
 * connections), then the N measured ones; the checks cover both. Besides the rate it reports where
 * the machine's CPU went per delivery: the engine's process, the receiver's, Postgres's processes,
 * and the whole machine (/proc/stat), so a reader sees which of the three is the limit.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface WebhookThroughput {
  deliveries: number;
  seconds: number;
  perSecond: number;
  /** CPU time of the engine's process (user + system) per delivery: steadier than the rate on a shared machine. */
  engineCpuUsPerDelivery: number;
  /** CPU per delivery of the receiver's process, of Postgres's processes, and of the whole machine (all cores, every process). */
  receiverCpuUsPerDelivery: number;
  postgresCpuUsPerDelivery: number;
  machineCpuUsPerDelivery: number;
  /** Deliveries sent before the measured ones, not timed. */
  warmup: number;
  /** What the receiver process counted (warm-up included). */
  receiver: { received: number; distinct: number; duplicates: number; badSignatures: number; missingId: number };
  /** 1-minute load average before and after, and the core count: this machine is shared. */
  load: { before: number; after: number; cores: number };
}

/** Clock ticks of /proc (USER_HZ, 100 on Linux) in µs. */
const TICK_US = 10_000;

/** CPU time the whole machine spent working, all cores (user, nice, system, irq, softirq; not idle, I/O wait or steal), µs; 0 off Linux. */
function machineCpuUs(): number {
  try {
    const f = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    return (f[0]! + f[1]! + f[2]! + f[5]! + f[6]!) * TICK_US;
  } catch {
    return 0;
  }
}

/** CPU time (user + system) of every process named postgres on this machine, µs; 0 off Linux or with a remote database. */
function postgresCpuUs(): number {
  let ticks = 0;
  let pids: string[] = [];
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (!stat.includes(" (postgres) ")) continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from the 3rd: utime is the 14th
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended between the listing and the read
    }
  }
  return ticks * TICK_US;
}

function startReceiver(secret: string): Promise<{ child: ChildProcess; port: number }> {
  const root = path.resolve(import.meta.dirname, "../..");
  const child = spawn(
    process.execPath,
    [path.join(root, "node_modules/tsx/dist/cli.mjs"), path.join(root, "scripts/bench/webhook-receiver.ts")],
    {
      cwd: root,
      env: { ...process.env, BENCH_WEBHOOK_SECRET: secret },
      stdio: ["ignore", "pipe", "inherit", "ipc"],
    },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve({ child, port: (JSON.parse(line) as { port: number }).port });
    });
    child.on("exit", (code) => reject(new Error(`webhook receiver exited (${code})`)));
  });
}

const ask = (child: ChildProcess) =>
  new Promise<WebhookThroughput["receiver"] & { cpuUs: number }>((resolve) => {
    child.once("message", (m) => resolve(m as WebhookThroughput["receiver"] & { cpuUs: number }));
    child.send("report");
  });

/**
 * BENCH_CPU_PROF=<dir>: the sweeps (and nothing before or after them: not the 10 000 inserts) run under
 * the inspector's CPU profiler, written to <dir>/webhooks-<time>.cpuprofile for
 * scripts/bench/cpu-profile-summary.ts or Chrome DevTools. Returns the function that stops and writes it.
 */
async function startProfiler(): Promise<(() => Promise<void>) | null> {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return null;
  const { Session } = await import("node:inspector/promises");
  const { mkdirSync, writeFileSync } = await import("node:fs");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return async () => {
    const { profile } = await session.post("Profiler.stop");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `webhooks-${Date.now()}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    console.log(`CPU profile of the sweeps: ${file}`);
  };
}

export async function measureWebhookThroughput(count: number): Promise<WebhookThroughput> {
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  const { reloadEnv } = await import("@/lib/env");
  reloadEnv();
  const { db } = await import("@/lib/db");
  const { ulid } = await import("@/lib/ids");
  const { encryptSecret } = await import("@/lib/webhooks/secret-box");
  const { generateWebhookSecret } = await import("@/lib/webhooks/sign");
  const { sweepWebhooks } = await import("@/lib/webhooks/sweep");
  const secret = generateWebhookSecret();
  const { child, port } = await startReceiver(secret);
  try {
    const account = await db().account.create({ data: { id: `acc_bench_wh_${ulid()}`, name: "bench webhooks" } });
    const endpoint = await db().webhookEndpoint.create({
      data: { id: ulid(), accountId: account.id, url: `http://127.0.0.1:${port}/hook`, secretEnc: encryptSecret(secret) },
    });
    const body = JSON.stringify({ event: "payment.confirmed", requestId: "01".padEnd(66, "a"), amount: "10" });
    const enqueue = (n: number) =>
      db().webhookDelivery.createMany({
        data: Array.from({ length: n }, () => ({ id: ulid(), endpointId: endpoint.id, eventType: "payment.confirmed", body })),
      });
    const sweepAll = async (n: number) => {
      for (let sent = 0; sent < n; ) {
        const r = await sweepWebhooks({ budgetMs: 600_000 });
        if (r.claimed === 0) break;
        sent += r.succeeded;
      }
    };
    const warmup = Math.max(0, Number(process.env.BENCH_WEBHOOK_WARMUP ?? 2000));
    await enqueue(warmup);
    await sweepAll(warmup);
    await enqueue(count);
    const loadBefore = os.loadavg()[0]!;
    const profiler = await startProfiler();
    const receiverCpu0 = (await ask(child)).cpuUs;
    const machine0 = machineCpuUs();
    const postgres0 = postgresCpuUs();
    const cpu0 = process.cpuUsage();
    const started = process.hrtime.bigint();
    await sweepAll(count);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = process.cpuUsage(cpu0);
    const postgresCpuUsPerDelivery = Math.round((postgresCpuUs() - postgres0) / count);
    const machineCpuUsPerDelivery = Math.round((machineCpuUs() - machine0) / count);
    await profiler?.();
    const engineCpuUsPerDelivery = Math.round((cpu.user + cpu.system) / count);
    const loadAfter = os.loadavg()[0]!;
    const { cpuUs: receiverCpu1, ...receiver } = await ask(child);
    const receiverCpuUsPerDelivery = Math.round((receiverCpu1 - receiverCpu0) / count);
    const where = { endpoint: { accountId: account.id } };
    const [ok, attempts] = await Promise.all([
      db().webhookDelivery.count({ where: { ...where, status: "succeeded", attempts: 1 } }),
      db().webhookAttempt.count({ where: { delivery: where } }),
    ]);
    const problems = [
      receiver.distinct !== count + warmup && `the receiver got ${receiver.distinct} distinct deliveries of ${count + warmup}`,
      receiver.duplicates > 0 && `${receiver.duplicates} deliveries arrived twice`,
      receiver.badSignatures > 0 && `${receiver.badSignatures} bad signatures`,
      ok !== count + warmup && `${ok} of ${count + warmup} deliveries recorded as succeeded at the first attempt`,
      attempts !== count + warmup && `${attempts} attempt rows for ${count + warmup} deliveries`,
    ].filter(Boolean);
    if (problems.length > 0) throw new Error(`webhook bench: ${problems.join("; ")}`);
    console.log(
      `Webhook receiver (own process): ${receiver.distinct} distinct deliveries, ${receiver.duplicates} twice, ${receiver.badSignatures} bad signatures; ` +
        `DB: ${ok} succeeded at attempt 1, ${attempts} attempt rows (${warmup} of them the unmeasured warm-up); load ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)} on ${os.cpus().length} cores`,
    );
    console.log(
      `CPU per measured delivery: engine ${engineCpuUsPerDelivery} µs (user ${Math.round(cpu.user / count)}, system ${Math.round(cpu.system / count)}), ` +
        `receiver ${receiverCpuUsPerDelivery} µs, Postgres ${postgresCpuUsPerDelivery} µs; whole machine ${machineCpuUsPerDelivery} µs`,
    );
    return {
      deliveries: count,
      seconds: Number(seconds.toFixed(3)),
      perSecond: Math.round(count / seconds),
      engineCpuUsPerDelivery,
      receiverCpuUsPerDelivery,
      postgresCpuUsPerDelivery,
      machineCpuUsPerDelivery,
      warmup,
      receiver,
      load: { before: loadBefore, after: loadAfter, cores: os.cpus().length },
    };
  } finally {
    child.send("stop");
  }
}
