import { allNetworkRuntimes } from "@/lib/chain/config";
import type { NetworkId } from "@/lib/chain/networks";
import { CONVERSION_PAYMENT_SYMBOLS, type Token, tokenCurrencyId } from "@/lib/chain/tokens";
import { FIAT_CURRENCIES, type FiatCurrency, fiatCurrencyHash } from "@/lib/currencies/fiat";

/**
 * The currency registry: every token of the 8 networks (with configured address overrides,
 * e.g. a local devnet's) plus the fiat invoice currencies, built once on first use.
 * Currency IDs are `SYMBOL-network`; fiat IDs are plain codes.
 */
/** A currency as the API lists it (GET /v2/currencies). */
export interface CurrencyDto {
  id: string;
  name: string;
  symbol: string;
  decimals: number;
  address: string | null;
  network: string | null;
  type: "ERC20" | "ISO4217";
  hash: string;
  chainId: number | null;
}

export type Currency =
  | { kind: "token"; id: string; token: Token; dto: CurrencyDto }
  | { kind: "fiat"; id: string; fiat: FiatCurrency; dto: CurrencyDto };

function tokenDto(t: Token, chainId: number): CurrencyDto {
  return {
    id: tokenCurrencyId(t),
    name: t.name,
    symbol: t.symbol,
    decimals: t.decimals,
    address: t.address,
    network: t.network,
    type: "ERC20",
    hash: t.network === "tron" ? t.address : t.address.toLowerCase(),
    chainId,
  };
}

function fiatDto(f: FiatCurrency): CurrencyDto {
  return {
    id: f.code,
    name: f.name,
    symbol: f.code,
    decimals: f.decimals,
    address: null,
    network: null,
    type: "ISO4217",
    hash: fiatCurrencyHash(f.code),
    chainId: null,
  };
}

interface Registry {
  tokens: readonly (Currency & { kind: "token" })[];
  byId: Map<string, Currency>;
}

let registry: Registry | undefined;

function getRegistry(): Registry {
  if (!registry) {
    const tokens = allNetworkRuntimes().flatMap((rt) =>
      rt.tokens.map((token) => ({ kind: "token" as const, id: tokenCurrencyId(token), token, dto: tokenDto(token, rt.network.chainId) })),
    );
    const fiat: Currency[] = FIAT_CURRENCIES.map((f) => ({ kind: "fiat", id: f.code, fiat: f, dto: fiatDto(f) }));
    registry = { tokens, byId: new Map<string, Currency>([...tokens, ...fiat].map((c) => [c.id.toLowerCase(), c])) };
  }
  return registry;
}

/** Tests and the devnet change chain configuration at run time. */
export function resetCurrencyRegistry(): void {
  registry = undefined;
}

/** Case-insensitive lookup by currency ID (`usdc-base` finds `USDC-base`). */
export function findCurrency(id: string): Currency | undefined {
  return getRegistry().byId.get(id.toLowerCase());
}

export function tokenCurrencies(): readonly (Currency & { kind: "token" })[] {
  return getRegistry().tokens;
}

export function findTokenCurrency(id: string): (Currency & { kind: "token" }) | undefined {
  const c = findCurrency(id);
  return c?.kind === "token" ? c : undefined;
}

/** Tokens a fiat invoice can be paid with through a conversion proxy, optionally per network. */
export function conversionPaymentCurrencies(networks?: readonly NetworkId[]): CurrencyDto[] {
  return getRegistry()
    .tokens.filter(
      ({ token: t }) => CONVERSION_PAYMENT_SYMBOLS.includes(t.symbol) && !t.paymentAliasOf && (!networks || networks.includes(t.network)),
    )
    .map((c) => c.dto);
}
