import { networkRuntime } from "@/lib/chain/config";
import { publicClientFor } from "@/lib/chain/reader";
import { db } from "@/lib/db";
import { log } from "@/lib/log";
import { evmRecurringChain } from "@/lib/recurring/evm-chain";
import { type SweepOptions, type SweepResult, sweepRecurringChain } from "@/lib/recurring/executor";
import { lookAhead } from "@/lib/recurring/lookahead";
import { GAS_PER_TRIGGER, recurringNetworks, relayerStatus } from "@/lib/recurring/relayer";
import { sweepRequestDunning } from "@/lib/recurring/request-dunning";
import { sweepRecurringRequests } from "@/lib/recurring/request-periods";

/**
 * One recurring sweep per configured network (the worker's job and /api/cron/recurring). A relayer
 * that ran dry paused its schedules with relayer_out_of_gas — the operator's problem, not the
 * payer's — so once it can pay for a payment again those schedules resume by themselves and
 * catch up in order.
 */
export async function sweepRecurring(opts: SweepOptions = {}): Promise<Record<string, SweepResult & { resumed: number }>> {
  const out: Record<string, SweepResult & { resumed: number }> = {};
  for (const network of recurringNetworks()) {
    const chain = evmRecurringChain(network);
    if (!chain) continue;
    let resumed = 0;
    const status = await relayerStatus(network);
    if (status && !status.empty && !status.error) {
      const r = await db().$executeRaw`
        UPDATE "RecurringSchedule" SET "status" = 'active', "failureCode" = NULL, "failureReason" = NULL,
          "nextDueAt" = to_timestamp("dueTimes"["processedPayments" + 1]) AT TIME ZONE 'UTC', "updatedAt" = now()
        WHERE "network" = ${network} AND "status" = 'paused' AND "failureCode" = 'relayer_out_of_gas'
          AND "processedPayments" < "totalPayments"`;
      resumed = r;
      if (r > 0) log.info("recurring schedules resumed: relayer funded again", { network, resumed: r });
    }
    try {
      out[network] = { ...(await sweepRecurringChain(chain, opts)), resumed };
    } catch (err) {
      log.warn("recurring sweep failed", { network, err });
    }
    // The look-ahead (issue 32): warn before a payment would fail. Reads only; never sends.
    const client = publicClientFor(network);
    const contract = networkRuntime(network).contracts.recurringPayments;
    const at = client && contract ? await chain.latestBlockTime().catch(() => null) : null;
    if (client && contract && at !== null && lookaheadDue(network, at))
      await lookAhead({ network, client, contract, relayer: chain.relayer, gasPerPayment: GAS_PER_TRIGGER }, at).catch((err: unknown) =>
        log.warn("recurring look-ahead failed", { network, err }),
      );
  }
  return out;
}

/** Per network: the chain time and the process time the look-ahead last ran at. */
const lastLookahead = new Map<string, { chainTime: number; ms: number }>();

/**
 * The look-ahead runs when the chain's clock moved a minute or 30 s passed since its last run in
 * this process: lead times are hours to days, so every 2 s sweep would only repeat its query.
 */
function lookaheadDue(network: string, chainTime: number): boolean {
  const last = lastLookahead.get(network);
  const ms = Date.now();
  if (last && chainTime - last.chainTime < 60 && ms - last.ms < 30_000) return false;
  lastLookahead.set(network, { chainTime, ms });
  return true;
}

/**
 * The worker's `recurring` job and /api/cron/recurring: recurring payouts' due payments, then
 * recurring requests' due periods (lib/recurring/request-periods.ts). One failing does not hold up the other.
 */
export async function runRecurringJobs() {
  const payouts = await sweepRecurring().catch((err: unknown) => {
    log.warn("recurring payouts sweep failed", { err });
    return null;
  });
  const requests = await sweepRecurringRequests().catch((err: unknown) => {
    log.warn("recurring requests sweep failed", { err });
    return null;
  });
  // Their dunning (request.upcoming, request.past_due): after the periods, so a period just issued is counted.
  const requestDunning = await sweepRequestDunning().catch((err: unknown) => {
    log.warn("recurring requests dunning failed", { err });
    return null;
  });
  return { payouts, requests, requestDunning };
}
