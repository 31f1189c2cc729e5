import { now as clockNow } from "@/lib/clock";
import { db } from "@/lib/db";
import { log } from "@/lib/log";
import type { RecurringChain } from "@/lib/recurring/chain";
import { sweepChainCancels } from "@/lib/recurring/chain-cancel";

/** Per network: when housekeeping last ran in this process. */
const lastHousekeeping = new Map<string, number>();
const HOUSEKEEPING_EVERY_MS = 10_000;

/**
 * Cancelling API-cancelled schedules on chain and filling nonce gaps, at most every 10 s per
 * network and process (gaps wait a 30 s grace anyway), so an idle sweep is the claim query alone.
 * Cancels first: a cancelled schedule's trigger queued behind a gap must be replaced (by the
 * cancel, at its nonce: chain-cancel.ts) before the gap closes.
 */
export async function housekeeping(chain: RecurringChain): Promise<void> {
  if (!chain.cancel && !chain.fillNonceGap) return;
  const now = clockNow().getTime();
  if (now - (lastHousekeeping.get(chain.network) ?? Number.NEGATIVE_INFINITY) < HOUSEKEEPING_EVERY_MS) return;
  lastHousekeeping.set(chain.network, now);
  if (chain.cancel) {
    const r = await sweepChainCancels(chain).catch((err: unknown) => {
      log.warn("recurring on-chain cancel sweep failed", { network: chain.network, err });
      return null;
    });
    if (r && r.sent + r.confirmed > 0) log.info("recurring on-chain cancels", { network: chain.network, ...r });
  }
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
  // On-chain cancels use relayer nonces too (chain-cancel.ts): one stuck behind a gap counts.
  const cancels = await db().recurringSchedule.findMany({
    where: {
      network: chain.network,
      cancelNonce: { not: null },
      OR: [
        { chainCancel: "sent", cancelSentAt: { lt: before } },
        { chainCancel: "pending", updatedAt: { lt: before } },
      ],
    },
    select: { cancelNonce: true },
    orderBy: { cancelNonce: "desc" },
    take: 50,
  });
  try {
    const filled = await chain.fillNonceGap([...rows.map((r) => r.txNonce!), ...cancels.map((c) => c.cancelNonce!)]);
    if (filled !== null) log.warn("relayer nonce gap filled", { network: chain.network, nonce: filled });
  } catch (err) {
    log.warn("relayer nonce gap not filled", { network: chain.network, err });
  }
}
