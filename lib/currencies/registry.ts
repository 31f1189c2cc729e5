import { allNetworkRuntimes } from "@/lib/chain/config";
import type { NetworkId } from "@/lib/chain/networks";
import { CONVERSION_PAYMENT_SYMBOLS, type Token, tokenCurrencyId } from "@/lib/chain/tokens";
import { type CurrencyDto, REFERENCE_CATALOG } from "@/lib/currencies/catalog";
import { FIAT_CURRENCIES, type FiatCurrency, fiatCurrencyHash } from "@/lib/currencies/fiat";

export type { CurrencyDto } from "@/lib/currencies/catalog";

/**
 * The currency registry: every token of the 8 networks (with configured address overrides,
 * e.g. a local devnet's) plus the fiat invoice currencies, built once on first use: what can be
 * paid and invoiced. Currency IDs are `SYMBOL-network`; fiat IDs are plain codes.
 *
 * The listing (GET /v2/currencies) is wider: these plus the reference's catalog (lib/currencies/catalog.ts),
 * whose currencies are found and listed but never paid. Where an ID is in both, the registry's
 * definition answers (the catalog's USDC-matic and USDC-optimism are the bridged USDC.e tokens;
 * here they are native USDC, as before: docs/guides/currencies.md).
 */

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
  /** Listed tokens (no fiat): the registry's, then the catalog's under IDs the registry does not use. */
  listed: readonly CurrencyDto[];
  /** Every listed currency by lowercased ID, fiat included. */
  listedById: Map<string, CurrencyDto>;
  /** Networks of the listing (the 8, and the catalog's others). */
  networks: ReadonlySet<string>;
  /** The listing, serialised once. */
  listedJson?: string;
}

let registry: Registry | undefined;

function getRegistry(): Registry {
  if (!registry) {
    const tokens = allNetworkRuntimes().flatMap((rt) =>
      rt.tokens.map((token) => ({ kind: "token" as const, id: tokenCurrencyId(token), token, dto: tokenDto(token, rt.network.chainId) })),
    );
    const fiat: Currency[] = FIAT_CURRENCIES.map((f) => ({ kind: "fiat", id: f.code, fiat: f, dto: fiatDto(f) }));
    const byId = new Map<string, Currency>([...tokens, ...fiat].map((c) => [c.id.toLowerCase(), c]));
    const catalog = REFERENCE_CATALOG.filter((c) => !byId.has(c.id.toLowerCase()));
    const listed = [...tokens.map((t) => t.dto), ...catalog.filter((c) => c.type !== "ISO4217")];
    const listedById = new Map([...listed, ...fiat.map((f) => f.dto), ...catalog].map((c) => [c.id.toLowerCase(), c]));
    const networks = new Set(listed.flatMap((c) => (c.network ? [c.network] : [])));
    registry = { tokens, byId, listed, listedById, networks };
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

/** GET /v2/currencies: every listed token, the registry's first (fiat is found by ID). */
export function listedCurrencies(): readonly CurrencyDto[] {
  return getRegistry().listed;
}

/** The unfiltered listing never changes within a configuration: serialised once. */
export function listedCurrenciesJson(): string {
  const r = getRegistry();
  r.listedJson ??= JSON.stringify(r.listed);
  return r.listedJson;
}

/** A listed currency by ID (case-insensitive): the registry's, else the catalog's. */
export function findListedCurrency(id: string): CurrencyDto | undefined {
  return getRegistry().listedById.get(id.toLowerCase());
}

/** Whether `network` names a network of the listing (one of the 8, or a catalog network such as avalanche). */
export function isListedNetwork(network: string): boolean {
  return getRegistry().networks.has(network);
}

export function listedNetworks(): string[] {
  return [...getRegistry().networks].sort();
}

/**
 * Why `id` cannot be paid, invoiced or received, for a 400: unknown, or listed in the catalog only
 * (then it says which tokens are payable, and the payable ID of the same token when there is one).
 */
export function unpayableCurrencyMessage(id: string): string {
  const listed = findListedCurrency(id);
  if (!listed) return `Unknown currency "${id}"`;
  if (listed.type === "ISO4217")
    return `${listed.id} is in the currency catalog but is not an invoice currency here: fiat invoices are in ${FIAT_CURRENCIES.map((f) => f.code).join(", ")}`;
  const { tokens } = getRegistry();
  const address = listed.address?.toLowerCase();
  const same =
    address &&
    tokens.find((t) => !t.token.paymentAliasOf && t.token.network === listed.network && t.token.address.toLowerCase() === address);
  return (
    `${listed.id} is in the currency catalog but cannot be paid here: only the listed tokens on the 8 networks are payable ` +
    `(${tokens.map((t) => t.id).join(", ")})${same ? `; the same token is payable as ${same.id}` : ""}`
  );
}
