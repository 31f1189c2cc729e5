import { type NetworkRef, networkRuntime, runtimeOf } from "@/lib/chain/config";
import { conversionContracts, conversionPath, fiatHash, readConversionRate, USD_HASH } from "@/lib/chain/conversion";
import type { NetworkId } from "@/lib/chain/networks";
import { CONVERSION_PAYMENT_SYMBOLS, type Token } from "@/lib/chain/tokens";
import { env } from "@/lib/env";
import { AppError, invalidField } from "@/lib/errors";

/**
 * The rate of a conversion on a network without a conversion proxy (Tron): Duebill fixes the token
 * amount itself for a while (a quote, lib/payments/quoted-conversion.ts), so it needs a rate it can
 * read off chain. The interface is ConversionRateSource; the implementation is the one rate source
 * the EVM conversions use, ChainlinkConversionPath, read on an EVM network with conversion
 * contracts and an RPC (TRON_CONVERSION_RATE_NETWORK, mainnet by default; the devnet's "sepolia"
 * locally): a Tron token is priced as the same token there (USDT-tron as USDT-mainnet: the same
 * issuer's dollar token, with the same Chainlink USDT/USD feed), so the path is the one that network's
 * proxy would use, `[EUR, USD, USDT]`.
 */
export interface RateQuote {
  /** Base units of the payment token per base unit of the invoice (fiat, 8 decimals): `amount × rate / scale`. */
  rate: bigint;
  scale: bigint;
  /** Invoice base units → USD base units (both 8 decimals); null when the source has no fiat → USD feed. */
  toUsd: { rate: bigint; scale: bigint } | null;
  /** The path read on `network`: currency hashes, then that network's token. */
  path: string[];
  network: NetworkId;
  /** Update time of the path's oldest feed, and time of the block read at (unix seconds). */
  updatedAt: number;
  readAt: number;
}

export interface ConversionRateSource {
  readonly kind: "chainlink";
  /** The network the rate is read on. */
  readonly network: NetworkId;
  /** The path from `fiat` to `token`'s counterpart: null when there is none, undefined when it cannot be asked (no RPC). */
  route(fiat: string, token: Token): Promise<string[] | null | undefined>;
  /** The rate now; 400 naming paymentCurrency without a path, 503 when the RPC fails or is missing. */
  quote(fiat: string, token: Token): Promise<RateQuote>;
}

/** ChainlinkConversionPath of `network`, for tokens of another network priced as their namesake there. */
export function chainlinkRateSource(network: NetworkId): ConversionRateSource {
  const counterpart = (token: Token) => networkRuntime(network).tokens.find((t) => t.symbol === token.symbol && !t.paymentAliasOf);
  const route = async (fiat: string, token: Token) => {
    const there = counterpart(token);
    return there ? conversionPath(network, fiatHash(fiat), there) : null;
  };
  return {
    kind: "chainlink",
    network,
    route,
    async quote(fiat, token) {
      const there = counterpart(token);
      const path = there ? await conversionPath(network, fiatHash(fiat), there) : null;
      if (path === undefined)
        throw new AppError("upstream_unavailable", `Conversion rates are read on ${network}, which has no RPC configured`);
      if (path === null || !there)
        throw invalidField("paymentCurrency", `no ${fiat} price feed path to ${token.symbol} on ${network}'s ChainlinkConversionPath`);
      const [r, usd] = await Promise.all([
        readConversionRate(network, path),
        readConversionRate(network, [fiatHash(fiat), USD_HASH]).catch(() => null),
      ]);
      // getRate is in `there`'s base units; the payment token may have other decimals.
      return {
        rate: r.rate * 10n ** BigInt(token.decimals),
        scale: r.scale * 10n ** BigInt(there.decimals),
        toUsd: usd && { rate: usd.rate, scale: usd.scale },
        path,
        network,
        updatedAt: r.oldestRateTimestamp,
        readAt: r.blockTimestamp,
      };
    },
  };
}

/** The rate source of `network`'s quoted conversions: Tron's, when its rate network has conversion contracts; else null. */
export function quotedRateSource(network: NetworkRef): ConversionRateSource | null {
  if (runtimeOf(network).network.kind !== "tron") return null;
  const rateNetwork = env().TRON_CONVERSION_RATE_NETWORK;
  return conversionContracts(rateNetwork) ? chainlinkRateSource(rateNetwork) : null;
}

/** Whether a fiat invoice (EUR, GBP, CNY, JPY) can be paid in `token` on `network`: its conversion proxy, or a quoted rate. */
export function conversionConfigured(token: Token, network: NetworkRef = token.network): boolean {
  if (token.paymentAliasOf || !CONVERSION_PAYMENT_SYMBOLS.includes(token.symbol)) return false;
  return conversionContracts(network) !== null || quotedRateSource(network) !== null;
}

/** Why `network` takes no fiat conversion at all (for a 400), or null when it does. */
export function conversionUnavailable(network: NetworkRef): string | null {
  const rt = runtimeOf(network);
  if (conversionContracts(rt) || quotedRateSource(rt)) return null;
  return rt.network.kind === "tron"
    ? `tron has no conversion rate source: TRON_CONVERSION_RATE_NETWORK (${env().TRON_CONVERSION_RATE_NETWORK}) has no ChainlinkConversionPath configured`
    : `${rt.network.id} has no conversion proxy configured`;
}

/**
 * The path a fiat invoice is converted along: on the network's own ChainlinkConversionPath, or, for a
 * quoted network (Tron), on its rate source's. null: no route; undefined: no RPC to ask. `where` names it.
 */
export async function conversionRoute(network: NetworkRef, fiat: string, token: Token) {
  const quoted = quotedRateSource(network);
  const id = runtimeOf(network).network.id;
  if (quoted)
    return { path: await quoted.route(fiat, token), where: `${quoted.network}'s ChainlinkConversionPath (the rate source of ${id})` };
  return { path: await conversionPath(network, fiatHash(fiat), token), where: `${id}'s ChainlinkConversionPath` };
}
