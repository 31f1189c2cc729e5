import { now as clockNow } from "@/lib/clock";
import { db } from "@/lib/db";
import { log } from "@/lib/log";
import type { RecurringChain } from "@/lib/recurring/chain";

/** Per network: when housekeeping last ran in this process. */
const lastHousekeeping = new Map<string, number>();
const HOUSEKEEPING_EVERY_MS = 10_000;

/**
 * Withdrawing cancelled payments and filling nonce gaps, at most every 10 s per network and
 * process (gaps wait a 30 s grace anyway), so an idle sweep is the claim query alone. Withdraw
 * first: a cancelled payment queued behind a gap must be replaced before the gap closes.
 */
export async function housekeeping(chain: RecurringChain): Promise<void> {
  if (!chain.withdraw && !chain.fillNonceGap) return;
  const now = clockNow().getTime();
  if (now - (lastHousekeeping.get(chain.network) ?? Number.NEGATIVE_INFINITY) < HOUSEKEEPING_EVERY_MS) return;
  lastHousekeeping.set(chain.network, now);
  await withdrawCancelled(chain);
  await fillGap(chain);
}

/** A send younger than this may still be on its way to the node: its nonce is not a gap yet. */
const GAP_GRACE_MS = 30_000;

/** Lets the chain fill a relayer nonce gap, from this network's latest sends (the highest nonces). */
async function fillGap(chain: RecurringChain): Promise<void> {
  if (!chain.fillNonceGap) return;
  const now = clockNow().getTime();
  const before = new Date(now - GAP_GRACE_MS);
  const rows = await db().recurringPayment.findMany({
    where: {
      txNonce: { not: null },
      schedule: { network: chain.network },
      OR: [
        // Sent triggers, and withdrawn ones (their no-op replacement may wait behind the same gap).
        { status: { in: ["sent", "failed"] }, sentAt: { lt: before } },
        // Intents: their send may have reached the node without being recorded (a crash after it).
        { status: "intent", createdAt: { lt: before } },
      ],
    },
    select: { txNonce: true },
    orderBy: { txNonce: "desc" },
    take: 200,
  });
  try {
    const filled = await chain.fillNonceGap(rows.map((r) => r.txNonce!));
    if (filled !== null) log.warn("relayer nonce gap filled", { network: chain.network, nonce: filled });
  } catch (err) {
    log.warn("relayer nonce gap not filled", { network: chain.network, err });
  }
}

/**
 * A schedule cancelled through the API while one of its payments was broadcast but not yet mined
 * (in the mempool, or queued behind another nonce): that transaction is withdrawn — replaced at
 * its nonce by a no-op that outbids it — so a cancel stops the payment already on its way too.
 * A transaction mined meanwhile is recorded as what it was (paid or not).
 */
async function withdrawCancelled(chain: RecurringChain): Promise<void> {
  if (!chain.withdraw) return;
  const pending = await db().recurringPayment.findMany({
    where: { status: { in: ["intent", "sent"] }, txNonce: { not: null }, schedule: { network: chain.network, status: "cancelled" } },
    select: { id: true },
    take: 50,
  });
  if (pending.length === 0) return;
  const rows = await db().recurringPayment.findMany({ where: { id: { in: pending.map((p) => p.id) } }, include: { schedule: true } });
  for (const row of rows) {
    try {
      const nonce = row.txNonce!;
      const same = { id: row.id, status: row.status, txNonce: nonce };
      if (await chain.nonceUsed(nonce)) {
        const s = { ...row.schedule, amount: row.schedule.amount.toFixed(), feeAmount: row.schedule.feeAmount.toFixed() };
        const paid = await chain.isPaid(s, row.index);
        await db().recurringPayment.updateMany({
          where: same,
          data: paid ? { status: "confirmed", confirmedAt: clockNow() } : { status: "failed" },
        });
        continue;
      }
      const txHash = await chain.withdraw(nonce, row.txHash ?? undefined);
      await db().recurringPayment.updateMany({ where: same, data: { status: "failed", txHash, sentAt: clockNow() } });
      log.info("recurring payment withdrawn after cancel", { scheduleId: row.scheduleId, index: row.index, nonce });
    } catch (err) {
      log.warn("recurring payment not withdrawn", { scheduleId: row.scheduleId, index: row.index, err });
    }
  }
}
