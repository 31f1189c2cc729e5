import { keccak256, toHex, zeroAddress } from "viem";
import { asEvmAddress } from "@/lib/chain/address";
import { type NetworkRef, runtimeOf } from "@/lib/chain/config";
import { chainlinkConversionPathAbi } from "@/lib/chain/conversion-abis";
import { publicClientFor } from "@/lib/chain/reader";
import type { Token } from "@/lib/chain/tokens";
import { AppError } from "@/lib/errors";
import { formatAmount } from "@/lib/money";

/**
 * Fiat-to-token conversion through Request Network's ChainlinkConversionPath and Erc20ConversionProxy.
 *
 * What the real contracts do (0.2.x path, 0.1.x proxy bytecode from @requestnetwork/smart-contracts):
 * - a path is `[from, …, to]` of currency addresses: a fiat currency is its Request Network hash
 *   (8 decimals, `fiatHash`), a token its address (its ERC-20 decimals);
 * - each hop `a → b` uses `allAggregators[a][b]`, or else `allAggregators[b][a]` in reverse; an
 *   aggregator is read through `decimals()`, `latestAnswer()` and `latestTimestamp()`;
 * - so `[EUR, token]` works only with an EUR↔token feed; with the usual Chainlink feeds (EUR/USD and
 *   token/USD) the path is `[EUR, USD, token]`. `conversionPath` tries the direct hop first, then via USD;
 * - the proxy pays `requestAmount × rate / decimals` of the token (fee alike), reverts
 *   "Amount to pay is over the user limit" above maxToSpend, and "aggregator rate is outdated" when
 *   `block.timestamp − oldest hop's latestTimestamp > maxRateTimespan` (0 = no limit).
 */

/** Decimals of a fiat amount in a conversion path (Chainlink fiat feeds): 100 EUR = 100_00000000. */
export const FIAT_PATH_DECIMALS = 8;

/** Default `maxRateTimespan` of a conversion payment, in seconds (docs/spec/DECISIONS.md). */
export const DEFAULT_MAX_RATE_TIMESPAN = 1800;

/**
 * Request Network currency hash of a fiat currency: the last 20 bytes of keccak256 of the lowercased
 * JSON {"type":"ISO4217","value":"EUR"} (sorted keys). USD = 0x775eb53d…386b.
 */
export function fiatHash(code: string): `0x${string}` {
  const json = JSON.stringify({ type: "ISO4217", value: code }).toLowerCase();
  return `0x${keccak256(toHex(json)).slice(-40)}`;
}

export const USD_HASH = fiatHash("USD");

/** The network's conversion contracts, when configured (never on Tron; off on a devnet without them). */
export function conversionContracts(network: NetworkRef): { proxy: string; path: string } | null {
  const rt = runtimeOf(network);
  if (rt.network.kind !== "evm") return null;
  const { erc20ConversionProxy: proxy, chainlinkConversionPath: path } = rt.contracts;
  return proxy && path ? { proxy, path } : null;
}

function upstream(err: unknown): never {
  throw new AppError(
    "upstream_unavailable",
    `Could not read the conversion rate: ${err instanceof Error ? err.message.split("\n")[0] : "RPC error"}`,
  );
}

/**
 * The path the network's ChainlinkConversionPath can convert `fromHash` to `token` with: `[from, token]`
 * when a feed links them directly, else `[from, USD, token]`, else null (no route). Null too when the
 * network has no conversion contracts. Throws upstream_unavailable when the RPC fails; `undefined`
 * when the network has no RPC to ask (callers fall back to the configuration).
 */
export async function conversionPath(network: NetworkRef, fromHash: string, token: Token): Promise<`0x${string}`[] | null | undefined> {
  const rt = runtimeOf(network);
  const contracts = conversionContracts(rt);
  if (!contracts) return null;
  const client = publicClientFor(rt);
  if (!client) return undefined;
  const pathContract = asEvmAddress(contracts.path);
  const from = asEvmAddress(fromHash);
  const to = asEvmAddress(token.address);
  const linked = async (a: `0x${string}`, b: `0x${string}`) => {
    const [ab, ba] = await Promise.all([
      client.readContract({ address: pathContract, abi: chainlinkConversionPathAbi, functionName: "allAggregators", args: [a, b] }),
      client.readContract({ address: pathContract, abi: chainlinkConversionPathAbi, functionName: "allAggregators", args: [b, a] }),
    ]);
    return ab !== zeroAddress || ba !== zeroAddress;
  };
  try {
    if (await linked(from, to)) return [from, to];
    if (from.toLowerCase() !== USD_HASH && (await linked(from, USD_HASH)) && (await linked(USD_HASH, to))) return [from, USD_HASH, to];
    return null;
  } catch (err) {
    return upstream(err);
  }
}

export interface ConversionRate {
  path: `0x${string}`[];
  /** Output base units per input base unit, scaled by `scale` (ChainlinkConversionPath.getRate). */
  rate: bigint;
  scale: bigint;
  /** Oldest `latestTimestamp()` of the path's feeds (unix seconds): what maxRateTimespan is checked against. */
  oldestRateTimestamp: number;
  /** Time of the block the rate was read at (unix seconds): the chain's clock, which the contract uses. */
  blockTimestamp: number;
}

/** Reads the path's rate at the latest block (or at `blockNumber`). */
export async function readConversionRate(network: NetworkRef, path: readonly string[], blockNumber?: bigint): Promise<ConversionRate> {
  const rt = runtimeOf(network);
  const contracts = conversionContracts(rt);
  const client = publicClientFor(rt);
  if (!contracts || !client) throw new AppError("upstream_unavailable", `No RPC or conversion contracts configured for ${rt.network.id}`);
  const addresses = path.map(asEvmAddress);
  try {
    const block = await client.getBlock(blockNumber === undefined ? { blockTag: "latest" } : { blockNumber });
    const [rate, oldest, scale] = await client.readContract({
      address: asEvmAddress(contracts.path),
      abi: chainlinkConversionPathAbi,
      functionName: "getRate",
      args: [addresses],
      blockNumber: block.number ?? undefined,
    });
    return { path: addresses, rate, scale, oldestRateTimestamp: Number(oldest), blockTimestamp: Number(block.timestamp) };
  } catch (err) {
    return upstream(err);
  }
}

/** What the proxy computes: `amount × rate / scale`, rounded down. */
export function convert(amount: bigint, r: Pick<ConversionRate, "rate" | "scale">): bigint {
  return (amount * r.rate) / r.scale;
}

/**
 * A rate as people read it: output units per one input unit, as a decimal string with up to
 * `precision` decimals (1 EUR = "1.08" USDC). `inDecimals`/`outDecimals`: the path ends' decimals.
 */
export function humanRate(r: Pick<ConversionRate, "rate" | "scale">, inDecimals: number, outDecimals: number, precision = 8): string {
  // value = rate/scale × 10^(in − out); computed in integers at `precision` decimals.
  const num = r.rate * 10n ** BigInt(inDecimals + precision);
  const den = r.scale * 10n ** BigInt(outDecimals);
  return formatAmount(num / den, precision);
}

/** The effective rate of a payment: `paid` output base units for `requested` input base units. */
export function effectiveRate(paid: bigint, requested: bigint, inDecimals: number, outDecimals: number, precision = 8): string | null {
  if (requested === 0n) return null;
  return humanRate({ rate: paid, scale: requested }, inDecimals, outDecimals, precision);
}
