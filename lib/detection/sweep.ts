import { getAddress } from "viem";
import { sameAddress } from "@/lib/chain/address";
import { allNetworkRuntimes } from "@/lib/chain/config";
import { isNetworkId, type NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { recordTransfer } from "@/lib/detection/record-payment";
import { tronEventSourceFromEnv } from "@/lib/detection/tron-source";
import type { PaymentEventSource } from "@/lib/detection/types";
import { env } from "@/lib/env";
import type { CrossChainRef } from "@/lib/events/catalog";
import { log } from "@/lib/log";
import { recordRefundTransfer, refundRequestsByHash } from "@/lib/refunds/record";
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
export async function sweepDetectionNetwork(source: PaymentEventSource, maxSteps = 10): Promise<NetworkSweepResult> {
  const result: NetworkSweepResult = {
    network: source.network,
    fromBlock: null,
    toBlock: null,
    events: 0,
    recorded: 0,
    duplicates: 0,
    ignored: 0,
  };
  // The head and the cursor, then the cursor's check and the first range's reads, each pair at once: a
  // woken sweep waits for the slower of two round trips, not their sum. Nothing is written before both
  // answered, so a changed chain discards the reads it did not need.
  const [head, cursor] = await Promise.all([source.finalizedHead(), db().chainCursor.findUnique({ where: { network: source.network } })]);
  let from = cursor ? cursor.lastBlock + 1n : await source.startBlock(head);
  const range = BigInt(env().DETECTION_MAX_BLOCK_RANGE);
  const rangeEnd = (start: bigint) => (start + range - 1n < head ? start + range - 1n : head);
  const readRange = (start: bigint) => {
    const to = rangeEnd(start);
    return Promise.all([source.transfers(start, to), source.blockHash ? source.blockHash(to) : null]);
  };
  let first = from <= head ? readRange(from) : null;
  first?.catch(() => {});
  if (cursor && (await chainChanged(source, cursor))) {
    // Another chain under the same cursor (a devnet restarted from block 0, a new genesis) or a
    // reorg deeper than the confirmations: scan again from the start window. Recording is
    // idempotent, so transfers already recorded are not counted twice.
    from = await source.startBlock(head);
    first = null;
    log.warn("detection cursor is not on this chain any more: rescanning", {
      network: source.network,
      cursorBlock: cursor.lastBlock.toString(),
      finalizedHead: head.toString(),
      from: from.toString(),
    });
  }
  const touched = new Set<string>();
  for (let step = 0; step < maxSteps && from <= head; step++) {
    const to = rangeEnd(from);
    const [events, lastBlockHash] = await (first ?? readRange(from));
    first = null;
    result.fromBlock ??= from.toString();
    result.toBlock = to.toString();
    result.events += events.length;
    if (events.length > 0) {
      const hashes = [...new Set(events.map((e) => e.referenceHash.toLowerCase()))];
      // Refunds are fee-proxy transfers under a request's refund reference (lib/refunds): recorded the same way.
      const [requests, refunded] = await Promise.all([
        db().paymentRequest.findMany({ where: { network: source.network, referenceHash: { in: hashes } } }),
        refundRequestsByHash(source.network, hashes),
      ]);
      const byHash = new Map(requests.map((r) => [r.referenceHash.toLowerCase(), r]));
      const crossChain = await crossChainSources(requests.map((r) => r.id));
      for (const ev of events) {
        const request = byHash.get(ev.referenceHash.toLowerCase());
        const refundOf = request ? undefined : refunded.get(ev.referenceHash.toLowerCase());
        if (refundOf) count(result, await recordRefundTransfer(refundOf, ev));
        if (!request) continue;
        const who = await crossChain(request.id, source.network, ev.txHash);
        // A bridged payment's destination sender is the bridge: the payer is the source sender, or unknown (null).
        const outcome = await recordTransfer(
          request,
          who.payer === undefined ? ev : { ...ev, from: who.payer, payerAccount: undefined },
          who.ref,
        );
        count(result, outcome);
        if (outcome === "recorded") touched.add(request.id);
      }
    }
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

function count(result: NetworkSweepResult, outcome: "recorded" | "duplicate" | "ignored"): void {
  if (outcome === "recorded") result.recorded += 1;
  else if (outcome === "duplicate") result.duplicates += 1;
  else result.ignored += 1;
}

/**
 * Who paid a destination transfer that may have come over a bridge. `ref` names the source chain
 * and transaction when the routing provider delivered it. `payer` is the source transaction's
 * sender, read from the source chain itself — never the wallet the quote was made for (GET /pay's
 * `wallet=` is only a claim: a wallet can send calldata quoted for another address) nor the bridge
 * executor that sent the destination transaction. `payer: null` means it cannot be known yet (the
 * provider or the source chain did not answer): the payment is recorded without a payer, its link
 * cannot be screened and stays pending (fail closed), and attributeCrossChainPayers() retries.
 * `payer: undefined`: no bridge delivered it; the destination transaction's sender paid.
 */
export interface PayerAttribution {
  ref?: CrossChainRef;
  payer?: string | null;
}

/** The sender of a transaction, from its chain's RPC (a bridged payment's source chain, or the destination); null when it cannot be read. */
export async function transactionSender(network: NetworkId, txHash: string): Promise<string | null> {
  const client = publicClientFor(network);
  if (!client || !/^0x[0-9a-fA-F]{64}$/.test(txHash)) return null;
  try {
    const tx = await client.getTransaction({ hash: txHash as `0x${string}` });
    return getAddress(tx.from);
  } catch (err) {
    log.warn("transaction sender could not be read", {
      network,
      txHash,
      error: err instanceof Error ? err.message : String(err),
    });
    return null;
  }
}

/**
 * For requests a payer was quoted a cross-chain route for: which source transaction delivered a
 * destination payment (asked of the routing provider; the quote row remembers the answer), and who
 * sent it. A provider that says it delivered none of them leaves the payment a same-chain one; a
 * provider that cannot answer leaves the payer unknown (see PayerAttribution).
 */
async function crossChainSources(requestIds: string[]) {
  const quotes = requestIds.length
    ? await db().crossChainQuote.findMany({ where: { requestId: { in: requestIds } }, orderBy: { createdAt: "desc" } })
    : [];
  const provider = quotes.length ? routingProvider() : null;
  return async (requestId: string, network: string, txHash: string): Promise<PayerAttribution> => {
    const mine = quotes.filter((q) => q.requestId === requestId);
    if (mine.length === 0 || !isNetworkId(network)) return {};
    const theirs = mine.filter((q) => q.provider === provider?.name);
    // Quoted through a provider this deployment no longer runs: who sent it cannot be asked.
    if (!provider?.sourceOf || theirs.length === 0) return { payer: null };
    let unknown = false;
    for (const sourceNetwork of [...new Set(theirs.map((q) => q.sourceNetwork))]) {
      if (!isCrossChainNetwork(sourceNetwork)) continue;
      const found = await provider
        .sourceOf({ destinationTxHash: txHash, destinationNetwork: network, sourceNetwork })
        .catch((err: unknown) => {
          log.warn("cross-chain source lookup failed", { requestId, txHash, error: err instanceof Error ? err.message : String(err) });
          unknown = true;
          return null;
        });
      if (!found) continue;
      const quote = theirs.find((q) => q.sourceNetwork === sourceNetwork)!;
      await db().crossChainQuote.update({ where: { id: quote.id }, data: { sourceTxHash: found.sourceTxHash, destinationTxHash: txHash } });
      const payer = await transactionSender(sourceNetwork, found.sourceTxHash);
      if (payer && !sameAddress(payer, quote.payer))
        log.warn("cross-chain payment sent by another wallet than the quote's", { requestId, quoted: quote.payer, sender: payer });
      return {
        ref: {
          sourceChain: ROUTE_CHAIN_LABEL[sourceNetwork],
          sourceNetwork,
          sourceTxHash: found.sourceTxHash,
          provider: provider.name,
          ...(payer ? { payer } : {}),
        },
        payer,
      };
    }
    return unknown ? { payer: null } : {};
  };
}

/**
 * Payments recorded while their cross-chain payer could not be known (payer null on a request with
 * cross-chain quotes): asks again, and settles the links of those now attributed. A destination
 * transfer the provider says it did not deliver is the destination transaction sender's.
 */
export async function attributeCrossChainPayers(limit = 25): Promise<number> {
  // Newest first, for two weeks (past a link's default week): one that stays unknown never starves the others.
  const pending = await db().$queryRaw<{ id: string; requestId: string; network: string; txHash: string }[]>`
    SELECT p.id, p."requestId", p.network, p."txHash" FROM "Payment" p
    WHERE p.payer IS NULL AND p."createdAt" > now() - interval '14 days'
      AND EXISTS (SELECT 1 FROM "CrossChainQuote" q WHERE q."requestId" = p."requestId")
    ORDER BY p."createdAt" DESC LIMIT ${limit}`;
  if (pending.length === 0) return 0;
  const lookup = await crossChainSources([...new Set(pending.map((p) => p.requestId))]);
  const attributed = new Set<string>();
  for (const p of pending) {
    const found = await lookup(p.requestId, p.network, p.txHash);
    let payer = found.payer;
    if (payer === undefined && isNetworkId(p.network)) payer = await transactionSender(p.network, p.txHash);
    if (!payer) continue;
    await db().$transaction([
      db().payment.update({ where: { id: p.id }, data: { payer, payerEoa: payer } }),
      db().paymentRequest.updateMany({ where: { id: p.requestId, payer: null }, data: { payer } }),
    ]);
    attributed.add(p.requestId);
  }
  await settleSecurePayments([...attributed]);
  return attributed.size;
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

/** Networks whose last sweep failed: how often in a row, and when to try again. */
const outages = new Map<string, { failures: number; retryAt: number }>();

/** The detection sweep over every network; one network's failure does not stop the others. */
export async function sweepDetection(extra: readonly PaymentEventSource[] = []): Promise<NetworkSweepResult[]> {
  const results: NetworkSweepResult[] = [];
  for (const source of eventSources(extra)) {
    const down = outages.get(source.network);
    if (down && performance.now() < down.retryAt) continue;
    try {
      results.push(await sweepDetectionNetwork(source));
      if (down) log.info("detection resumed", { network: source.network, after: down.failures });
      outages.delete(source.network);
    } catch (err) {
      // RPC or database down: back off this network (doubling, ≤ 30 s) and resume from its cursor, which
      // only moves after a range is stored, so no block is skipped and nothing is recorded twice.
      const failures = (down?.failures ?? 0) + 1;
      outages.set(source.network, { failures, retryAt: performance.now() + Math.min(30_000, 250 * 2 ** Math.min(failures, 7)) });
      if (failures === 1 || failures % 10 === 0) log.warn("detection sweep failed", { network: source.network, failures, err });
    }
  }
  try {
    await attributeCrossChainPayers();
  } catch (err) {
    log.warn("cross-chain payer attribution failed", { err });
  }
  return results;
}
