import {
  conversionPath,
  convert,
  effectiveRate,
  FIAT_PATH_DECIMALS,
  fiatHash,
  humanRate,
  readConversionRate,
  USD_HASH,
} from "@/lib/chain/conversion";
import { explorerUrl, networkOf, tokenOf } from "@/lib/chain/stored";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import type { Payment, PaymentRequest, Refund } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { formatAmount } from "@/lib/money";
import { feeLegsOf, feeProgress, missingFeesOf } from "@/lib/payments/fee-legs";
import { isQuotedConversion, quotedMarketRate } from "@/lib/payments/quoted-conversion";
import { REQUEST_ID_PATTERN } from "@/lib/payments/reference";
import { labelFactsFrom, NO_WRONG_AMOUNT, type WrongAmount, wrongAmountFields, wrongAmountOf } from "@/lib/refunds/labels";
import { refundFieldsOf } from "@/lib/refunds/view";
import { type RequestBundle, readRequestBundle } from "@/lib/requests/read-request";

/**
 * Requests are scoped to the caller's account inside the query, so another account's
 * request and a missing one get the same 404.
 */
export async function getRequestOrThrow(accountId: string, requestId: string): Promise<PaymentRequest> {
  if (!REQUEST_ID_PATTERN.test(requestId)) throw notFound("Request not found");
  const row = await db().paymentRequest.findFirst({ where: { id: requestId, accountId } });
  if (!row) throw notFound("Request not found");
  return row;
}

/** The rates of a conversion request now, read from the network's ChainlinkConversionPath. */
export interface MarketRate {
  /** Payment-currency units per invoice unit ("1.08"). */
  rate: string;
  /** Invoice-currency base units (8 decimals) → USD base units (8 decimals), as getRate gives it; null without a USD path. */
  toUsd: { rate: bigint; scale: bigint } | null;
}

/** Reads the current rate of a conversion request; null when the network has no RPC or the read fails. */
export async function marketRateOf(row: PaymentRequest): Promise<MarketRate | null> {
  if (!row.isConversion) return null;
  try {
    const network = networkOf(row);
    const token = tokenOf(row);
    if (isQuotedConversion(row)) return await quotedMarketRate(row, token);
    const path = await conversionPath(network, fiatHash(row.invoiceCurrency), token);
    if (!path) return null;
    const [toToken, toUsd] = await Promise.all([
      readConversionRate(network, path),
      readConversionRate(network, [fiatHash(row.invoiceCurrency), USD_HASH]).catch(() => null),
    ]);
    return { rate: humanRate(toToken, FIAT_PATH_DECIMALS, token.decimals), toUsd };
  } catch (err) {
    log.warn("could not read the conversion rate of a request", {
      requestId: row.id,
      error: err instanceof Error ? err.message : String(err),
    });
    return null;
  }
}

const sumOrNull = (xs: (bigint | null)[]) => (xs.some((x) => x === null) ? null : xs.reduce<bigint>((a, b) => a + (b ?? 0n), 0n));
/** A Decimal(…, 8) column as 8-decimal base units. */
const units8 = (d: { toFixed(dp: number): string } | null) => (d === null ? null : BigInt(d.toFixed(FIAT_PATH_DECIMALS).replace(".", "")));

/**
 * The conversion fields of GET /v2/request/{id} (reference: amountInUsd, conversionRate, rateSource,
 * conversionBreakdown); null for requests that are not conversion requests. Amounts in the invoice
 * currency; USD values from ChainlinkConversionPath (at each payment's block, and now for what remains).
 */
function conversionFields(row: PaymentRequest, payments: Payment[], market: MarketRate | null) {
  if (!row.isConversion) return { amountInUsd: null, conversionRate: null, conversionBreakdown: null };
  const token = tokenOf(row);
  const fiat = (u: bigint) => formatAmount(u, FIAT_PATH_DECIMALS);
  const expected = BigInt(row.expectedAmount.toFixed());
  const paid = BigInt(row.amountPaid.toFixed());
  const remaining = expected > paid ? expected - paid : 0n;
  const counted = payments.filter((p) => p.invoiceAmount !== null);
  const paidInUsd = sumOrNull(counted.map((p) => units8(p.amountInUsd)));
  const remainingInUsd = remaining === 0n ? 0n : market?.toUsd ? convert(remaining, market.toUsd) : null;
  const tokenPaid = counted.reduce((a, p) => a + BigInt(p.amount.toFixed()), 0n);
  const invoicePaid = counted.reduce((a, p) => a + BigInt(p.invoiceAmount!.toFixed()), 0n);
  const amountInUsd = paidInUsd !== null && remainingInUsd !== null ? paidInUsd + remainingInUsd : null;
  return {
    amountInUsd: amountInUsd === null ? null : fiat(amountInUsd),
    // The rate the payments were made at (token paid / invoice amount credited), else today's.
    conversionRate: effectiveRate(tokenPaid, invoicePaid, FIAT_PATH_DECIMALS, token.decimals) ?? market?.rate ?? null,
    rateSource: "chainlink" as const,
    conversionBreakdown: {
      paidAmount: fiat(paid),
      paidAmountInUsd: paidInUsd === null ? null : fiat(paidInUsd),
      remainingAmount: fiat(remaining),
      remainingAmountInUsd: remainingInUsd === null ? null : fiat(remainingInUsd),
      currentMarketRate: market?.rate ?? null,
      currentMarketRateSource: "chainlink" as const,
      payments: [...counted]
        .sort((a, b) => Number(a.blockNumber - b.blockNumber) || a.logIndex - b.logIndex)
        .map((p) => ({
          amount: fiat(BigInt(p.invoiceAmount!.toFixed())),
          amountInUsd: p.amountInUsd === null ? null : fiat(units8(p.amountInUsd)!),
          conversionRate: p.conversionRate === null ? null : formatAmount(BigInt(p.conversionRate.toFixed(18).replace(".", "")), 18),
          rateSource: "chainlink" as const,
          timestamp: p.blockTime.toISOString(),
        })),
    },
  };
}

export function toRequestStatus(
  row: PaymentRequest,
  payments: Payment[],
  market: MarketRate | null = null,
  wrong: WrongAmount = NO_WRONG_AMOUNT,
  refunds: Refund[] = [],
) {
  const token = tokenOf(row);
  // What a request owes and has been credited: token units, or the invoice currency's 8 decimals for a conversion request.
  const owedDecimals = row.isConversion ? FIAT_PATH_DECIMALS : token.decimals;
  const sorted = [...payments].sort((a, b) => Number(a.blockNumber - b.blockNumber) || a.logIndex - b.logIndex);
  const last = sorted.at(-1);
  const paid = row.status === "paid";
  const fee = BigInt(row.feeAmount.toFixed());
  const fees = feeProgress(BigInt(row.expectedAmount.toFixed()), BigInt(row.amountPaid.toFixed()), feeLegsOf(row), payments);
  const feeShort = !paid && fees.subStatus !== null;
  return {
    requestId: row.id,
    paymentReference: row.paymentReference,
    hasBeenPaid: paid,
    status: row.status,
    // Why a partly paid request is not paid: a fee leg below its share of what was paid (lib/payments/fee-legs.ts).
    subStatus: feeShort ? fees.subStatus : null,
    missingFees: feeShort ? missingFeesOf(row, fees) : null,
    isListening: !paid,
    txHash: last?.txHash ?? null,
    network: row.network,
    payee: row.payee,
    payer: row.payer ?? sorted[0]?.payer ?? null,
    amount: row.amount,
    invoiceCurrency: row.invoiceCurrency,
    paymentCurrency: row.paymentCurrency,
    expectedAmount: formatAmount(BigInt(row.expectedAmount.toFixed()), owedDecimals),
    totalAmountPaid: formatAmount(BigInt(row.amountPaid.toFixed()), owedDecimals),
    payments: sorted.map((p) => ({
      txHash: p.txHash,
      amount: formatAmount(BigInt(p.amount.toFixed()), token.decimals),
      feeAmount: formatAmount(BigInt(p.feeAmount.toFixed()), token.decimals),
      payer: p.payer,
      blockNumber: Number(p.blockNumber),
      timestamp: p.blockTime.toISOString(),
      explorer: explorerUrl(p.network, p.txHash),
    })),
    reference: row.reference,
    customerInfo: (row.customerInfo as Record<string, unknown> | null) ?? null,
    fees:
      paid && fee > 0n
        ? [
            {
              type: "platform",
              provider: "duebill",
              amount: formatAmount(fee, owedDecimals),
              currency: row.isConversion ? row.invoiceCurrency : token.symbol,
            },
          ]
        : paid
          ? []
          : null,
    ...conversionFields(row, payments, market),
    ...(row.recurringScheduleId ? { recurringPaymentId: row.recurringScheduleId, paymentIndex: row.recurringIndex } : {}),
    // Duebill extension (issue 28): refundedAmount, refundableAmount, refundStatus, refunds.
    ...refundFieldsOf(row, payments, refunds),
    // Paid exactly, over (excessAmount), under or late (lib/refunds/labels.ts); returnedAmount: what the deposit relayer
    // sent back (a return on its way counts, as in the label; GET …/refunds lists each with its status).
    ...wrongAmountFields(wrong, owedDecimals),
    createdAt: row.createdAt.toISOString(),
  };
}

/** GET /v2/request/{requestId}'s status fields from its one read (lib/requests/read-request.ts). */
export async function requestStatusOf(b: RequestBundle) {
  const { row, payments, refunds } = b;
  const facts = labelFactsFrom(row, {
    payments,
    link: b.link && { status: b.link.status, expiresAt: b.link.expiresAt },
    depositLate: b.depositLate,
    // The deposit relayer's returns, as labelFactsOf selects them.
    returns: refunds.filter((f) => f.sender === "relayer" && f.status !== "cancelled"),
  });
  return toRequestStatus(row, payments, await marketRateOf(row), wrongAmountOf(facts, now()), refunds);
}

/** GET /v2/request/{requestId}. */
export async function getRequestStatus(accountId: string, requestId: string) {
  return requestStatusOf(await readRequestBundle(accountId, requestId));
}
