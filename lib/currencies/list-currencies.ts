import { isNetworkId, NETWORK_IDS, type NetworkId } from "@/lib/chain/networks";
import { type CurrencyDto, conversionPaymentCurrencies, findCurrency, tokenCurrencies } from "@/lib/currencies/registry";
import { invalidField, notFound } from "@/lib/errors";

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
 * `id` is given or `firstOnly=true` (as the reference API does). Fiat invoice currencies
 * are found by `id` (USD, EUR, ...); the unfiltered list holds the network tokens.
 */
export function listCurrencies(q: ListCurrenciesQuery): CurrencyDto | CurrencyDto[] {
  if (q.id !== undefined) {
    const c = findCurrency(q.id);
    const matches =
      c &&
      (q.network === undefined || c.dto.network === q.network) &&
      (q.symbol === undefined || c.dto.symbol.toLowerCase() === q.symbol.toLowerCase());
    if (!c || !matches) throw notFound("Token not found");
    return c.dto;
  }
  const network = q.network === undefined ? undefined : parseNetwork("network", q.network);
  const symbol = q.symbol?.toLowerCase();
  const out: CurrencyDto[] = [];
  for (const c of tokenCurrencies()) {
    if (network && c.dto.network !== network) continue;
    if (symbol && c.dto.symbol.toLowerCase() !== symbol) continue;
    out.push(c.dto);
  }
  if (q.firstOnly === "true") {
    const first = out[0];
    if (!first) throw notFound("Token not found");
    return first;
  }
  return out;
}

let allCurrenciesJson: string | undefined;

/** The unfiltered list never changes within a process: serialise it once. */
export function listAllCurrenciesJson(): string {
  allCurrenciesJson ??= JSON.stringify(listCurrencies({}));
  return allCurrenciesJson;
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
}

/**
 * GET /v2/currencies/{currencyId}/conversion-routes: the payment currencies an invoice in
 * `currencyId` can be paid with. A fiat invoice is paid through the conversion proxy with
 * USDC, USDT, DAI or FAU; a token invoice is paid in that token.
 */
export function getConversionRoutes(currencyId: string, q: ConversionRoutesQuery): ConversionRoutes {
  const currency = findCurrency(currencyId);
  if (!currency) throw notFound("Token not found");
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
  const routes =
    currency.kind === "fiat"
      ? conversionPaymentCurrencies(networks)
      : networks && !networks.includes(currency.token.network)
        ? []
        : [currency.dto];
  const where = q.networks !== undefined ? { networks: networks ?? [] } : { network: q.network ?? null };
  return { currencyId: currency.id, ...where, conversionRoutes: routes };
}
