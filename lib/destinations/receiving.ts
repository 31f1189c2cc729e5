import { sameAddress } from "@/lib/chain/address";
import { findTokenCurrency, tokenCurrencies, unpayableCurrencyMessage } from "@/lib/currencies/registry";
import { invalidField } from "@/lib/errors";

/**
 * The currencies a payee destination receives: USDC and USDT (USDT0 is a payment alias only),
 * named by currency ID (`USDC-base`) or, as the signing data names them, by chain and token.
 */
const RECEIVING = new Set(["USDC", "USDT"]);

export function receivingCurrency(id: string) {
  const currency = findTokenCurrency(id);
  if (!currency) throw invalidField("currency", unpayableCurrencyMessage(id));
  if (!RECEIVING.has(currency.token.symbol)) throw invalidField("currency", "destinations receive USDC or USDT");
  return currency;
}

/** The receiving currency of `tokenAddress` on `chainId`, or a 400 naming `field`. */
export function receivingCurrencyAt(chainId: number, tokenAddress: string, field: string) {
  const currency = tokenCurrencies().find(
    (c) => c.dto.chainId === chainId && RECEIVING.has(c.token.symbol) && sameAddress(c.token.address, tokenAddress),
  );
  if (!currency) throw invalidField(field, `not the USDC or USDT token of a supported network (chain ${chainId})`);
  return currency;
}
