import { sameAddress } from "@/lib/chain/address";
import { FIAT_PATH_DECIMALS } from "@/lib/chain/conversion";
import { tokenOf } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";

/**
 * The fee rule of a request (issue #24): a request with a fee is paid only when BOTH legs reach
 * what it owes — the amount credited to the payee, and each fee leg's amount credited to that
 * leg's own address. A fee sent to another address does not count toward a leg; a fee above a
 * leg's amount is kept but pays no other leg. While the amount is partly paid, each leg is owed
 * its share of what was credited (rounded down, as the proxy's integer maths); a leg below its
 * share leaves the request `partially_paid` with subStatus `fee_short` and the missing amounts.
 * A request without a fee has no legs: the amount alone decides, as it always did.
 *
 * Amounts are base units of what the request owes: token units, or for a conversion request
 * the invoice currency at the conversion path's 8 decimals (the proxy's credited fee).
 */
export interface FeeLeg {
  address: string;
  amount: bigint;
}

/** A fee leg below its share (human decimal in the request's owed currency). */
export interface MissingFee {
  type: string;
  feeAddress: string;
  amount: string;
  currency: string;
}

export type FeeSubStatus = "fee_short";
export const FEE_SHORT: FeeSubStatus = "fee_short";

interface FeeColumns {
  feeLegs: Prisma.JsonValue | null;
  feeAmount: { toFixed(): string };
  feeAddress: string | null;
}

/** A request's fee legs: the stored ones of a plan with several destinations, else its one fee leg; [] without a fee. */
export function feeLegsOf(r: FeeColumns): FeeLeg[] {
  if (Array.isArray(r.feeLegs) && r.feeLegs.length > 0) {
    return r.feeLegs.flatMap((l) => {
      const leg = l as { address?: unknown; amount?: unknown };
      if (typeof leg.address !== "string" || typeof leg.amount !== "string" || !/^\d+$/.test(leg.amount)) return [];
      const amount = BigInt(leg.amount);
      return amount > 0n ? [{ address: leg.address, amount }] : [];
    });
  }
  const fee = BigInt(r.feeAmount.toFixed());
  return fee > 0n && r.feeAddress ? [{ address: r.feeAddress, amount: fee }] : [];
}

/** The `feeLegs` column of a new request: stored only when the fee goes to more than one address (one leg is feeAddress/feeAmount). */
export function storedFeeLegs(legs: readonly FeeLeg[]): { feeLegs?: Prisma.InputJsonValue } {
  return legs.length > 1 ? { feeLegs: legs.map((l) => ({ address: l.address, amount: l.amount.toString() })) } : {};
}

/** What a recorded payment credited to fees: its fee address and fee (the conversion proxy's invoice-currency fee for a conversion). */
export interface FeeCredit {
  feeAddress: string | null;
  feeAmount: { toFixed(): string };
  invoiceFeeAmount?: { toFixed(): string } | null;
}

export interface LegProgress extends FeeLeg {
  /** Credited to this leg's address so far. */
  paid: bigint;
  /** What is still to send to it for the whole request (what a pay plan asks). */
  owed: bigint;
  /** Below its share of what has been paid (the `fee_short` amount); 0 when on track. */
  missing: bigint;
}

export interface FeeProgress {
  /** Amount still owed to the payee. */
  owedAmount: bigint;
  legs: LegProgress[];
  /** Amount and every leg complete. */
  paid: boolean;
  subStatus: FeeSubStatus | null;
}

/** The amount still owed to the payee: the rest of the expected amount, 0 once it is reached or over-paid. */
export function owedAmountOf(expected: bigint, credited: bigint): bigint {
  return credited < expected ? expected - credited : 0n;
}

/** Where a request stands against its fee rule, from its expected and credited amounts and its payments. */
export function feeProgress(expected: bigint, credited: bigint, legs: readonly FeeLeg[], payments: readonly FeeCredit[]): FeeProgress {
  const counted = credited < expected ? credited : expected;
  const progress = legs.map((leg) => {
    const paid = payments
      .filter((p) => p.feeAddress && sameAddress(p.feeAddress, leg.address))
      .reduce((sum, p) => sum + BigInt((p.invoiceFeeAmount ?? p.feeAmount).toFixed()), 0n);
    const share = expected === 0n ? leg.amount : (leg.amount * counted) / expected;
    return {
      ...leg,
      paid,
      owed: paid < leg.amount ? leg.amount - paid : 0n,
      missing: paid < share ? share - paid : 0n,
    };
  });
  const owedAmount = owedAmountOf(expected, credited);
  return {
    owedAmount,
    legs: progress,
    paid: owedAmount === 0n && progress.every((l) => l.owed === 0n),
    subStatus: progress.some((l) => l.missing > 0n) ? FEE_SHORT : null,
  };
}

/** The legs still owed something, in plan order (the first rides with the payment, the others are fee-only transfers). */
export function owedLegs(p: FeeProgress): FeeLeg[] {
  return p.legs.filter((l) => l.owed > 0n).map((l) => ({ address: l.address, amount: l.owed }));
}

type Progressable = FeeColumns & { id: string; expectedAmount: { toFixed(): string }; amountPaid: { toFixed(): string } };

/**
 * Fee progress of stored requests, by request ID, from their recorded payments (one read, for the
 * requests that have a fee). A request without a fee gets the amount rule alone.
 */
export async function feeProgressOf(
  requests: readonly Progressable[],
  client: Prisma.TransactionClient = db(),
): Promise<Map<string, FeeProgress>> {
  const withFee = requests.filter((r) => feeLegsOf(r).length > 0);
  const payments = withFee.length
    ? await client.payment.findMany({
        where: { requestId: { in: withFee.map((r) => r.id) } },
        select: { requestId: true, feeAddress: true, feeAmount: true, invoiceFeeAmount: true },
      })
    : [];
  return new Map(
    requests.map((r) => [
      r.id,
      feeProgress(
        BigInt(r.expectedAmount.toFixed()),
        BigInt(r.amountPaid.toFixed()),
        feeLegsOf(r),
        payments.filter((p) => p.requestId === r.id),
      ),
    ]),
  );
}

/** The fee legs below their share, as the API and events name them. */
export function missingFeesOf(
  request: { isConversion: boolean; invoiceCurrency: string; network: string; paymentCurrency: string },
  fees: FeeProgress,
): MissingFee[] {
  const token = tokenOf(request);
  const decimals = request.isConversion ? FIAT_PATH_DECIMALS : token.decimals;
  const currency = request.isConversion ? request.invoiceCurrency : token.symbol;
  return fees.legs
    .filter((l) => l.missing > 0n)
    .map((l) => ({ type: "platform", feeAddress: l.address, amount: formatAmount(l.missing, decimals), currency }));
}

/** What a pay plan asks for an open request: the amount still owed, the first owed fee leg with it, the other owed legs as fee-only transfers. */
export interface Payable {
  amount: bigint;
  feeAmount: bigint;
  feeAddress: string | null;
  extraFeeLegs: FeeLeg[];
}

/**
 * Exactly what is missing (the fee proxy takes amount 0 plus a fee, so a fee-short request asks for its fee alone).
 * `feeAddress` (a batch's one fee address) puts that address's leg with the payment when it is owed something.
 */
export function payableOf(r: Pick<FeeColumns, "feeAddress">, p: FeeProgress, feeAddress?: string | null): Payable {
  const owed = owedLegs(p);
  const main = (feeAddress ? owed.find((l) => sameAddress(l.address, feeAddress)) : owed[0]) ?? null;
  return {
    amount: p.owedAmount,
    feeAmount: main?.amount ?? 0n,
    feeAddress: main?.address ?? feeAddress ?? r.feeAddress,
    extraFeeLegs: owed.filter((l) => l !== main),
  };
}
