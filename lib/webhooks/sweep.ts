import { now as clockNow } from "@/lib/clock";
import { env } from "@/lib/env";
import { type DeliverOptions, type DeliverResult, deliverDue, outcomeRecorder, sendDue } from "@/lib/webhooks/deliver";
import { fanOutEvents } from "@/lib/webhooks/fan-out";

export interface SweepResult extends DeliverResult {
  events: number;
  created: number;
}

/**
 * Delivery loops one sweep runs side by side. Each claims its own batches (FOR UPDATE SKIP LOCKED,
 * as separate workers do), so while one waits on the database (its claim, its outcome writes) another
 * is sending: a single loop idles at every batch boundary. A sweep starts with DELIVERY_LANES (20 in
 * flight) and adds a lane after every full batch whose slowest exchange took under FAST_BATCH_MS, up
 * to MAX_DELIVERY_LANES (60 in flight); a batch with a failed or retried delivery, or an exchange
 * slower than a quarter of WEBHOOK_TIMEOUT_MS, halves the lanes (the extra ones stop after their
 * batch). So receivers that answer at once get the throughput, and a slow receiver — which answers
 * one request after another, so that everything beyond what it can answer within the timeout times out
 * and is sent again (measured: a fixed 60 in flight against e2e/scale-out's receiver, which takes tens
 * of ms per request, sent 40 of 104 twice) — never sees more than the starting 20. Every batch's lease
 * still covers its own rounds of the timeout (deliver.ts), whatever the number of lanes.
 */
export const DELIVERY_LANES = 2;
export const MAX_DELIVERY_LANES = 6;
/** A full batch whose slowest HTTP exchange took less than this lets the sweep add a lane. */
export const FAST_BATCH_MS = 250;
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
  const tally = (r: DeliverResult) => {
    total.claimed += r.claimed;
    total.succeeded += r.succeeded;
    total.retried += r.retried;
    total.failed += r.failed;
  };
  // One writer for every lane: outcomes of all lanes share each write (deliver.ts, outcomeRecorder).
  const recorder = opts.recorder ?? outcomeRecorder();
  const batch = async () => {
    const r = await deliverDue({ ...opts, limit, concurrency, recorder, now: opts.now ?? clockNow() });
    tally(r);
    return r.claimed === limit; // a full batch: there may be more
  };
  // One batch first: the usual sweep finds less than a batch and ends there, with one claim.
  if (!(await batch())) return total;
  const slowMs = (opts.timeoutMs ?? env().WEBHOOK_TIMEOUT_MS) / 4;
  const maxLanes = Math.max(1, opts.lanes ?? MAX_DELIVERY_LANES);
  let target = Math.min(maxLanes, DELIVERY_LANES);
  let running = 0;
  let dry = false;
  const lanes: Promise<void>[] = [];
  // A lane that fails (the database is down) stops the others at their next batch, not in the middle of
  // one; its error is kept and thrown once all have ended (a lane's promise never rejects on its own).
  let failure: unknown = null;
  const startLane = () =>
    lanes.push(
      lane().catch((err: unknown) => {
        failure ??= err;
        dry = true;
      }),
    );
  // A lane sends its next batch while the previous one's outcomes are being written (sendDue), and
  // waits for them before it claims the one after: at most two batches per lane between claim and
  // written, and the write's round trip no longer stalls the lane.
  const lane = async () => {
    running += 1;
    let writing: Promise<void> = Promise.resolve();
    let unwritten: DeliverResult | null = null;
    try {
      while (!dry && running <= target && performance.now() < deadline) {
        const { result: r, written } = await sendDue({ ...opts, limit, concurrency, recorder, now: opts.now ?? clockNow() });
        await writing;
        if (unwritten) tally(unwritten);
        writing = written;
        unwritten = r;
        if (r.claimed < limit) dry = true;
        // Failed or retried exchanges, or a slow one, halve the lanes (an inactive endpoint is not the receiver's pace: it does not).
        else if ((r.unsuccessful ?? 0) > 0 || (r.slowestMs ?? 0) >= slowMs) target = Math.max(1, Math.floor(target / 2));
        else if ((r.slowestMs ?? 0) < FAST_BATCH_MS && target < maxLanes) {
          target += 1;
          startLane();
        }
      }
    } finally {
      await writing;
      if (unwritten) tally(unwritten);
      running -= 1;
    }
  };
  for (let i = 0; i < target; i++) startLane();
  // Every lane ends (its sends done, its outcomes written) before the sweep returns or fails.
  for (let i = 0; i < lanes.length; i++) await lanes[i];
  if (failure !== null) throw failure;
  return total;
}
