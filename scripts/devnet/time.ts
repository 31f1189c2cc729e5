/**
 * Moves a running devnet's clock: `npm run devnet -- time +30d` (scripts/devnet/cli.ts). A recurring
 * payment is due when the chain's latest block time reaches its due time, so warping the devnet runs
 * schedules. Anvil only: evm_increaseTime / evm_setNextBlockTimestamp, then evm_mine so the new time
 * is the latest block's (what the contract and the executor read).
 */
import { existsSync, readFileSync } from "node:fs";

export const DEFAULT_DEVNET_RPC = "http://127.0.0.1:8545";

const UNIT_SECONDS = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800 } as const;

/** What to do with the clock: move forward by seconds, or jump to a unix time. */
export type ClockTarget = { kind: "shift"; seconds: number } | { kind: "at"; timestamp: number };

/**
 * `+30d`, `+12h`, `+90m`, `+45s`, `+2w` (sums allowed: `+1d12h`), or an absolute time: an ISO date
 * (`2028-01-31T12:00:00Z`; a date without a zone is UTC) or `@<unix seconds>`.
 */
export function parseClockTarget(text: string): ClockTarget {
  const t = text.trim();
  if (t.startsWith("+")) {
    const parts = [...t.slice(1).matchAll(/(\d+)([smhdw])/g)];
    if (parts.length === 0 || parts.map((p) => p[0]).join("") !== t.slice(1)) {
      throw new Error(`"${text}": expected +<n><unit>[<n><unit>…] with units s, m, h, d, w (e.g. +30d, +1d12h)`);
    }
    const seconds = parts.reduce((sum, p) => sum + Number(p[1]) * UNIT_SECONDS[p[2] as keyof typeof UNIT_SECONDS], 0);
    if (seconds <= 0) throw new Error(`"${text}": the shift must be positive`);
    return { kind: "shift", seconds };
  }
  if (t.startsWith("-")) throw new Error(`"${text}": a chain's clock only moves forward`);
  if (/^@\d+$/.test(t)) return { kind: "at", timestamp: Number(t.slice(1)) };
  const iso = /^\d{4}-\d{2}-\d{2}(T[\d:.]+)?$/.test(t) ? `${t}${t.includes("T") ? "" : "T00:00:00"}Z` : t;
  const ms = Date.parse(iso);
  if (!/^\d{4}-\d{2}-\d{2}/.test(t) || Number.isNaN(ms)) throw new Error(`"${text}": expected +30d style, an ISO date or @<unix seconds>`);
  return { kind: "at", timestamp: Math.floor(ms / 1000) };
}

async function rpc<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  let res: Response;
  try {
    res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
  } catch {
    throw new Error(`no devnet answers at ${rpcUrl} (start it with npm run dev or npm run devnet)`);
  }
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** Timestamp of the latest block, in unix seconds. */
export async function chainTime(rpcUrl: string): Promise<number> {
  const block = await rpc<{ timestamp: string }>(rpcUrl, "eth_getBlockByNumber", ["latest", false]);
  return Number(block.timestamp);
}

/** Moves the clock and mines a block at the new time; returns the latest block time before and after. */
export async function moveDevnetClock(rpcUrl: string, target: ClockTarget): Promise<{ before: number; after: number }> {
  const before = await chainTime(rpcUrl);
  if (target.kind === "shift") {
    await rpc(rpcUrl, "evm_increaseTime", [target.seconds]);
  } else {
    if (target.timestamp <= before) {
      throw new Error(
        `${new Date(target.timestamp * 1000).toISOString()} is not after the chain's time ${new Date(before * 1000).toISOString()}`,
      );
    }
    await rpc(rpcUrl, "evm_setNextBlockTimestamp", [target.timestamp]);
  }
  await rpc(rpcUrl, "evm_mine", []);
  return { before, after: await chainTime(rpcUrl) };
}

/** --rpc, else the rpcUrl in the devnet's config file (.data/devnet.json), else anvil's default port. */
export function devnetRpcUrl(explicit: string | undefined, configFile: string): string {
  if (explicit) return explicit;
  if (existsSync(configFile)) {
    const config = JSON.parse(readFileSync(configFile, "utf8")) as Record<string, { rpcUrl?: string }>;
    const url = Object.values(config).find((n) => typeof n?.rpcUrl === "string")?.rpcUrl;
    if (url) return url;
  }
  return DEFAULT_DEVNET_RPC;
}
