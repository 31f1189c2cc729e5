import { now as clockNow } from "@/lib/clock";
import { type DeliverOptions, type DeliverResult, deliverDue } from "@/lib/webhooks/deliver";
import { fanOutEvents } from "@/lib/webhooks/fan-out";

export interface SweepResult extends DeliverResult {
  events: number;
  created: number;
}

/**
 * Delivery loops one sweep runs side by side. Each claims its own batches (FOR UPDATE SKIP LOCKED,
 * as separate workers do), so while one waits on the database (its claim, its outcome writes) another
 * is sending: a single loop idles at every batch boundary. In flight per sweep: LANES × BATCH_CONCURRENCY
 * (20). Kept low on purpose: a slow receiver answers requests one after another, and every request
 * beyond what it can answer within WEBHOOK_TIMEOUT_MS times out and is sent again (measured: 60 in
 * flight against e2e/scale-out's receiver, which takes tens of ms per request, sent 40 of 104 twice).
 */
export const DELIVERY_LANES = 2;
/** A batch: 50 deliveries claimed in one statement, 10 in flight (the lease covers 5 rounds of the timeout). */
export const BATCH_LIMIT = 50;
export const BATCH_CONCURRENCY = 10;

/**
 * Fan-out then delivery, repeated while full batches keep coming and the time budget lasts
 * (one batch per call would cap throughput at `limit` per worker interval). For the worker
 * loop and the cron route.
 */
export async function sweepWebhooks(opts: DeliverOptions & { budgetMs?: number; lanes?: number } = {}): Promise<SweepResult> {
  // The time budget is real elapsed time, whatever clock the sweep is told it is.
  const deadline = performance.now() + (opts.budgetMs ?? 20_000);
  const total: SweepResult = { events: 0, created: 0, claimed: 0, succeeded: 0, retried: 0, failed: 0 };
  const fanLimit = 100;
  for (;;) {
    const f = await fanOutEvents(fanLimit, opts.now ?? clockNow());
    total.events += f.events;
    total.created += f.deliveries;
    if (f.events < fanLimit || performance.now() >= deadline) break;
  }
  const limit = opts.limit ?? BATCH_LIMIT;
  const concurrency = opts.concurrency ?? BATCH_CONCURRENCY;
  const batch = async () => {
    const r = await deliverDue({ ...opts, limit, concurrency, now: opts.now ?? clockNow() });
    total.claimed += r.claimed;
    total.succeeded += r.succeeded;
    total.retried += r.retried;
    total.failed += r.failed;
    return r.claimed === limit; // a full batch: there may be more
  };
  // One batch first: the usual sweep finds less than a batch and ends there, with one claim.
  if (!(await batch())) return total;
  const lane = async () => {
    while (performance.now() < deadline && (await batch()));
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.lanes ?? DELIVERY_LANES) }, lane));
  return total;
}
