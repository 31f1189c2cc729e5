import { createPublicClient, type PublicClient, webSocket } from "viem";
import { allNetworkRuntimes } from "@/lib/chain/config";
import type { NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import { env } from "@/lib/env";
import { log } from "@/lib/log";

/**
 * Wakes the detection sweep when a network has a new block, instead of waiting out a fixed
 * interval: over the RPC's WebSocket (eth_subscribe newHeads, viem's watchBlockNumber) where it
 * offers one (RPC_WS_URL-style `ws(s)://` twin of the HTTP URL: same host, port and path, as anvil,
 * Alchemy and Infura serve it), otherwise by polling eth_blockNumber at half the block time it
 * observes (between MIN_POLL_MS and the sweep interval). The sweep itself is unchanged — it reads
 * from its cursor to the confirmed head — so a missed or duplicate wake-up changes only when it
 * runs, never what it records; the fixed interval stays as the floor.
 */
const MIN_POLL_MS = 100;

export function wsTwin(rpcUrl: string): string | null {
  const u = new URL(rpcUrl);
  if (u.protocol === "ws:" || u.protocol === "wss:") return rpcUrl;
  if (u.protocol !== "http:" && u.protocol !== "https:") return null;
  u.protocol = u.protocol === "https:" ? "wss:" : "ws:";
  return u.toString();
}

/** Polls eth_blockNumber, adapting to the block time it sees; calls `onBlock` on each new head. */
function pollHeads(client: PublicClient, maxMs: number, onBlock: () => void): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let last: bigint | undefined;
  let lastAt = 0;
  let blockMs = maxMs * 2;
  const tick = async () => {
    try {
      const head = await client.getBlockNumber({ cacheTime: 0 });
      const now = performance.now();
      if (last !== undefined && head > last) {
        if (lastAt > 0) blockMs = Math.round(0.7 * blockMs + (0.3 * (now - lastAt)) / Number(head - last));
        onBlock();
      }
      if (last === undefined || head > last) [last, lastAt] = [head, now];
    } catch {
      // The RPC is down: the sweep's own backoff reports it; keep polling at the slow pace.
    }
    if (!stopped) timer = setTimeout(tick, Math.max(MIN_POLL_MS, Math.min(maxMs, blockMs / 2)));
  };
  void tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** Follows every EVM network's new blocks; returns the unsubscribe. */
export function followNewBlocks(onBlock: (network: NetworkId) => void): () => void {
  const maxMs = env().DETECTION_INTERVAL_MS;
  const stops: (() => void)[] = [];
  for (const rt of allNetworkRuntimes()) {
    if (rt.network.kind !== "evm" || !rt.rpcUrl) continue;
    const network = rt.network.id as NetworkId;
    const http = publicClientFor(network);
    if (!http) continue;
    const wake = () => onBlock(network);
    const ws = wsTwin(rt.rpcUrl);
    let stop: () => void = () => {};
    const fallBack = (reason: unknown) => {
      stop();
      log.info("following blocks by polling", {
        network,
        reason: reason instanceof Error ? reason.message.split("\n")[0] : String(reason),
      });
      stop = pollHeads(http, maxMs, wake);
    };
    if (!ws) {
      stop = pollHeads(http, maxMs, wake);
    } else {
      try {
        const client = createPublicClient({ transport: webSocket(ws, { retryCount: 0, timeout: 5_000 }) });
        stop = client.watchBlockNumber({ emitMissed: false, onBlockNumber: wake, onError: fallBack });
      } catch (err) {
        fallBack(err);
      }
    }
    stops.push(() => stop());
  }
  return () => {
    for (const s of stops) s();
  };
}
