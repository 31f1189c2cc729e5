/**
 * Cost curve `webhooks` (`npm run bench -- scale webhooks`, issue 33 item 4): webhook fan-out time,
 * one outbox event → N deliveries enqueued, with 10, 1 000 and 10 000 active endpoints on the event's
 * account. Seeded in bulk with SQL (INSERT … SELECT generate_series, not the API) on its own database,
 * BENCH_SCALE_WEBHOOKS_DATABASE_URL (default duebill_bench_scale_webhooks), dropped and migrated first.
 * The measured call is the real fanOutEvents (lib/webhooks/fan-out.ts: one INSERT … SELECT statement),
 * repeated per size on a fresh event with the deliveries table emptied in between; the median is
 * printed. Each run checks that exactly N deliveries exist, one per endpoint, with distinct IDs.
 * Enqueueing only: sending them is the throughput case (`npm run bench -- webhooks`).
 */
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { type Curve, type CurvePoint, medianOf } from "../curve";

const DB_URL = process.env.BENCH_SCALE_WEBHOOKS_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/duebill_bench_scale_webhooks";
const SIZES = (process.env.BENCH_SCALE_WEBHOOKS_SIZES ?? "10,1000,10000").split(",").map(Number);
const REPEATS = Number(process.env.BENCH_SCALE_WEBHOOKS_REPEATS ?? 5);
const root = path.resolve(import.meta.dirname, "../../..");

async function freshDatabase(): Promise<void> {
  const url = new URL(DB_URL);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
  await c.query(`CREATE DATABASE "${url.pathname.slice(1)}"`);
  await c.end();
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: DB_URL },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (r.status !== 0) throw new Error("prisma migrate deploy failed on the webhooks scale database");
}

async function measure(): Promise<{ name: string; points: CurvePoint[] }> {
  await freshDatabase();
  const previousUrl = process.env.DATABASE_URL;
  const { disconnectDb } = await import("@/lib/db");
  const { reloadEnv } = await import("@/lib/env");
  await disconnectDb();
  process.env.DATABASE_URL = DB_URL;
  reloadEnv();
  const { fanOutEvents } = await import("@/lib/webhooks/fan-out");
  const { encryptSecret } = await import("@/lib/webhooks/secret-box");
  const { generateWebhookSecret } = await import("@/lib/webhooks/sign");
  const sql = new pg.Client({ connectionString: DB_URL });
  await sql.connect();
  try {
    const secretEnc = encryptSecret(generateWebhookSecret());
    await fanOutEvents(100); // warm-up: the pool's first connection, the client's first query (no events yet)
    const points: CurvePoint[] = [];
    for (const n of SIZES) {
      const account = `acc_scale_wh_${n}`;
      await sql.query(`INSERT INTO "Account" (id, name, "updatedAt") VALUES ($1, $2, now())`, [account, `scale webhooks ${n}`]);
      // N active, account-wide integrator endpoints (the worst case: every one matches every event).
      await sql.query(
        `INSERT INTO "WebhookEndpoint" (id, "accountId", url, "secretEnc", "updatedAt")
         SELECT $1 || lpad(i::text, 8, '0'), $2, 'https://hooks.example.com/' || i, $3, now() FROM generate_series(1, $4) i`,
        [`ep_${n}_`, account, secretEnc, n],
      );
      await sql.query("ANALYZE");
      const times: number[] = [];
      for (let rep = 0; rep < REPEATS; rep++) {
        await sql.query(`TRUNCATE "WebhookDelivery" CASCADE`);
        const eventId = `ev_${n}_${rep}`;
        await sql.query(
          `INSERT INTO "OutboxEvent" (id, "accountId", type, "dedupeKey", payload) VALUES ($1, $2, 'payment.confirmed', $1, $3)`,
          [eventId, account, JSON.stringify({ event: "payment.confirmed", requestId: `01${"ab".repeat(32)}`, amount: "10" })],
        );
        const t0 = performance.now();
        const r = await fanOutEvents(100);
        times.push(performance.now() - t0);
        const check = await sql.query<{ n: string; ids: string; eps: string }>(
          `SELECT count(*) AS n, count(DISTINCT id) AS ids, count(DISTINCT "endpointId") AS eps FROM "WebhookDelivery" WHERE "eventId" = $1`,
          [eventId],
        );
        const c = check.rows[0]!;
        if (r.events !== 1 || r.deliveries !== n || Number(c.n) !== n || Number(c.ids) !== n || Number(c.eps) !== n)
          throw new Error(`fan-out to ${n} endpoints: ${JSON.stringify({ r, check: c })}`);
      }
      const ms = medianOf(times);
      points.push({
        work: `1 event → ${n.toLocaleString("en-US")} endpoints`,
        size: n,
        ms,
        extra: { deliveries: n, "µs/delivery": ((ms * 1000) / n).toFixed(1), load: os.loadavg()[0]!.toFixed(1) },
      });
    }
    return { name: `Webhook fan-out: one event → N deliveries enqueued (median of ${REPEATS}; one INSERT … SELECT)`, points };
  } finally {
    await sql.end();
    await disconnectDb();
    if (previousUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previousUrl;
    reloadEnv();
  }
}

export default { key: "webhooks", measure } satisfies Curve;
