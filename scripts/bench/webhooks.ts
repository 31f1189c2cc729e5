/**
 * Webhook delivery throughput, part of `npm run bench` (alone: `npm run bench -- webhooks`): N pending
 * deliveries to one local endpoint, sent by the real engine as the worker runs it (sweepWebhooks, its
 * default batch size and delivery lanes) against the bench DB. The receiver runs in ANOTHER process
 * (scripts/bench/webhook-receiver.ts), so its HTTP parsing does not eat the engine's event loop; it
 * verifies every signature and counts delivery IDs. The run fails unless the receiver got every
 * delivery exactly once with a valid signature and the database shows every delivery succeeded at
 * its first attempt with one attempt row each: nothing lost, nothing doubled. The time is from the
 * first claim to the last recorded outcome (the outcomes are durable when it stops).
 */
import { type ChildProcess, spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";

export interface WebhookThroughput {
  deliveries: number;
  seconds: number;
  perSecond: number;
  /** CPU time of the engine's process (user + system) per delivery: steadier than the rate on a shared machine. */
  engineCpuUsPerDelivery: number;
  /** What the receiver process counted. */
  receiver: { received: number; distinct: number; duplicates: number; badSignatures: number; missingId: number };
  /** 1-minute load average before and after, and the core count: this machine is shared. */
  load: { before: number; after: number; cores: number };
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
  new Promise<WebhookThroughput["receiver"]>((resolve) => {
    child.once("message", (m) => resolve(m as WebhookThroughput["receiver"]));
    child.send("report");
  });

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
    await db().webhookDelivery.createMany({
      data: Array.from({ length: count }, () => ({ id: ulid(), endpointId: endpoint.id, eventType: "payment.confirmed", body })),
    });
    const loadBefore = os.loadavg()[0]!;
    const cpu0 = process.cpuUsage();
    const started = process.hrtime.bigint();
    for (let sent = 0; sent < count; ) {
      const r = await sweepWebhooks({ budgetMs: 600_000 });
      if (r.claimed === 0) break;
      sent += r.succeeded;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = process.cpuUsage(cpu0);
    const engineCpuUsPerDelivery = Math.round((cpu.user + cpu.system) / count);
    const loadAfter = os.loadavg()[0]!;
    const receiver = await ask(child);
    const where = { endpoint: { accountId: account.id } };
    const [ok, attempts] = await Promise.all([
      db().webhookDelivery.count({ where: { ...where, status: "succeeded", attempts: 1 } }),
      db().webhookAttempt.count({ where: { delivery: where } }),
    ]);
    const problems = [
      receiver.distinct !== count && `the receiver got ${receiver.distinct} distinct deliveries of ${count}`,
      receiver.duplicates > 0 && `${receiver.duplicates} deliveries arrived twice`,
      receiver.badSignatures > 0 && `${receiver.badSignatures} bad signatures`,
      ok !== count && `${ok} of ${count} deliveries recorded as succeeded at the first attempt`,
      attempts !== count && `${attempts} attempt rows for ${count} deliveries`,
    ].filter(Boolean);
    if (problems.length > 0) throw new Error(`webhook bench: ${problems.join("; ")}`);
    console.log(
      `Webhook receiver (own process): ${receiver.distinct} distinct deliveries, ${receiver.duplicates} twice, ${receiver.badSignatures} bad signatures; ` +
        `DB: ${ok} succeeded at attempt 1, ${attempts} attempt rows; engine CPU ${engineCpuUsPerDelivery} µs per delivery; load ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)} on ${os.cpus().length} cores`,
    );
    return {
      deliveries: count,
      seconds: Number(seconds.toFixed(3)),
      perSecond: Math.round(count / seconds),
      engineCpuUsPerDelivery,
      receiver,
      load: { before: loadBefore, after: loadAfter, cores: os.cpus().length },
    };
  } finally {
    child.send("stop");
  }
}
