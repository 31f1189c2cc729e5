import { syncOpenCommercePayments } from "@/lib/commerce/sync";
import { sweepDeposits } from "@/lib/deposits/sweep";
import { followNewBlocks } from "@/lib/detection/follow";
import { sweepDetection } from "@/lib/detection/sweep";
import { env } from "@/lib/env";
import { sweepExpiry } from "@/lib/jobs/expire";
import { log } from "@/lib/log";
import { sweepMail } from "@/lib/mail/sweep";
import { runRecurringJobs } from "@/lib/recurring/run";
import { recoverRelayed } from "@/lib/relayer/relay";
import { foldStatusCounts } from "@/lib/requests/status-counts";
import { sweepWebhooks } from "@/lib/webhooks/sweep";

/**
 * The background loop: runs each sweep, then waits its interval before the next run (never
 * overlapping itself). Started in the web process when WORKER_INLINE=true, or on its own by
 * `npm run worker`. Several loops on several instances are safe: every sweep is idempotent.
 */
export interface Worker {
  stop(): Promise<void>;
}

interface Job {
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  /** Something that should run the job before its interval is out (a new block); returns its unsubscribe. */
  wakeOn?: (wake: () => void) => () => void;
}

export function startWorker(jobs: Job[] = defaultJobs()): Worker {
  let stopped = false;
  const running: Promise<void>[] = [];
  // Each sleeping loop's wake-up: stop() runs them, so a loop between runs ends at once (clearing its
  // timer alone would leave the loop waiting forever, and stop() with it).
  const sleepers = new Map<NodeJS.Timeout, () => void>();
  const unsubscribes: (() => void)[] = [];
  for (const job of jobs) {
    // A wake-up during a run is kept, so the next sleep ends at once: a block is never waited out.
    let woken = false;
    let wakeSleeper: (() => void) | undefined;
    if (job.wakeOn)
      unsubscribes.push(
        job.wakeOn(() => {
          woken = true;
          wakeSleeper?.();
        }),
      );
    const loop = async (): Promise<void> => {
      let failures = 0;
      while (!stopped) {
        try {
          await job.run();
          if (failures > 0) log.info("sweep recovered", { job: job.name, after: failures });
          failures = 0;
        } catch (err) {
          failures += 1;
          // Log the first failure of an outage and then every 10th, not one line per retry.
          if (failures === 1 || failures % 10 === 0) log.warn("sweep failed", { job: job.name, failures, err });
        }
        if (stopped) break;
        // Woken by a new block: run again at once, unless failing (then the backoff holds).
        if (woken && failures === 0) {
          woken = false;
          continue;
        }
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(t);
            sleepers.delete(t);
            wakeSleeper = undefined;
            resolve();
          };
          const t = setTimeout(done, backoffMs(job.intervalMs, failures));
          sleepers.set(t, resolve);
          if (failures === 0) wakeSleeper = done;
        });
        woken = false;
      }
    };
    running.push(loop());
  }
  log.info("worker started", { jobs: jobs.map((j) => j.name) });
  return {
    async stop() {
      stopped = true;
      for (const u of unsubscribes) u();
      for (const [t, wake] of sleepers) {
        clearTimeout(t);
        wake();
      }
      sleepers.clear();
      await Promise.allSettled(running);
    },
  };
}

/**
 * The wait before the next run: the job's interval, doubled per consecutive failure up to
 * MAX_BACKOFF_MS, so a database or RPC outage is not hammered by every job; the first success
 * returns to the interval. Sweeps resume from their stored state (detection from its cursor).
 */
export const MAX_BACKOFF_MS = 30_000;
export function backoffMs(intervalMs: number, failures: number): number {
  if (failures === 0) return intervalMs;
  return Math.max(intervalMs, Math.min(MAX_BACKOFF_MS, Math.max(intervalMs, 250) * 2 ** Math.min(failures - 1, 10)));
}

export function defaultJobs(): Job[] {
  return [
    // Runs on each new block (lib/detection/follow.ts), the interval as the floor.
    { name: "payment-detection", intervalMs: env().DETECTION_INTERVAL_MS, run: sweepDetection, wakeOn: followNewBlocks },
    { name: "webhook-delivery", intervalMs: env().WEBHOOK_INTERVAL_MS, run: () => sweepWebhooks() },
    { name: "expiry", intervalMs: 60_000, run: sweepExpiry },
    { name: "recurring", intervalMs: env().RECURRING_INTERVAL_MS, run: runRecurringJobs },
    { name: "deposits", intervalMs: env().DEPOSIT_INTERVAL_MS, run: sweepDeposits },
    // Receipts and payment notifications by email (lib/mail): plans and sends; without SMTP_URL it only marks events.
    { name: "mail", intervalMs: 5_000, run: () => sweepMail() },
    // Signed authorizations a crash left between signing and the receipt (lib/relayer): rebroadcast the same bytes or record the receipt.
    { name: "relayer-recovery", intervalMs: 30_000, run: () => recoverRelayed() },
    // Commerce escrows (lib/commerce): what payers and operator wallets did on chain becomes states and webhooks.
    { name: "commerce-escrow", intervalMs: env().DETECTION_INTERVAL_MS, run: () => syncOpenCommercePayments() },
    // The dashboard's counts (lib/requests/status-counts.ts): fold what the PaymentRequest and SecurePayment triggers appended.
    { name: "status-counts", intervalMs: 15_000, run: () => foldStatusCounts() },
  ];
}
