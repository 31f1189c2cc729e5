import catalogJson from "@/lib/currencies/reference-catalog.generated.json";

/**
 * The reference's currency catalog (over 500 tokens, native currencies and ISO 4217 codes), as
 * `@requestnetwork/currency` defines it. The package is a devDependency: its data is generated into
 * reference-catalog.generated.json by scripts/gen/reference-currencies.ts and read here once, when
 * the module loads — never per request, and without the package's heavy runtime dependencies.
 * Listing only: what can be paid is the registry's (lib/currencies/registry.ts).
 */

/** Currency types of the catalog (the package's RequestLogicTypes.CURRENCY values). */
export type CurrencyType = "ERC20" | "ERC777" | "ETH" | "BTC" | "ISO4217";

/** A currency as the API lists it (GET /v2/currencies). */
export interface CurrencyDto {
  id: string;
  name: string;
  symbol: string;
  decimals: number;
  address: string | null;
  network: string | null;
  type: CurrencyType;
  hash: string;
  chainId: number | null;
}

export interface CatalogFile {
  generatedBy: string;
  /** The package and version the file was generated from. */
  package: string;
  currencies: CurrencyDto[];
}

const FILE = catalogJson as CatalogFile;

/** Every currency of the reference's catalog, in the package's order. */
export const REFERENCE_CATALOG: readonly CurrencyDto[] = FILE.currencies;

/** `@requestnetwork/currency@0.33.0`: where the catalog comes from. */
export const REFERENCE_CATALOG_SOURCE = FILE.package;
