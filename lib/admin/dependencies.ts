import Redis from "ioredis";
import { allNetworkRuntimes } from "@/lib/chain/config";
import { publicClientFor } from "@/lib/chain/reader";
import { env } from "@/lib/env";

export type DependencyState = "up" | "down";

export interface Dependencies {
  database: DependencyState;
  /** "not_configured" without REDIS_URL (counters in memory); "down": counting per instance until it is back. */
  redis: DependencyState | "not_configured";
  /** Each EVM network with an RPC: does it answer eth_blockNumber within RPC_CHECK_MS. */
  rpc: Record<string, DependencyState>;
}

const RPC_CHECK_MS = 2_000;

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

let probe: { url: string; client: Redis } | undefined;

/** PING on a connection of the probe's own (the limiter's fails soft, so it never says Redis is down). */
async function redisState(url: string): Promise<DependencyState> {
  if (probe?.url !== url) {
    probe?.client.disconnect();
    const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: RPC_CHECK_MS, lazyConnect: true });
    client.on("error", () => {}); // the state is the answer; the limiter logs the outage
    probe = { url, client };
  }
  try {
    if (probe.client.status === "wait") await within(probe.client.connect(), RPC_CHECK_MS);
    return (await within(probe.client.ping(), RPC_CHECK_MS)) === "PONG" ? "up" : "down";
  } catch {
    return "down";
  }
}

/**
 * Which dependency is down, for GET /api/health: the RPCs are asked in parallel (bounded by
 * RPC_CHECK_MS, so a cut RPC cannot hang the probe); Redis answers a PING.
 */
export async function dependencyStates(database: DependencyState): Promise<Dependencies> {
  const url = env().REDIS_URL;
  const redis = url ? await redisState(url) : "not_configured";
  const evm = allNetworkRuntimes().filter((rt) => rt.network.kind === "evm" && rt.rpcUrl);
  const states = await Promise.all(
    evm.map(async (rt): Promise<[string, DependencyState]> => {
      const client = publicClientFor(rt.network.id);
      if (!client) return [rt.network.id, "down"];
      try {
        await within(client.getBlockNumber({ cacheTime: 0 }), RPC_CHECK_MS);
        return [rt.network.id, "up"];
      } catch {
        return [rt.network.id, "down"];
      }
    }),
  );
  return { database, redis, rpc: Object.fromEntries(states) };
}
