import { type Address, erc20Abi, getAddress, type PublicClient } from "viem";
import { log } from "@/lib/log";

/** Multicall3's address: the same on every chain it is deployed to (mainnet, Base, Arbitrum, …). */
export const MULTICALL3 = "0xcA11bde05977b3631167028862bE2a173976CA11" as const;

/**
 * Reads per eth_call: a deployless call carries Multicall3's creation code and the calls as initcode,
 * which nodes cap at 49 152 bytes (EIP-3860: "max initcode size exceeded" beyond ~140 reads on anvil); a
 * deployed Multicall3 takes plain calldata. And eth_calls in flight at once.
 */
const READS_PER_CALL = { multicall3: 500, deployless: 120 } as const;
const PARALLEL_CALLS = 6;

const hasMulticall3 = new Map<PublicClient, boolean>();

/**
 * How the look-ahead batches its reads on `client`: through Multicall3 where it is deployed, else
 * viem's deployless multicall (the same aggregate3 code sent with the eth_call, not deployed:
 * anvil has no Multicall3 by default). Either way one eth_call carries hundreds of reads.
 */
export async function batchMode(client: PublicClient): Promise<"multicall3" | "deployless"> {
  let has = hasMulticall3.get(client);
  if (has === undefined) {
    const code = await client.getCode({ address: MULTICALL3 }).catch(() => undefined);
    has = code !== undefined && code !== "0x";
    hasMulticall3.set(client, has);
  }
  return has ? "multicall3" : "deployless";
}

export interface PayerPosition {
  balance: bigint;
  allowance: bigint;
}

export const positionKey = (token: string, owner: string) => `${token.toLowerCase()}:${owner.toLowerCase()}`;

/**
 * The token balance and the allowance to `spender` of every (token, owner), in batched eth_calls.
 * A read that fails (a token that reverts) is left out of the map: the caller does not warn on a
 * position it could not read.
 */
export async function readPositions(
  client: PublicClient,
  spender: string,
  pairs: readonly { token: string; owner: string }[],
): Promise<{ positions: Map<string, PayerPosition>; calls: number; mode: "multicall3" | "deployless" }> {
  const unique = [...new Map(pairs.map((p) => [positionKey(p.token, p.owner), p])).values()];
  const positions = new Map<string, PayerPosition>();
  const mode = await batchMode(client);
  if (unique.length === 0) return { positions, calls: 0, mode };
  const contracts = unique.flatMap((p) => {
    const token = getAddress(p.token) as Address;
    const owner = getAddress(p.owner) as Address;
    return [
      { address: token, abi: erc20Abi, functionName: "balanceOf" as const, args: [owner] as const },
      { address: token, abi: erc20Abi, functionName: "allowance" as const, args: [owner, getAddress(spender)] as const },
    ];
  });
  // Chunks of READS_PER_CALL reads, each one eth_call (a few at once): counted exactly.
  const chunks: (typeof contracts)[] = [];
  const per = READS_PER_CALL[mode];
  for (let i = 0; i < contracts.length; i += per) chunks.push(contracts.slice(i, i + per));
  const results: { status: "success" | "failure"; result?: unknown }[] = [];
  for (let i = 0; i < chunks.length; i += PARALLEL_CALLS) {
    const answers = await Promise.all(
      chunks.slice(i, i + PARALLEL_CALLS).map((chunk) =>
        client.multicall({
          contracts: chunk,
          allowFailure: true,
          batchSize: 0,
          ...(mode === "multicall3" ? { multicallAddress: MULTICALL3 } : { deployless: true }),
        }),
      ),
    );
    for (const a of answers) results.push(...(a as typeof results));
  }
  const failed = results.filter((r) => r.status !== "success");
  // A whole batch failing is the call, not a token: say so (the look-ahead then warns on nothing).
  if (failed.length > 0)
    log.warn("look-ahead reads failed", {
      failed: failed.length,
      of: results.length,
      error: String((failed[0] as { error?: unknown }).error).split("\n")[0],
    });
  unique.forEach((p, i) => {
    const b = results[2 * i]!;
    const a = results[2 * i + 1]!;
    if (b.status === "success" && a.status === "success")
      positions.set(positionKey(p.token, p.owner), { balance: b.result as bigint, allowance: a.result as bigint });
  });
  return { positions, calls: chunks.length, mode };
}
