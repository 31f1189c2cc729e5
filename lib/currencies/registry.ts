import { NETWORKS, type NetworkId } from "@/lib/chain/networks";
import { CONVERSION_PAYMENT_SYMBOLS, TOKENS, type Token, tokenCurrencyId } from "@/lib/chain/tokens";
import { FIAT_CURRENCIES, type FiatCurrency, fiatCurrencyHash } from "./fiat";
import type { CurrencyDto } from "./schemas";

/**
 * The currency registry: every token of the 8 networks plus the fiat invoice currencies,
 * built once at module load. Currency IDs are `SYMBOL-network`; fiat IDs are plain codes.
 */
export type Currency = { kind: "token"; id: string; token: Token; dto: CurrencyDto } | { kind: "fiat"; id: string; fiat: FiatCurrency; dto: CurrencyDto };

function tokenDto(t: Token): CurrencyDto {
  return {
    id: tokenCurrencyId(t),
    name: t.name,
    symbol: t.symbol,
    decimals: t.decimals,
    address: t.address,
    network: t.network,
    type: "ERC20",
    hash: t.network === "tron" ? t.address : t.address.toLowerCase(),
    chainId: NETWORKS[t.network].chainId,
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

const TOKEN_CURRENCIES: readonly Currency[] = TOKENS.map((token) => ({ kind: "token", id: tokenCurrencyId(token), token, dto: tokenDto(token) }));
const FIAT: readonly Currency[] = FIAT_CURRENCIES.map((fiat) => ({ kind: "fiat", id: fiat.code, fiat, dto: fiatDto(fiat) }));
const BY_ID = new Map<string, Currency>([...TOKEN_CURRENCIES, ...FIAT].map((c) => [c.id.toLowerCase(), c]));

/** Case-insensitive lookup by currency ID (`usdc-base` finds `USDC-base`). */
export function findCurrency(id: string): Currency | undefined {
  return BY_ID.get(id.toLowerCase());
}

export function tokenCurrencies(): readonly Currency[] {
  return TOKEN_CURRENCIES;
}

export function findTokenCurrency(id: string): (Currency & { kind: "token" }) | undefined {
  const c = findCurrency(id);
  return c?.kind === "token" ? c : undefined;
}

/** Tokens a fiat invoice can be paid with through a conversion proxy, optionally per network. */
export function conversionPaymentTokens(networks?: readonly NetworkId[]): Token[] {
  return TOKENS.filter((t) => CONVERSION_PAYMENT_SYMBOLS.includes(t.symbol) && !t.paymentAliasOf && (!networks || networks.includes(t.network)));
}

export function tokenDtoOf(t: Token): CurrencyDto {
  return findCurrency(tokenCurrencyId(t))?.dto ?? tokenDto(t);
}
