import { fiatHash } from "@/lib/chain/conversion";

/** Fiat invoice currencies (ISO 4217). JPY has no minor unit; the others have 2. */
export interface FiatCurrency {
  readonly code: string;
  readonly name: string;
  readonly decimals: number;
}

export const FIAT_CURRENCIES: readonly FiatCurrency[] = [
  { code: "USD", name: "US Dollar", decimals: 2 },
  { code: "EUR", name: "Euro", decimals: 2 },
  { code: "CNY", name: "Chinese Yuan", decimals: 2 },
  { code: "GBP", name: "Pound Sterling", decimals: 2 },
  { code: "JPY", name: "Japanese Yen", decimals: 0 },
];

/**
 * Request Network currency hash of a fiat currency, used in Chainlink conversion paths:
 * the last 20 bytes of keccak256 of the lowercased JSON {"type":"ISO4217","value":"USD"}
 * with sorted keys.
 */
export function fiatCurrencyHash(code: string): `0x${string}` {
  return fiatHash(code);
}

export function findFiat(code: string): FiatCurrency | undefined {
  return FIAT_CURRENCIES.find((f) => f.code === code);
}
