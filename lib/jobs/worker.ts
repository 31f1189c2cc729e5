import { syncOpenCommercePayments } from "@/lib/commerce/sync";
import { sweepDeposits } from "@/lib/deposits/sweep";
import { sweepDetection } from "@/lib/detection/sweep";
import { env } from "@/lib/env";
import { sweepExpiry } from "@/lib/jobs/expire";
import { log } from "@/lib/log";
import { sweepMail } from "@/lib/mail/sweep";
import { runRecurringJobs } from "@/lib/recurring/run";
import { recoverRelayed } from "@/lib/relayer/relay";
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
}

export function startWorker(jobs: Job[] = defaultJobs()): Worker {
  let stopped = false;
  const running: Promise<void>[] = [];
  const timers = new Set<NodeJS.Timeout>();
  for (const job of jobs) {
    const loop = async (): Promise<void> => {
      while (!stopped) {
        try {
          await job.run();
        } catch (err) {
          log.warn("sweep failed", { job: job.name, err });
        }
        if (stopped) break;
        await new Promise<void>((resolve) => {
          const t = setTimeout(() => {
            timers.delete(t);
            resolve();
          }, job.intervalMs);
          timers.add(t);
        });
      }
    };
    running.push(loop());
  }
  log.info("worker started", { jobs: jobs.map((j) => j.name) });
  return {
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.allSettled(running);
    },
  };
}

export function defaultJobs(): Job[] {
  return [
    { name: "payment-detection", intervalMs: env().DETECTION_INTERVAL_MS, run: sweepDetection },
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
  ];
}
