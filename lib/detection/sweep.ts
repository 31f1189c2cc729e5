import { allNetworkRuntimes } from "@/lib/chain/config";
import { isNetworkId, type NetworkId } from "@/lib/chain/networks";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { recordTransfer } from "@/lib/detection/record-payment";
import { tronEventSourceFromEnv } from "@/lib/detection/tron-source";
import type { PaymentEventSource } from "@/lib/detection/types";
import { env } from "@/lib/env";
import type { CrossChainRef } from "@/lib/events/catalog";
import { log } from "@/lib/log";
import { routingProvider } from "@/lib/routing/index";
import { isCrossChainNetwork, ROUTE_CHAIN_LABEL } from "@/lib/routing/types";
import { settleSecurePayments } from "@/lib/secure-payments/settle";

export interface NetworkSweepResult {
  network: string;
  fromBlock: string | null;
  toBlock: string | null;
  events: number;
  recorded: number;
  duplicates: number;
  ignored: number;
}

/**
 * One bounded detection step for a network: from the stored cursor to the finalized head
 * (at most DETECTION_MAX_BLOCK_RANGE blocks per step, `maxSteps` steps). Safe to run
 * concurrently and after a crash: recording is idempotent, and the cursor only moves
 * forward after the range's events are stored.
 */
export async function sweepNetwork(source: PaymentEventSource, maxSteps = 10): Promise<NetworkSweepResult> {
  const result: NetworkSweepResult = {
    network: source.network,
    fromBlock: null,
    toBlock: null,
    events: 0,
    recorded: 0,
    duplicates: 0,
    ignored: 0,
  };
  const head = await source.finalizedHead();
  const cursor = await db().chainCursor.findUnique({ where: { network: source.network } });
  let from = cursor ? cursor.lastBlock + 1n : await source.startBlock(head);
  if (cursor && (await chainChanged(source, cursor))) {
    // Another chain under the same cursor (a devnet restarted from block 0, a new genesis) or a
    // reorg deeper than the confirmations: scan again from the start window. Recording is
    // idempotent, so transfers already recorded are not counted twice.
    from = await source.startBlock(head);
    log.warn("detection cursor is not on this chain any more: rescanning", {
      network: source.network,
      cursorBlock: cursor.lastBlock.toString(),
      finalizedHead: head.toString(),
      from: from.toString(),
    });
  }
  const range = BigInt(env().DETECTION_MAX_BLOCK_RANGE);
  const touched = new Set<string>();
  for (let step = 0; step < maxSteps && from <= head; step++) {
    const to = from + range - 1n < head ? from + range - 1n : head;
    const events = await source.transfers(from, to);
    result.fromBlock ??= from.toString();
    result.toBlock = to.toString();
    result.events += events.length;
    if (events.length > 0) {
      const hashes = [...new Set(events.map((e) => e.referenceHash.toLowerCase()))];
      const requests = await db().paymentRequest.findMany({ where: { network: source.network, referenceHash: { in: hashes } } });
      const byHash = new Map(requests.map((r) => [r.referenceHash.toLowerCase(), r]));
      const crossChain = await crossChainSources(requests.map((r) => r.id));
      for (const ev of events) {
        const request = byHash.get(ev.referenceHash.toLowerCase());
        if (!request) continue;
        const outcome = await recordTransfer(request, ev, await crossChain(request.id, source.network, ev.txHash));
        if (outcome === "recorded") {
          result.recorded += 1;
          touched.add(request.id);
        } else if (outcome === "duplicate") result.duplicates += 1;
        else result.ignored += 1;
      }
    }
    const lastBlockHash = source.blockHash ? await source.blockHash(to) : null;
    await db().chainCursor.upsert({
      where: { network: source.network },
      create: { network: source.network, lastBlock: to, lastBlockHash },
      update: { lastBlock: to, lastBlockHash },
    });
    from = to + 1n;
  }
  // Links whose requests are now paid complete (or fail screening); the expiry sweep retries after a crash.
  await settleSecurePayments([...touched]);
  return result;
}

/**
 * For requests a payer was quoted a cross-chain route for: which source transaction delivered a
 * destination payment (asked of the routing provider; the quote row remembers the answer). A
 * provider that cannot tell leaves the payment reported as a same-chain one.
 */
async function crossChainSources(requestIds: string[]) {
  const quotes = requestIds.length
    ? await db().crossChainQuote.findMany({ where: { requestId: { in: requestIds } }, orderBy: { createdAt: "desc" } })
    : [];
  const provider = quotes.length ? routingProvider() : null;
  return async (requestId: string, network: string, txHash: string): Promise<CrossChainRef | undefined> => {
    if (!provider?.sourceOf || !isNetworkId(network)) return undefined;
    const mine = quotes.filter((q) => q.requestId === requestId && q.provider === provider.name);
    for (const sourceNetwork of [...new Set(mine.map((q) => q.sourceNetwork))]) {
      if (!isCrossChainNetwork(sourceNetwork)) continue;
      const found = await provider
        .sourceOf({ destinationTxHash: txHash, destinationNetwork: network, sourceNetwork })
        .catch((err: unknown) => {
          log.warn("cross-chain source lookup failed", { requestId, txHash, error: err instanceof Error ? err.message : String(err) });
          return null;
        });
      if (!found) continue;
      const quote = mine.find((q) => q.sourceNetwork === sourceNetwork)!;
      await db().crossChainQuote.update({ where: { id: quote.id }, data: { sourceTxHash: found.sourceTxHash, destinationTxHash: txHash } });
      return {
        sourceChain: ROUTE_CHAIN_LABEL[sourceNetwork],
        sourceNetwork,
        sourceTxHash: found.sourceTxHash,
        provider: provider.name,
        payer: quote.payer,
      };
    }
    return undefined;
  };
}

/** The chain no longer has the cursor's block, or has another block at that height. */
async function chainChanged(source: PaymentEventSource, cursor: { lastBlock: bigint; lastBlockHash: string | null }): Promise<boolean> {
  if (!source.blockHash || !cursor.lastBlockHash) return false;
  const now = await source.blockHash(cursor.lastBlock);
  return now === null || now.toLowerCase() !== cursor.lastBlockHash.toLowerCase();
}

/**
 * Every network with an event source: EVM networks that have an RPC URL, Tron when
 * TRON_API_URL names a TronGrid-compatible API, plus `extra` ones (a test's fake), which
 * replace the configured source of their network.
 */
export function eventSources(extra: readonly PaymentEventSource[] = []): PaymentEventSource[] {
  const sources = new Map<string, PaymentEventSource>();
  for (const rt of allNetworkRuntimes()) {
    if (rt.network.kind !== "evm" || !rt.rpcUrl) continue;
    const s = evmEventSource(rt.network.id as NetworkId);
    if (s) sources.set(rt.network.id, s);
  }
  const tron = tronEventSourceFromEnv();
  if (tron) sources.set(tron.network, tron);
  for (const s of extra) sources.set(s.network, s);
  return [...sources.values()];
}

/** The detection sweep over every network; one network's failure does not stop the others. */
export async function runDetectionSweep(extra: readonly PaymentEventSource[] = []): Promise<NetworkSweepResult[]> {
  const results: NetworkSweepResult[] = [];
  for (const source of eventSources(extra)) {
    try {
      results.push(await sweepNetwork(source));
    } catch (err) {
      log.warn("detection sweep failed", { network: source.network, err });
    }
  }
  return results;
}
