import { FIAT_PATH_DECIMALS } from "@/lib/chain/conversion";
import type { Token } from "@/lib/chain/tokens";
import { findFiat } from "@/lib/currencies/fiat";
import { invalidField } from "@/lib/errors";
import { formatAmount, parseAmount, rescale } from "@/lib/money";
import type { FeeLeg, FeeProgress, Payable } from "@/lib/payments/fee-legs";

/**
 * Partial payments (GET /v2/request/{id}/pay?amount=, the reference's partial-payments feature):
 * the payer sends part of what is still owed, as many times as it likes, until the request is paid.
 *
 * `amount` is read exactly as POST /v2/request read the request's `amount`: a decimal in the
 * invoice currency, with that currency's decimals (a USDC invoice 6, a USD invoice paid 1:1 in a
 * stablecoin 2, a EUR invoice paid through the conversion proxy 2, JPY 0). It is then carried in
 * the units the request owes: token units, or for a conversion request the invoice currency at the
 * conversion path's 8 decimals (the proxy converts it to tokens at the rate of the day).
 */
interface PartialRequest {
  invoiceCurrency: string;
  isConversion: boolean;
}

/** Decimals a request's `amount` (and so `?amount=`) is written with: its fiat invoice currency's, else its token's. */
export function invoiceDecimalsOf(r: PartialRequest, token: Token): number {
  return findFiat(r.invoiceCurrency)?.decimals ?? token.decimals;
}

/** What the request owes is counted in: the payment token's units, or the conversion path's 8 decimals. */
export function owedDecimalsOf(r: Pick<PartialRequest, "isConversion">, token: Token): number {
  return r.isConversion ? FIAT_PATH_DECIMALS : token.decimals;
}

/**
 * `?amount=` in the units the request owes; 400 naming `amount` when it is malformed, not above 0,
 * has more decimals than the invoice currency, or is more than what is still owed.
 */
export function parsePartAmount(input: string, r: PartialRequest, token: Token, owed: bigint): bigint {
  const invoiceDecimals = invoiceDecimalsOf(r, token);
  const owedDecimals = owedDecimalsOf(r, token);
  const part = rescale(parseAmount(input, invoiceDecimals, "amount"), invoiceDecimals, owedDecimals);
  const currency = r.isConversion || findFiat(r.invoiceCurrency) ? r.invoiceCurrency : token.symbol;
  if (owed === 0n) throw invalidField("amount", "nothing of the amount is owed any more (only a fee is missing): omit amount");
  if (part > owed) throw invalidField("amount", `is more than the ${formatAmount(owed, owedDecimals)} ${currency} still owed`);
  return part;
}

/**
 * What a plan for `part` of the amount asks: the part to the payee and, for each fee leg, what
 * brings that leg to its share of everything credited once this part lands —
 * floor(leg × (credited + part) / expected) minus what the leg already got. The first part of an
 * unpaid request is thus the proportional share (lib/payments/plan.ts feeForRemaining); the part
 * that settles the amount carries each leg's whole rest, so the rounding of earlier parts never
 * leaves a request fee_short; a leg already short of its share gets what it misses too.
 */
export function partialPayable(r: { feeAddress: string | null }, progress: FeeProgress, expected: bigint, part: bigint): Payable {
  const credited = expected - progress.owedAmount;
  const after = credited + part;
  const legs: FeeLeg[] = progress.legs
    .map((l) => {
      const share = expected === 0n ? l.amount : (l.amount * after) / expected;
      const due = share > l.paid ? share - l.paid : 0n;
      return { address: l.address, amount: due < l.owed ? due : l.owed };
    })
    .filter((l) => l.amount > 0n);
  const [main, ...extra] = legs;
  return { amount: part, feeAmount: main?.amount ?? 0n, feeAddress: main?.address ?? r.feeAddress, extraFeeLegs: extra };
}
