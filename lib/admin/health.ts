import { allNetworkRuntimes } from "@/lib/chain/config";
import { NETWORK_IDS, NETWORKS } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { rateLimiter } from "@/lib/http/rate-limit/limiter";
import { screeningListAge, screeningListInfo } from "@/lib/kyt/sanctions-list";
import { PAID_LINK_SQL } from "@/lib/payments/link-status";
import { recurringMissing } from "@/lib/recurring/relayer";

export interface CursorHealth {
  network: string;
  lastBlock: string;
  head: string | null;
  lag: number | null;
  updatedAt: string;
  error: string | null;
}

const withTimeout = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms).unref())]);

/** Detection progress per network: the stored cursor against the node's head (read with a 2 s limit). */
export async function cursorHealth(): Promise<CursorHealth[]> {
  const cursors = await db().chainCursor.findMany({ orderBy: { network: "asc" } });
  const configured = new Set(allNetworkRuntimes().map((r) => r.network.id as string));
  return Promise.all(
    cursors.map(async (c) => {
      const base = { network: c.network, lastBlock: c.lastBlock.toString(), updatedAt: c.updatedAt.toISOString() };
      const client = configured.has(c.network) ? publicClientFor(c.network as never) : null;
      if (!client) return { ...base, head: null, lag: null, error: "no RPC configured" };
      try {
        const head = await withTimeout(client.getBlockNumber({ cacheTime: 0 }), 2_000);
        return { ...base, head: head.toString(), lag: Number(head - c.lastBlock), error: null };
      } catch (err) {
        return { ...base, head: null, lag: null, error: err instanceof Error ? err.message.split("\n")[0]!.slice(0, 120) : "unreadable" };
      }
    }),
  );
}

/** Webhook deliveries waiting or given up, per endpoint. */
export async function deliveryHealth() {
  const rows = await db().webhookDelivery.groupBy({
    by: ["endpointId", "status"],
    where: { status: { in: ["pending", "failed"] } },
    _count: { _all: true },
  });
  const endpoints = await db().webhookEndpoint.findMany({
    where: { id: { in: [...new Set(rows.map((r) => r.endpointId))] } },
    select: { id: true, url: true, accountId: true, active: true },
  });
  return endpoints
    .map((e) => ({
      ...e,
      pending: rows.find((r) => r.endpointId === e.id && r.status === "pending")?._count._all ?? 0,
      failed: rows.find((r) => r.endpointId === e.id && r.status === "failed")?._count._all ?? 0,
    }))
    .sort((a, b) => b.failed - a.failed || b.pending - a.pending);
}

export interface RecurringNetworkHealth {
  network: string;
  /** What keeps the executor from running there (empty: it runs). */
  missing: string[];
  /** Schedules pending, active or paused there: never paid while something is missing. */
  live: number;
  /** Cancelled schedules whose on-chain cancelSchedule is not confirmed yet, and the latest failure among them. */
  cancelsPending: number;
  lastCancelError: string | null;
}

/**
 * Recurring payouts per EVM network: where the executor runs, and where it cannot (no contract,
 * relayer key or RPC) — new schedules are refused there; any live ones left there are never paid
 * and show as a warning — with the on-chain cancels still to confirm.
 */
export async function recurringHealth(): Promise<RecurringNetworkHealth[]> {
  const [live, cancels, lastErrors] = await Promise.all([
    db().recurringSchedule.groupBy({ by: ["network"], where: { status: { in: ["pending", "active", "paused"] } }, _count: { _all: true } }),
    db().recurringSchedule.groupBy({
      by: ["network"],
      where: { status: "cancelled", chainCancel: { in: ["pending", "sent"] } },
      _count: { _all: true },
    }),
    db().recurringSchedule.findMany({
      where: { status: "cancelled", chainCancel: { in: ["pending", "sent"] }, cancelError: { not: null } },
      orderBy: { updatedAt: "desc" },
      distinct: ["network"],
      select: { network: true, cancelError: true },
    }),
  ]);
  return NETWORK_IDS.filter((id) => NETWORKS[id].kind === "evm").map((network) => ({
    network,
    missing: recurringMissing(network),
    live: live.find((l) => l.network === network)?._count._all ?? 0,
    cancelsPending: cancels.find((c) => c.network === network)?._count._all ?? 0,
    lastCancelError: lastErrors.find((e) => e.network === network)?.cancelError ?? null,
  }));
}

/** Everything an operator looks at first: background work, screening data, blocks in force. */
export async function serviceHealth() {
  const screening = screeningListInfo();
  const overdue = new Date(nowMs() - 5 * 60_000);
  const [cursors, deliveries, paused, overdueLinks, blocks, recurringNetworks] = await Promise.all([
    cursorHealth(),
    deliveryHealth(),
    db().recurringSchedule.groupBy({ by: ["failureCode"], where: { status: "paused" }, _count: { _all: true } }),
    // The expiry sweep turns pending links past their expiry into expired ones; any left 5 minutes later means it is not running.
    // A paid link never expires (it waits for settlement): it is not the sweep's to expire.
    db().$queryRaw<{ n: bigint }[]>`
        SELECT count(*) AS n FROM "SecurePayment" sp WHERE sp.status = 'pending' AND sp."expiresAt" < ${overdue} AND NOT ${PAID_LINK_SQL}`.then(
      (r) => Number(r[0]?.n ?? 0),
    ),
    rateLimiter()
      .activeBlocks()
      .catch(() => []),
    recurringHealth(),
  ]);
  return {
    cursors,
    deliveries,
    recurringPaused: paused.map((p) => ({ reason: p.failureCode ?? "unknown", count: p._count._all })),
    recurringNetworks,
    expirySweep: { overdueLinks },
    screening: { ...screening, age: screeningListAge(screening) },
    rateLimitBlocks: blocks.map((b) => ({ key: b.key, until: b.until.toISOString() })),
  };
}
