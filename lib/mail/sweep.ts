import { now as clockNow } from "@/lib/clock";
import { deliverMail, type MailDeliverResult } from "@/lib/mail/deliver";
import { planMail } from "@/lib/mail/plan";

export interface MailSweepResult extends MailDeliverResult {
  events: number;
  planned: number;
}

/**
 * Planning then sending, repeated while full batches come and the time budget lasts: the worker's
 * "mail" job. Safe to run on several workers at once and after a crash (see plan.ts and deliver.ts).
 */
export async function sweepMail(opts: { now?: Date; budgetMs?: number } = {}): Promise<MailSweepResult> {
  const deadline = performance.now() + (opts.budgetMs ?? 20_000);
  const total: MailSweepResult = { events: 0, planned: 0, claimed: 0, sent: 0, retried: 0, failed: 0 };
  const planLimit = 50;
  for (;;) {
    const p = await planMail(planLimit, opts.now ?? clockNow());
    total.events += p.events;
    total.planned += p.messages;
    if (p.events < planLimit || performance.now() >= deadline) break;
  }
  const limit = 20;
  while (performance.now() < deadline) {
    const r = await deliverMail({ limit, now: opts.now ?? clockNow() });
    total.claimed += r.claimed;
    total.sent += r.sent;
    total.retried += r.retried;
    total.failed += r.failed;
    if (r.claimed < limit) break;
  }
  return total;
}
