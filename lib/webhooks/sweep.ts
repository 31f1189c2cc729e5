import { now as clockNow } from "@/lib/clock";
import { type DeliverOptions, type DeliverResult, deliverDue } from "@/lib/webhooks/deliver";
import { fanOutEvents } from "@/lib/webhooks/fan-out";

export interface SweepResult extends DeliverResult {
  events: number;
  created: number;
}

/**
 * Fan-out then delivery, repeated while full batches keep coming and the time budget lasts
 * (one batch per call would cap throughput at `limit` per worker interval). For the worker
 * loop and the cron route.
 */
export async function sweepWebhooks(opts: DeliverOptions & { budgetMs?: number } = {}): Promise<SweepResult> {
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
  const limit = opts.limit ?? 50;
  while (performance.now() < deadline) {
    const r = await deliverDue({ ...opts, limit, now: opts.now ?? clockNow() });
    total.claimed += r.claimed;
    total.succeeded += r.succeeded;
    total.retried += r.retried;
    total.failed += r.failed;
    if (r.claimed < limit) break;
  }
  return total;
}
