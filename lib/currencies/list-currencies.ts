import { isNetworkId, NETWORK_IDS, type NetworkId } from "@/lib/chain/networks";
import { conversionRoute, conversionUnavailable } from "@/lib/chain/rate-source";
import {
  type CurrencyDto,
  conversionPaymentCurrencies,
  findCurrency,
  findListedCurrency,
  isListedNetwork,
  listedCurrencies,
  listedCurrenciesJson,
  listedNetworks,
} from "@/lib/currencies/registry";
import { invalidField, notFound } from "@/lib/errors";
import { log } from "@/lib/log";

export interface ListCurrenciesQuery {
  network?: string;
  symbol?: string;
  id?: string;
  firstOnly?: "true" | "false";
}

function parseNetwork(field: string, value: string): NetworkId {
  if (!isNetworkId(value)) throw invalidField(field, `Unknown network "${value}"; expected one of ${NETWORK_IDS.join(", ")}`);
  return value;
}

/**
 * GET /v2/currencies. Returns an array of currencies, or a single currency object when
 * `id` is given or `firstOnly=true` (as the reference API does). The list holds the tokens of the
 * 8 networks (payable) and the reference's catalog (listed only: lib/currencies/registry.ts);
 * fiat currencies, the catalog's ISO 4217 codes included, are found by `id` (USD, EUR, CHF, ...).
 */
export function listCurrencies(q: ListCurrenciesQuery): CurrencyDto | CurrencyDto[] {
  if (q.id !== undefined) {
    const c = findListedCurrency(q.id);
    const matches =
      c &&
      (q.network === undefined || c.network === q.network) &&
      (q.symbol === undefined || c.symbol.toLowerCase() === q.symbol.toLowerCase());
    if (!c || !matches) throw notFound("Token not found");
    return c;
  }
  if (q.network !== undefined && !isListedNetwork(q.network))
    throw invalidField("network", `Unknown network "${q.network}"; expected one of ${listedNetworks().join(", ")}`);
  const symbol = q.symbol?.toLowerCase();
  const out = listedCurrencies().filter(
    (c) => (q.network === undefined || c.network === q.network) && (symbol === undefined || c.symbol.toLowerCase() === symbol),
  );
  if (q.firstOnly === "true") {
    const first = out[0];
    if (!first) throw notFound("Token not found");
    return first;
  }
  return out;
}

/** The unfiltered list never changes within a configuration: serialised once (lib/currencies/registry.ts). */
export function listAllCurrenciesJson(): string {
  return listedCurrenciesJson();
}

export interface ConversionRoutesQuery {
  network?: string;
  networks?: string;
}

export interface ConversionRoutes {
  currencyId: string;
  network?: string | null;
  networks?: string[];
  conversionRoutes: CurrencyDto[];
  /** Networks whose routes were read from their ChainlinkConversionPath (the others: static configuration). */
  verifiedOnChain?: string[];
}

/**
 * The tokens an invoice in `fiat` (not USD) can really be paid with through the conversion proxy: on a
 * network with an RPC, those with a feed path on its ChainlinkConversionPath; on one without (or whose
 * RPC fails), the configured conversion currencies of a network that has conversion contracts.
 */
async function fiatConversionRoutes(fiat: string, networks: NetworkId[] | undefined) {
  const candidates = conversionPaymentCurrencies(networks).filter(
    (c) => c.network && isNetworkId(c.network) && conversionUnavailable(c.network) === null,
  );
  const byNetwork = new Map<NetworkId, CurrencyDto[]>();
  for (const c of candidates) byNetwork.set(c.network as NetworkId, [...(byNetwork.get(c.network as NetworkId) ?? []), c]);
  const verified: string[] = [];
  const routes: CurrencyDto[] = [];
  for (const [network, list] of byNetwork) {
    const checked = await Promise.all(
      list.map(async (c) => {
        const token = findCurrency(c.id);
        if (token?.kind !== "token") return undefined;
        // Tron's routes are its rate source's (lib/chain/rate-source.ts): the same feeds on its rate network.
        return conversionRoute(network, fiat, token.token).then(
          (r) => r.path,
          (err: unknown) => {
            log.warn("conversion route check failed", { network, token: c.id, error: err instanceof Error ? err.message : String(err) });
            return undefined;
          },
        );
      }),
    );
    if (checked.every((p) => p !== undefined)) verified.push(network);
    // undefined (no RPC, or it failed): the configuration decides; null: no feed path on chain.
    routes.push(...list.filter((_, i) => checked[i] !== null));
  }
  return { routes, verified };
}

/**
 * GET /v2/currencies/{currencyId}/conversion-routes: the payment currencies an invoice in
 * `currencyId` can be paid with. A fiat invoice is paid through the conversion proxy with
 * USDC, USDT, DAI or FAU (USD: 1:1 in dollar stablecoins; EUR, GBP, CNY, JPY: what the network's
 * price feeds can convert to, checked on chain where an RPC is configured); a token invoice is paid in that token.
 * A currency of the reference's catalog that cannot be invoiced here (CHF, AAVE-mainnet) has no route.
 */
export async function getConversionRoutes(currencyId: string, q: ConversionRoutesQuery): Promise<ConversionRoutes> {
  const currency = findCurrency(currencyId);
  const listed = currency ? undefined : findListedCurrency(currencyId);
  if (!currency && !listed) throw notFound("Token not found");
  if (q.network !== undefined && q.networks !== undefined) throw invalidField("networks", "Use either network or networks, not both");
  let networks: NetworkId[] | undefined;
  if (q.network !== undefined) networks = [parseNetwork("network", q.network)];
  if (q.networks !== undefined) {
    const parts = q.networks
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (parts.length === 0) throw invalidField("networks", "List at least one network");
    networks = parts.map((p) => parseNetwork("networks", p));
  }
  const where = q.networks !== undefined ? { networks: networks ?? [] } : { network: q.network ?? null };
  if (!currency) return { currencyId: listed!.id, ...where, conversionRoutes: [] };
  if (currency.kind === "fiat" && currency.fiat.code !== "USD") {
    const { routes, verified } = await fiatConversionRoutes(currency.fiat.code, networks);
    return { currencyId: currency.id, ...where, conversionRoutes: routes, verifiedOnChain: verified };
  }
  const routes =
    currency.kind === "fiat"
      ? conversionPaymentCurrencies(networks)
      : networks && !networks.includes(currency.token.network)
        ? []
        : [currency.dto];
  return { currencyId: currency.id, ...where, conversionRoutes: routes };
}
