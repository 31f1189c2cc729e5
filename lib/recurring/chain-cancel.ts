import { now as clockNow } from "@/lib/clock";
import { db } from "@/lib/db";
import type { ChainCancelStatus, RecurringSchedule } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import type { ChainSchedule, RecurringChain } from "@/lib/recurring/chain";

/**
 * The on-chain half of an API cancel. The database cancel stops the executor at once (it only
 * touches active schedules, and it re-checks that under the row lock right before every broadcast:
 * executor.ts); but the payer's signed permit stays triggerable by the relayer key until its
 * deadline, so the relayer also calls the contract's cancelSchedule (the subscriber or a relayer
 * may: contracts/src/DuebillRecurringPayments.sol). After it is mined every triggerPayment reverts
 * ScheduleIsCancelled.
 *
 * A trigger of the schedule still unmined at the cancel (broadcast just before it, or queued behind
 * another nonce) is REPLACED by the cancel at its own nonce, with a higher fee: at most one of the
 * two is mined, so a cancel that wins the nonce means that payment never happens, and one that
 * loses is re-sent with a new nonce (the payment was made before the cancel reached the chain).
 *
 * Nothing is lost on failure: the database cancel stands whatever the chain says, the state is
 * kept on the schedule (`chainCancel` pending → sent → confirmed, the nonce, transaction, attempts
 * and last error), and the sweep (housekeeping.ts) retries until the contract says cancelled.
 */

/** A cancel pending in the pool this long is re-sent at its nonce with a higher fee. */
const REPLACE_CANCEL_AFTER_MS = 180_000;
/** The claim on a cancelled schedule while one attempt runs (an API call and a sweep never send two cancels). */
const CANCEL_LEASE_MS = 60_000;

export type ChainCancelView = {
  status: ChainCancelStatus;
  txHash: string | null;
  confirmedAt: string | null;
  attempts: number;
  lastError: string | null;
};

/** The schedule's on-chain cancel as the API shows it (null while the schedule is not cancelled). */
export function chainCancelView(
  s: Pick<RecurringSchedule, "chainCancel" | "cancelTxHash" | "cancelConfirmedAt" | "cancelAttempts" | "cancelError">,
): ChainCancelView | null {
  if (!s.chainCancel) return null;
  return {
    status: s.chainCancel,
    txHash: s.cancelTxHash,
    confirmedAt: s.cancelConfirmedAt?.toISOString() ?? null,
    attempts: s.cancelAttempts,
    lastError: s.cancelError,
  };
}

const chainView = (s: RecurringSchedule): ChainSchedule => ({
  ...s,
  amount: s.amount.toFixed(),
  feeAmount: s.feeAmount.toFixed(),
});

const errorText = (err: unknown) => (err instanceof Error ? err.message.split("\n")[0]!.slice(0, 300) : String(err).slice(0, 300));

/** Claims a cancelled schedule whose on-chain cancel is not confirmed (or that still has payments in flight). */
async function claim(id: string, leaseMs = CANCEL_LEASE_MS): Promise<RecurringSchedule | null> {
  const now = clockNow();
  const rows = await db().$queryRaw<{ id: string }[]>`
    UPDATE "RecurringSchedule" SET "leaseUntil" = ${new Date(now.getTime() + leaseMs)}
    WHERE "id" = ${id} AND "status" = 'cancelled' AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now})
    RETURNING "id"`;
  if (rows.length !== 1) return null;
  return db().recurringSchedule.findUnique({ where: { id } });
}

/** Writes to a claimed schedule only while this attempt's claim is the one on it. */
async function update(s: RecurringSchedule, data: Parameters<ReturnType<typeof db>["recurringSchedule"]["updateMany"]>[0]["data"]) {
  const r = await db().recurringSchedule.updateMany({ where: { id: s.id, leaseUntil: s.leaseUntil, status: "cancelled" }, data });
  return r.count === 1;
}

/**
 * The schedule's payments that may still be in flight (intent or sent with a nonce): one whose
 * nonce was mined is recorded as what it was (paid or not); the unmined ones are returned, lowest
 * nonce first (the cancel takes that nonce).
 */
async function reconcileInFlight(chain: RecurringChain, s: RecurringSchedule) {
  const rows = await db().recurringPayment.findMany({
    where: { scheduleId: s.id, status: { in: ["intent", "sent"] }, txNonce: { not: null } },
    orderBy: { txNonce: "asc" },
  });
  const unmined: typeof rows = [];
  for (const row of rows) {
    const nonce = row.txNonce!;
    if (!(await chain.nonceUsed(nonce))) {
      unmined.push(row);
      continue;
    }
    const paid = await chain.isPaid(chainView(s), row.index);
    await db().recurringPayment.updateMany({
      where: { id: row.id, status: row.status, txNonce: nonce },
      data: paid ? { status: "confirmed", confirmedAt: clockNow() } : { status: "failed" },
    });
    if (paid) log.warn("recurring payment mined before the on-chain cancel", { scheduleId: s.id, index: row.index, nonce });
  }
  return unmined;
}

/**
 * One step of a cancelled schedule's on-chain cancel, under a claim (a no-op when another attempt
 * holds it). Returns the state after the step; throws nothing: a failure is recorded on the
 * schedule (`cancelError`) and left to the next sweep.
 */
export async function advanceChainCancel(
  chain: RecurringChain | null,
  id: string,
  opts: { replaceAfterMs?: number } = {},
): Promise<ChainCancelStatus | null> {
  const s = await claim(id);
  if (!s) return (await db().recurringSchedule.findUnique({ where: { id }, select: { chainCancel: true } }))?.chainCancel ?? null;
  try {
    return await step(chain, s, opts.replaceAfterMs ?? REPLACE_CANCEL_AFTER_MS);
  } catch (err) {
    const message = errorText(err);
    log.warn("recurring on-chain cancel failed; the sweep retries", { scheduleId: s.id, network: s.network, err: message });
    await update(s, { cancelError: message });
    return s.chainCancel;
  } finally {
    await db().recurringSchedule.updateMany({ where: { id: s.id, leaseUntil: s.leaseUntil }, data: { leaseUntil: null } });
  }
}

async function step(chain: RecurringChain | null, s: RecurringSchedule, replaceAfterMs: number): Promise<ChainCancelStatus | null> {
  if (s.chainCancel !== "pending" && s.chainCancel !== "sent") return s.chainCancel;
  if (!chain?.cancel) {
    await update(s, { cancelError: `no relayer can reach the recurring contract on ${s.network} (relayer key, contract or RPC missing)` });
    return s.chainCancel;
  }
  const view = chainView(s);
  const unmined = await reconcileInFlight(chain, s);
  if (await chain.isCancelled(view)) {
    await update(s, { chainCancel: "confirmed", cancelConfirmedAt: clockNow(), cancelError: null });
    return "confirmed";
  }

  if (s.chainCancel === "sent" && s.cancelNonce !== null && s.cancelTxHash) {
    const r = await chain.receipt(s.cancelTxHash);
    if (r === "success") {
      // Mined after isCancelled was read: the receipt is the contract's word.
      await update(s, { chainCancel: "confirmed", cancelConfirmedAt: clockNow(), cancelError: null });
      return "confirmed";
    }
    if (r === "pending") {
      const age = clockNow().getTime() - (s.cancelSentAt?.getTime() ?? 0);
      if (age < replaceAfterMs) return "sent";
      return send(chain, s, view, s.cancelNonce, s.cancelTxHash);
    }
    // Reverted, or gone from the pool: a new attempt, at the same nonce while it is unused.
    if (r === "unknown" && !(await chain.nonceUsed(s.cancelNonce))) return send(chain, s, view, s.cancelNonce, s.cancelTxHash);
    return send(chain, s, view, unmined[0]?.txNonce ?? (await chain.nextNonce()), unmined[0]?.txHash ?? undefined);
  }

  // pending: a cancel intent whose broadcast was never recorded keeps its nonce while it is unused;
  // else the nonce of a trigger of this schedule still in flight (replaced, so at most one is mined);
  // else a new one.
  if (s.cancelNonce !== null && !(await chain.nonceUsed(s.cancelNonce))) return send(chain, s, view, s.cancelNonce, undefined);
  const inFlight = unmined[0];
  return send(chain, s, view, inFlight?.txNonce ?? (await chain.nextNonce()), inFlight?.txHash ?? undefined, inFlight !== undefined);
}

/** Records the nonce (the intent) before broadcasting, then the transaction. */
async function send(
  chain: RecurringChain,
  s: RecurringSchedule,
  view: ChainSchedule,
  nonce: number,
  replaces: string | undefined,
  outbid = true,
): Promise<ChainCancelStatus | null> {
  if (!(await update(s, { cancelNonce: nonce, cancelAttempts: { increment: 1 } }))) return s.chainCancel;
  const txHash = await chain.cancel!(view, nonce, { replaces, outbid });
  await update(s, { chainCancel: "sent", cancelTxHash: txHash, cancelSentAt: clockNow(), cancelError: null });
  log.info("recurring schedule cancelled on chain (sent)", { scheduleId: s.id, network: s.network, nonce, txHash, replaces });
  // Mined at once (a devnet, a fast chain): confirmed now rather than at the next sweep.
  if ((await chain.receipt(txHash).catch(() => "unknown")) === "success") {
    await update(s, { chainCancel: "confirmed", cancelConfirmedAt: clockNow() });
    return "confirmed";
  }
  return "sent";
}

/**
 * The sweep's part (housekeeping.ts): every cancelled schedule of the chain's network whose
 * on-chain cancel is not confirmed yet, oldest first; at most `limit` per pass.
 */
export async function sweepChainCancels(chain: RecurringChain, limit = 50): Promise<Record<ChainCancelStatus, number>> {
  const rows = await db().recurringSchedule.findMany({
    where: { network: chain.network, status: "cancelled", chainCancel: { in: ["pending", "sent"] } },
    orderBy: { updatedAt: "asc" },
    select: { id: true },
    take: limit,
  });
  const out: Record<ChainCancelStatus, number> = { not_needed: 0, pending: 0, sent: 0, confirmed: 0 };
  for (const r of rows) {
    const status = await advanceChainCancel(chain, r.id);
    if (status) out[status]++;
  }
  return out;
}
