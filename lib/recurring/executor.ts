import { now as clockNow } from "@/lib/clock";
import { db } from "@/lib/db";
import { ulid } from "@/lib/ids";
import { type FailureReason, type RecurringChain, readableFailure } from "@/lib/recurring/chain";
import { type ClaimedSchedule, claimDueSchedules, type PaymentRow, releaseLease } from "@/lib/recurring/claim";
import { NOT_PAST_DUE, RETRIED_FAILURES, recordMissedPayment } from "@/lib/recurring/dunning-retry";
import { writePaymentFailed } from "@/lib/recurring/failed-event";
import { housekeeping } from "@/lib/recurring/housekeeping";

export interface SweepOptions {
  /** Schedules claimed per batch. */
  limit?: number;
  /** How long a claim holds a schedule; a crashed sweep's schedules come back after it. */
  leaseMs?: number;
  /** Batches per sweep at most. */
  maxBatches?: number;
  /** A transaction still pending after this long is replaced (same nonce, higher fee). */
  replaceAfterMs?: number;
  /** Claimed schedules processed at once (each is independent: its own lease, its own index). */
  concurrency?: number;
}

export interface SweepResult {
  claimed: number;
  sent: number;
  confirmed: number;
  paused: number;
  completed: number;
  errors: number;
}

type Outcome = "sent" | "confirmed" | "paused" | "completed" | "waiting" | "lost";

/**
 * One pass of the recurring executor over the due active schedules of one chain.
 *
 * Per claimed schedule, one step: reconcile the pending payment (index processedPayments+1) from
 * the chain, then trigger at most one payment. The index's transaction is never sent twice:
 * its row (intent + relayer nonce) is written before `send`, and a row whose transaction may be
 * in flight is only ever re-sent with the SAME nonce (a replacement: at most one of the two can
 * be mined); a new nonce is taken only once the old one is mined and the index still unpaid.
 * Every state change is conditional on this sweep's lease, so a sweep that lost its lease
 * (crashed or too slow) changes nothing; the unique (scheduleId, index) is the last guard.
 */
export async function sweepRecurringChain(chain: RecurringChain, opts: SweepOptions = {}): Promise<SweepResult> {
  const limit = opts.limit ?? 50;
  const leaseMs = opts.leaseMs ?? 120_000;
  const result: SweepResult = { claimed: 0, sent: 0, confirmed: 0, paused: 0, completed: 0, errors: 0 };
  await housekeeping(chain);
  // A schedule handled in this sweep is not claimed again by it (a sent payment stays due until
  // it is confirmed): later batches move on to the next due schedules.
  const seen: string[] = [];
  for (let batch = 0; batch < (opts.maxBatches ?? 10); batch++) {
    const chainTime = await chain.latestBlockTime();
    const claimed = await claimDueSchedules(chain.network, new Date(chainTime * 1000), clockNow(), leaseMs, limit, seen);
    result.claimed += claimed.length;
    seen.push(...claimed.map((s) => s.id));
    await forEachConcurrently(claimed, opts.concurrency ?? 8, async (s) => {
      try {
        const outcome = await step(chain, s, chainTime, opts.replaceAfterMs ?? 180_000);
        if (outcome === "confirmed") result.confirmed++;
        if (outcome === "sent") result.sent++;
        if (outcome === "paused") result.paused++;
        if (outcome === "completed") result.completed++;
        await releaseLease(s.id, s.leaseUntil);
      } catch {
        // Left leased: whatever happened (a crash between the intent and the send, an RPC
        // failure), the next sweep after the lease reconciles the row from the chain.
        result.errors++;
      }
    });
    if (claimed.length < limit) break;
  }
  return result;
}

async function forEachConcurrently<T>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** The schedule's lease condition: a write lands only while this sweep still holds it. */
const held = (s: ClaimedSchedule) => ({ id: s.id, leaseUntil: s.leaseUntil, status: "active" as const });

async function step(chain: RecurringChain, s: ClaimedSchedule, chainTime: number, replaceAfterMs: number): Promise<Outcome> {
  let processed = s.processedPayments;
  let idx = processed + 1;
  let row = idx <= s.totalPayments ? await paymentRow(s.id, idx) : null;
  let reuseNonce: number | null = null;
  /** This index's transaction when it was mined and reverted: the payment.failed of a pause names it. */
  let reverted: string | null = null;

  if (row && row.status !== "confirmed") {
    // Order matters: the nonce is read before isPaid, so a transaction mined in between shows as paid.
    const used = row.txNonce === null ? true : await chain.nonceUsed(row.txNonce);
    let paid = await chain.isPaid(s, idx);
    if (!paid && row.txHash) {
      const r = await chain.receipt(row.txHash);
      if (r === "pending") return replaceIfStuck(chain, s, row, replaceAfterMs);
      paid = r === "success";
      if (r === "reverted") reverted = row.txHash;
    }
    if (paid) {
      const c = await confirm(s, row, idx);
      if (c !== "confirmed") return c;
      processed = idx;
      idx++;
      row = idx <= s.totalPayments ? await paymentRow(s.id, idx) : null;
      if (row) return "confirmed"; // a row ahead of processedPayments: reconciled next step
    } else if (!used) {
      reuseNonce = row.txNonce;
    } else if (row.status !== "failed") {
      await db().recurringPayment.updateMany({ where: { id: row.id, txNonce: row.txNonce }, data: { status: "failed" } });
      row = { ...row, status: "failed" };
    }
  }
  const sched = { ...s, processedPayments: processed };

  if (idx > s.totalPayments) return finish(sched, "completed");
  if (await chain.isCancelled(s)) return pause(sched, idx, "cancelled_on_chain", undefined, reverted);
  const due = s.dueTimes[idx - 1]!;
  if (due > chainTime) return (await setNextDue(sched, due)) ? (processed > s.processedPayments ? "confirmed" : "waiting") : "lost";
  if (chainTime > s.deadline || due > s.deadline) return pause(sched, idx, "deadline_passed", undefined, reverted);

  const sim = await chain.simulate(s, idx);
  if (!sim.ok && RETRIED_FAILURES.includes(sim.reason)) {
    // Past due: retried on the dunning policy until the grace is over, then paused below.
    const missed = await recordMissedPayment(sched, idx, chainTime, sim.reason, sim.message, sim.missing);
    if (missed !== "grace_over") return missed === "lost" ? "lost" : "waiting";
  }
  if (!sim.ok) return pause(sched, idx, sim.reason, sim.message, reverted);

  const nonce = reuseNonce ?? (await chain.nextNonce());
  if (!(await recordBeforeSend(s, idx, row, nonce))) return "lost";
  const sent = await whileHeld(s, async () => {
    const txHash = await chain.send(s, idx, nonce);
    await db().recurringPayment.updateMany({
      where: { scheduleId: s.id, index: idx, txNonce: nonce, status: "intent" },
      data: { status: "sent", txHash, sentAt: clockNow() },
    });
  });
  return sent ? "sent" : "lost";
}

/** How long a broadcast may hold its schedule's row lock (a node that answers slower fails the step; the next sweep reconciles). */
const BROADCAST_LOCK_MS = 60_000;

/**
 * Runs `broadcast` only if the schedule is still active and this sweep's lease is still on it,
 * holding the schedule's row lock from that check until the broadcast is recorded. An API cancel
 * (an UPDATE of the same row) therefore either commits first, and nothing is broadcast, or waits
 * until the transaction is in the node's pool and recorded `sent`, where the on-chain cancel finds
 * it and replaces it at its nonce (chain-cancel.ts). Without the lock, a cancel landing between
 * the recorded intent and the broadcast would still pay.
 */
async function whileHeld(s: ClaimedSchedule, broadcast: () => Promise<void>): Promise<boolean> {
  return db().$transaction(
    async (tx) => {
      const held = await tx.$queryRaw<{ id: string }[]>`
        SELECT "id" FROM "RecurringSchedule"
        WHERE "id" = ${s.id} AND "status" = 'active' AND "leaseUntil" = ${s.leaseUntil}
        FOR NO KEY UPDATE`;
      if (held.length !== 1) return false;
      await broadcast();
      return true;
    },
    { timeout: BROADCAST_LOCK_MS, maxWait: BROADCAST_LOCK_MS },
  );
}

async function paymentRow(scheduleId: string, index: number): Promise<PaymentRow | null> {
  return db().recurringPayment.findUnique({
    where: { scheduleId_index: { scheduleId, index } },
    select: { id: true, index: true, status: true, txHash: true, txNonce: true, sentAt: true },
  });
}

/** The write-ahead row (status `intent`, with the relayer nonce), written BEFORE the send; false when another sweep got there first. */
async function recordBeforeSend(s: ClaimedSchedule, index: number, row: PaymentRow | null, nonce: number): Promise<boolean> {
  if (!row) {
    const inserted = await db().$executeRaw`
      INSERT INTO "RecurringPayment" ("id", "scheduleId", "index", "status", "txNonce")
      SELECT ${ulid()}, ${s.id}, ${index}, 'intent', ${nonce}
      WHERE EXISTS (SELECT 1 FROM "RecurringSchedule" WHERE "id" = ${s.id} AND "leaseUntil" = ${s.leaseUntil} AND "status" = 'active')
      ON CONFLICT ("scheduleId", "index") DO NOTHING`;
    return inserted === 1;
  }
  // Same nonce (a replacement) or a new one after the old nonce was mined without paying.
  const updated = await db().recurringPayment.updateMany({
    where: { id: row.id, status: row.status, txNonce: row.txNonce, schedule: { is: held(s) } },
    data: { status: "intent", txNonce: nonce, txHash: null, sentAt: null },
  });
  return updated.count === 1;
}

async function confirm(s: ClaimedSchedule, row: PaymentRow, index: number): Promise<Outcome> {
  const last = index >= s.totalPayments;
  const next = last ? null : new Date(s.dueTimes[index]! * 1000);
  return db().$transaction(async (tx) => {
    const moved = await tx.recurringSchedule.updateMany({
      where: { ...held(s), processedPayments: index - 1 },
      data: {
        processedPayments: index,
        nextDueAt: next,
        lastPaymentAt: clockNow(),
        ...(s.pastDueIndex !== null ? { ...NOT_PAST_DUE, failureCode: null, failureReason: null } : {}),
        ...(last ? { status: "completed", failureCode: null, failureReason: null } : {}),
      },
    });
    if (moved.count !== 1) return "lost" as const;
    await tx.recurringPayment.update({ where: { id: row.id }, data: { status: "confirmed", confirmedAt: clockNow() } });
    return last ? ("completed" as const) : ("confirmed" as const);
  });
}

async function finish(s: ClaimedSchedule, status: "completed"): Promise<Outcome> {
  const r = await db().recurringSchedule.updateMany({ where: held(s), data: { status, nextDueAt: null } });
  return r.count === 1 ? status : "lost";
}

async function setNextDue(s: ClaimedSchedule, due: number): Promise<boolean> {
  const r = await db().recurringSchedule.updateMany({ where: held(s), data: { nextDueAt: new Date(due * 1000) } });
  return r.count === 1;
}

/**
 * Pauses the schedule with the reason and writes its one payment.failed, in one transaction; the
 * index is not consumed (processedPayments stays), so unpausing retries the same payment.
 * deadline_passed was judged on the deadline this sweep read, and the payer may have renewed the
 * permit since (permit-renewal.ts replaces deadline and signature in one update and leaves the
 * lease alone): that pause also holds only for the deadline it read. When a renewal got in first
 * it changes nothing ("lost"), the lease is released, and the next sweep reads the renewed permit.
 */
async function pause(s: ClaimedSchedule, index: number, code: FailureReason, message?: string, txHash?: string | null): Promise<Outcome> {
  const failureReason = readableFailure(code, message);
  return db().$transaction(async (tx) => {
    const r = await tx.recurringSchedule.updateMany({
      where: code === "deadline_passed" ? { ...held(s), deadline: s.deadline } : held(s),
      data: { status: "paused", failureCode: code, failureReason, failureCount: { increment: 1 } },
    });
    if (r.count !== 1) return "lost" as const;
    await writePaymentFailed(tx, s, index, code, failureReason, s.failureCount + 1, txHash ?? null);
    return "paused" as const;
  });
}

/** A transaction pending for longer than `afterMs` is re-sent with the same nonce and a higher fee (never a new nonce). */
async function replaceIfStuck(chain: RecurringChain, s: ClaimedSchedule, row: PaymentRow, afterMs: number): Promise<Outcome> {
  if (!row.sentAt || row.txNonce === null || clockNow().getTime() - row.sentAt.getTime() < afterMs) return "waiting";
  const nonce = row.txNonce;
  const sent = await whileHeld(s, async () => {
    const txHash = await chain.send(s, row.index, nonce, row.txHash ?? undefined);
    await db().recurringPayment.updateMany({ where: { id: row.id, txNonce: nonce, status: "sent" }, data: { txHash, sentAt: clockNow() } });
  });
  return sent ? "sent" : "lost";
}
