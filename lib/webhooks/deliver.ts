import { now as clockNow } from "@/lib/clock";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { dependencyFault } from "@/lib/faults";
import { ulid } from "@/lib/ids";
import { log } from "@/lib/log";
import { type PostResult, postWebhook, type Resolver } from "@/lib/webhooks/http-post";
import { type AttemptExchange, attemptExchange } from "@/lib/webhooks/redact";
import { webhookResolver } from "@/lib/webhooks/resolver";
import { decryptSecret } from "@/lib/webhooks/secret-box";
import { deliveryHeaders } from "@/lib/webhooks/sign";

/**
 * Webhook delivery engine (at-least-once, no ordering):
 * 1. fanOutEvents turns outbox events into one WebhookDelivery per matching active endpoint.
 * 2. deliverDue leases due deliveries, POSTs them and records every attempt.
 * Every step claims rows with FOR UPDATE SKIP LOCKED, so any number of workers and cron calls
 * can run at once; a worker that dies mid-sweep only leaves a lease that runs out, after which
 * another sweep sends the same delivery (same ID) again.
 */

/** Wait after failed attempt n (1-based). The 11th attempt (the 10th retry) is the last. */
export const RETRY_DELAYS_MS = [1_000, 5_000, 15_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** A lease outlives the HTTP deadline by this much, so it never expires under a live attempt. */
const LEASE_MARGIN_MS = 30_000;
/** Deliveries of one batch in flight at once (deliverDue's `concurrency`). */
export const CONCURRENCY = 10;
/** Outcome writes retried through a database outage stop this long before the lease ends. */
const RECORD_MARGIN_MS = 5_000;

export interface DeliverOptions {
  limit?: number;
  now?: Date;
  resolve?: Resolver;
  allowPrivate?: boolean;
  timeoutMs?: number;
  /** Deliveries of the batch in flight at once (default CONCURRENCY). */
  concurrency?: number;
}

export interface DeliverResult {
  claimed: number;
  succeeded: number;
  retried: number;
  failed: number;
  /** Slowest HTTP exchange of the batch, ms (0 when nothing was sent): how the receivers are keeping up. */
  slowestMs?: number;
}

interface ClaimedRow {
  id: string;
  body: string;
  attempts: number;
  isTest: boolean;
  endpointId: string;
  url: string;
  secretEnc: string;
  active: boolean;
}

/** Runs `fn` over `items`, at most `n` at a time. */
async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  });
  await Promise.all(lanes);
}

interface Outcome extends AttemptExchange {
  id: string;
  /** Attempts before this one: with the lease value, proves this worker still owns the row. */
  prev: number;
  status: "succeeded" | "pending" | "failed";
  nextAttemptAt: Date;
  startedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  error: string | null;
}

/**
 * Writes attempts and the deliveries' new state in ONE statement per batch: the attempt rows
 * and the state change are atomic, and a write guarded by the lease (value and attempt count)
 * is a no-op for a worker whose lease ran out and was taken over.
 */
async function writeOutcomes(batch: Outcome[], leaseUntil: Date): Promise<number> {
  const col = <K extends keyof Outcome>(k: K) => batch.map((o) => o[k]);
  const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
  const headers = batch.map((o) => (o.requestHeaders ? JSON.stringify(o.requestHeaders) : null));
  return db().$executeRaw`
    WITH r AS (
      SELECT * FROM unnest(${col("id")}::text[], ${batch.map(() => ulid())}::text[], ${col("prev")}::int[], ${col("status")}::text[],
        ${iso(col("nextAttemptAt"))}::timestamp[], ${iso(col("startedAt"))}::timestamp[], ${col("latencyMs")}::int[],
        ${col("statusCode")}::int[], ${col("error")}::text[], ${headers}::text[], ${col("responseBody")}::text[],
        ${col("responseTruncated")}::boolean[])
        AS r(id, attempt_id, prev, status, next_at, started_at, latency, code, error, req_headers, res_body, res_truncated)
    ), ins AS (
      INSERT INTO "WebhookAttempt" (id, "deliveryId", attempt, "startedAt", "latencyMs", "statusCode", error,
        "requestHeaders", "responseBody", "responseTruncated")
      SELECT r.attempt_id, r.id, r.prev + 1, r.started_at, r.latency, r.code, r.error, r.req_headers::jsonb, r.res_body, r.res_truncated
      FROM r JOIN "WebhookDelivery" d ON d.id = r.id)
    UPDATE "WebhookDelivery" d
    SET status = r.status::"DeliveryStatus", attempts = r.prev + 1, "nextAttemptAt" = r.next_at, "leaseUntil" = NULL,
        "lastStatus" = r.code, "lastError" = r.error, "updatedAt" = ${clockNow()}
    FROM r WHERE d.id = r.id AND d."leaseUntil" = ${leaseUntil} AND d.attempts = r.prev`;
}

/**
 * Group commit: outcomes that finish while a write is in flight go out together in the next
 * write, so a sweep costs a handful of statements instead of one per delivery, and an outcome
 * waits at most one write before it is durable.
 */
function recorder(leaseUntil: Date, result: DeliverResult) {
  let queue: Outcome[] = [];
  let flushing: Promise<void> | null = null;
  const tally = (batch: Outcome[]) => {
    for (const o of batch) result[o.status === "pending" ? "retried" : o.status]++;
  };
  const write = async (batch: Outcome[], outage = 0): Promise<void> => {
    try {
      if ((await writeOutcomes(batch, leaseUntil)) < batch.length)
        log.warn("webhook lease lost before recording", { ids: batch.map((o) => o.id) });
      tally(batch);
    } catch (err) {
      // The database is down (a restart): these were delivered, so keep the outcomes and write them
      // when it is back, while the lease holds, rather than let the lease run out and send them again.
      const wait = Math.min(5_000, 200 * 2 ** outage);
      if (dependencyFault(err) === "database" && Date.now() + wait < leaseUntil.getTime() - RECORD_MARGIN_MS) {
        if (outage === 0) log.warn("webhook outcomes wait for the database", { deliveries: batch.length, err });
        await new Promise((r) => setTimeout(r, wait));
        return write(batch, outage + 1);
      }
      // One bad row must not sink the others: retry one by one. Unwritten outcomes keep their
      // lease, which runs out, and the delivery is sent again (at-least-once).
      if (batch.length > 1) for (const o of batch) await write([o]);
      else log.error("webhook outcome not recorded", { deliveryId: batch[0]?.id, err });
    }
  };
  const loop = async () => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      await write(batch);
    }
    flushing = null;
  };
  return {
    add(o: Outcome) {
      queue.push(o);
      flushing ??= loop();
    },
    async drain() {
      while (flushing) await flushing;
    },
  };
}

/** Leases due deliveries, sends them and records the outcome of each. */
export async function deliverDue(opts: DeliverOptions = {}): Promise<DeliverResult> {
  const { limit = 50, now = clockNow() } = opts;
  const resolve = opts.resolve ?? webhookResolver();
  const allowPrivate = opts.allowPrivate ?? env().WEBHOOK_ALLOW_PRIVATE;
  const timeoutMs = opts.timeoutMs ?? env().WEBHOOK_TIMEOUT_MS;
  const service = env().SERVICE_NAME;
  // The batch is sent `concurrency` at a time, so the last delivery may start only after
  // ceil(limit / concurrency) - 1 full timeouts: the lease covers every round, or a slow endpoint
  // would let another worker claim (and send again) deliveries this one has not reached yet.
  const concurrency = Math.max(1, opts.concurrency ?? CONCURRENCY);
  const rounds = Math.max(1, Math.ceil(limit / concurrency));
  const leaseUntil = new Date(now.getTime() + rounds * timeoutMs + LEASE_MARGIN_MS);
  const claimed = await db().$queryRaw<ClaimedRow[]>`
    WITH claimed AS (
      UPDATE "WebhookDelivery" SET "leaseUntil" = ${leaseUntil}, "updatedAt" = ${clockNow()}
      WHERE id IN (
        SELECT id FROM "WebhookDelivery"
        WHERE status = 'pending' AND "nextAttemptAt" <= ${now} AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})
        ORDER BY "nextAttemptAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING id, body, attempts, "isTest", "endpointId")
    SELECT c.id, c.body, c.attempts, c."isTest", c."endpointId", e.url, e."secretEnc", e.active
    FROM claimed c JOIN "WebhookEndpoint" e ON e.id = c."endpointId"`;
  const result: DeliverResult = { claimed: claimed.length, succeeded: 0, retried: 0, failed: 0 };
  const record = recorder(leaseUntil, result);
  const secrets = new Map<string, string>();

  await pool(claimed, concurrency, async (d) => {
    if (!d.active) {
      try {
        const data = { status: "failed" as const, lastError: "endpoint inactive", leaseUntil: null };
        result.failed += (await db().webhookDelivery.updateMany({ where: { id: d.id, leaseUntil, attempts: d.attempts }, data })).count;
      } catch (err) {
        log.error("webhook delivery not updated", { deliveryId: d.id, err }); // the lease runs out; retried then
      }
      return;
    }
    const startedAt = clockNow();
    const t0 = performance.now();
    let outcome: PostResult;
    let secret: string | null = null;
    let headers: Record<string, string> | null = null;
    try {
      secret = secrets.get(d.endpointId) ?? decryptSecret(d.secretEnc);
      secrets.set(d.endpointId, secret);
      const bytes = Buffer.from(d.body, "utf8");
      headers = deliveryHeaders({
        service,
        secret,
        body: bytes,
        deliveryId: d.id,
        retryCount: d.attempts,
        isTest: d.isTest,
        at: startedAt,
        referenceHeaders: env().WEBHOOK_REFERENCE_HEADERS,
      });
      outcome = await postWebhook({ url: d.url, body: bytes, headers, timeoutMs, allowPrivate, resolve });
    } catch (err) {
      // e.g. the secret cannot be decrypted (APP_SECRET changed): a failed attempt, retried later.
      outcome = {
        statusCode: null,
        latencyMs: Math.round(performance.now() - t0),
        error: err instanceof Error ? err.message : String(err),
      };
    }
    result.slowestMs = Math.max(result.slowestMs ?? 0, outcome.latencyMs);
    const delay = RETRY_DELAYS_MS[d.attempts];
    const status = outcome.error === null ? "succeeded" : delay === undefined ? "failed" : "pending";
    const nextAttemptAt = status === "pending" && delay !== undefined ? new Date(now.getTime() + delay) : now;
    record.add({
      id: d.id,
      prev: d.attempts,
      status,
      nextAttemptAt,
      startedAt,
      statusCode: outcome.statusCode,
      latencyMs: outcome.latencyMs,
      error: outcome.error?.slice(0, 500) ?? null,
      ...attemptExchange(headers, outcome.responseBytes, secret),
    });
  }).finally(() => record.drain());
  return result;
}
