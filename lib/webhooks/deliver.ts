import { now as clockNow } from "@/lib/clock";
import { db, rawQuery } from "@/lib/db";
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
  /** Where the outcomes are written (default: a recorder of this batch's own); sweepWebhooks shares one among its lanes. */
  recorder?: OutcomeRecorder;
}

export interface DeliverResult {
  claimed: number;
  succeeded: number;
  retried: number;
  failed: number;
  /** Slowest HTTP exchange of the batch, ms (0 when nothing was sent): how the receivers are keeping up. */
  slowestMs?: number;
  /**
   * Exchanges that did not succeed (to be retried, or failed for good), counted as each ends, before
   * its outcome is written (succeeded/retried/failed count written outcomes): what the sweep's lanes adapt to.
   */
  unsuccessful?: number;
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
  leaseUntil: Date;
  status: "succeeded" | "pending" | "failed";
  nextAttemptAt: Date;
  startedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  error: string | null;
}

/**
 * Writes attempts and the deliveries' new state in ONE statement: the attempt rows and the state
 * change are atomic, and the state change is guarded by each row's own lease (value and attempt
 * count), so it changes nothing for a worker whose lease ran out and was taken over (its attempt
 * row is still inserted: the join below does not check the lease). The rows travel as one JSON
 * parameter (json_to_recordset): one native JSON.stringify instead of a dozen array parameters
 * that pg escapes element by element, the attempt's headers included as an object, not a string.
 */
async function writeOutcomes(batch: Outcome[]): Promise<number> {
  const rows = batch.map((o) => ({
    id: o.id,
    attempt_id: ulid(),
    prev: o.prev,
    lease_until: o.leaseUntil.toISOString(),
    status: o.status,
    next_at: o.nextAttemptAt.toISOString(),
    started_at: o.startedAt.toISOString(),
    latency: o.latencyMs,
    code: o.statusCode,
    error: o.error,
    req_headers: o.requestHeaders,
    res_body: o.responseBody,
    res_truncated: o.responseTruncated,
  }));
  const [result] = await rawQuery<{ changed: number }>(`SELECT "webhook_record_outcomes"($1::json, $2::timestamp) AS changed`, [
    JSON.stringify(rows),
    clockNow().toISOString(),
  ]);
  return result?.changed ?? 0;
}

/**
 * Group commit: outcomes that finish while a write is in flight go out together in the next
 * write, so a sweep costs a handful of statements instead of one per delivery, and an outcome
 * waits at most one write before it is durable. One recorder serves all the lanes of a sweep
 * (each outcome carries its own batch's lease): with one writer instead of one per lane, each
 * statement carries the outcomes of every lane, and there are fewer of them.
 */
export function outcomeRecorder() {
  interface Queued {
    outcome: Outcome;
    result: DeliverResult;
    written: () => void;
  }
  let queue: Queued[] = [];
  let writing = false;
  const write = async (batch: Queued[], outage = 0): Promise<void> => {
    try {
      if ((await writeOutcomes(batch.map((q) => q.outcome))) < batch.length)
        log.warn("webhook lease lost before recording", { ids: batch.map((q) => q.outcome.id) });
      for (const { outcome, result, written } of batch) {
        result[outcome.status === "pending" ? "retried" : outcome.status]++;
        written();
      }
    } catch (err) {
      // The database is down (a restart): these were delivered, so keep the outcomes and write them
      // when it is back, while the (earliest) lease holds, rather than let the lease run out and send them again.
      const wait = Math.min(5_000, 200 * 2 ** outage);
      const leaseEnd = Math.min(...batch.map((q) => q.outcome.leaseUntil.getTime()));
      if (dependencyFault(err) === "database" && Date.now() + wait < leaseEnd - RECORD_MARGIN_MS) {
        if (outage === 0) log.warn("webhook outcomes wait for the database", { deliveries: batch.length, err });
        await new Promise((r) => setTimeout(r, wait));
        return write(batch, outage + 1);
      }
      // One bad row must not sink the others: retry one by one. Unwritten outcomes keep their
      // lease, which runs out, and the delivery is sent again (at-least-once).
      if (batch.length > 1) for (const q of batch) await write([q]);
      else {
        log.error("webhook outcome not recorded", { deliveryId: batch[0]?.outcome.id, err });
        batch[0]?.written();
      }
    }
  };
  const loop = async () => {
    writing = true;
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      await write(batch);
    }
    writing = false;
  };
  return {
    /** Queues one outcome; resolves once it is written (or given up on: its lease runs out and it is sent again). */
    add(outcome: Outcome, result: DeliverResult): Promise<void> {
      const done = new Promise<void>((written) => queue.push({ outcome, result, written }));
      if (!writing) void loop();
      return done;
    },
  };
}
export type OutcomeRecorder = ReturnType<typeof outcomeRecorder>;

/** Leases due deliveries, sends them and records the outcome of each; resolves once every outcome is written. */
export async function deliverDue(opts: DeliverOptions = {}): Promise<DeliverResult> {
  const { result, written } = await sendDue(opts);
  await written;
  return result;
}

/**
 * deliverDue in two steps: resolves once every delivery of the batch has been sent (its exchange
 * ended), with `written` resolving once every outcome is written — so a sweep lane can claim and send
 * its next batch while this one's outcomes are being written (sweep.ts). Until `written` resolves,
 * `result`'s succeeded/retried/failed are still counting; `slowestMs` and `unsuccessful` are final.
 * Nothing is less safe for it: an outcome not yet written is covered by its lease, as during any write.
 */
export async function sendDue(opts: DeliverOptions = {}): Promise<{ result: DeliverResult; written: Promise<void> }> {
  const { limit = 50, now = clockNow() } = opts;
  const resolve = opts.resolve ?? webhookResolver();
  const allowPrivate = opts.allowPrivate ?? env().WEBHOOK_ALLOW_PRIVATE;
  const timeoutMs = opts.timeoutMs ?? env().WEBHOOK_TIMEOUT_MS;
  const service = env().SERVICE_NAME;
  const referenceHeaders = env().WEBHOOK_REFERENCE_HEADERS;
  // The batch is sent `concurrency` at a time, so the last delivery may start only after
  // ceil(limit / concurrency) - 1 full timeouts: the lease covers every round, or a slow endpoint
  // would let another worker claim (and send again) deliveries this one has not reached yet.
  const concurrency = Math.max(1, opts.concurrency ?? CONCURRENCY);
  const rounds = Math.max(1, Math.ceil(limit / concurrency));
  const leaseUntil = new Date(now.getTime() + rounds * timeoutMs + LEASE_MARGIN_MS);
  const claimed = await rawQuery<ClaimedRow>(`SELECT * FROM "webhook_claim_due"($1::timestamp, $2::timestamp, $3::int, $4::timestamp)`, [
    now.toISOString(),
    leaseUntil.toISOString(),
    limit,
    clockNow().toISOString(),
  ]);
  const result: DeliverResult = { claimed: claimed.length, succeeded: 0, retried: 0, failed: 0, slowestMs: 0, unsuccessful: 0 };
  const record = opts.recorder ?? outcomeRecorder();
  const recorded: Promise<void>[] = [];
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
        referenceHeaders,
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
    const row: Outcome = {
      id: d.id,
      prev: d.attempts,
      leaseUntil,
      status,
      nextAttemptAt,
      startedAt,
      statusCode: outcome.statusCode,
      latencyMs: outcome.latencyMs,
      error: outcome.error?.slice(0, 500) ?? null,
      ...attemptExchange(headers, outcome.responseBytes, secret),
    };
    if (status !== "succeeded") result.unsuccessful = (result.unsuccessful ?? 0) + 1;
    recorded.push(record.add(row, result));
  }).catch(async (err) => {
    await Promise.all(recorded); // what was sent is written before the error goes up
    throw err;
  });
  return { result, written: Promise.all(recorded).then(() => undefined) };
}
