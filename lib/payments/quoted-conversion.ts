import type { NetworkRuntime } from "@/lib/chain/config";
import { convert, FIAT_PATH_DECIMALS, humanRate } from "@/lib/chain/conversion";
import type { NetworkId } from "@/lib/chain/networks";
import { quotedRateSource } from "@/lib/chain/rate-source";
import type { Token } from "@/lib/chain/tokens";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { AppError, invalidField } from "@/lib/errors";
import type { ConversionQuote, PaymentRequest, Prisma } from "@/lib/generated/prisma/client";
import { prefixedId } from "@/lib/ids";
import { log } from "@/lib/log";
import { formatAmount } from "@/lib/money";
import { type PaymentPlan, planSinglePayment } from "@/lib/payments/plan";

/**
 * A fiat invoice paid on a network without a conversion proxy (Tron), docs/guides/currencies.md:
 * the pay plan fixes the token amount from the rate source (lib/chain/rate-source.ts) for a window —
 * a quote, stored — and is a plain fee-proxy payment of that amount under the request's reference.
 * Nothing on chain says which invoice amount a transfer stands for, so detection credits a quote's
 * invoice amount to a transfer that pays at least its token amount while it holds.
 *
 * - Window: QUOTE_WINDOW_SECONDS (15 min) from the plan: long enough to sign on a phone, short against
 *   EUR/USD moves (Chainlink's feed updates on a 0.15 % deviation).
 * - Grace: a transfer counts in a block up to QUOTE_GRACE_SECONDS past expiresAt — a Tron transaction
 *   expires 60 s after it is built by default, so one signed before expiresAt lands by then or never.
 * - A rate whose oldest feed is older than QUOTE_MAX_RATE_AGE_SECONDS (Chainlink's 24 h heartbeat
 *   for EUR/USD and USDT/USD, plus an hour) is refused: the feed is not running.
 * - Rounding: token amounts are rounded up (the payee never gets less than the invoice's worth).
 * - One quote credits one transfer; a transfer that pays no live quote (short, late, without a plan)
 *   is not credited: the tokens are the payee's (non-custodial), the request stays as it was.
 */
export const QUOTE_WINDOW_SECONDS = 900;
export const QUOTE_GRACE_SECONDS = 60;
export const QUOTE_MAX_RATE_AGE_SECONDS = 25 * 3600;
const QUOTE_PREFIX = "cq_";

/** A conversion quote's ID (`cq_…`): the only quoteId GET /pay takes without chain and token. */
export function isConversionQuoteId(id: string): boolean {
  return id.startsWith(QUOTE_PREFIX);
}

/** Whether a request's conversion is quoted (its network has no conversion proxy). */
export function isQuotedConversion(row: Pick<PaymentRequest, "isConversion" | "network">): boolean {
  return row.isConversion && row.network === "tron";
}

export interface QuotedPayment {
  runtime: NetworkRuntime;
  token: Token;
  request: Pick<PaymentRequest, "id" | "accountId" | "invoiceCurrency" | "paymentCurrency" | "payee" | "tokenAddress">;
  /** What is still owed, in the invoice currency at 8 decimals. */
  requestAmount: bigint;
  feeAmount: bigint;
  feeAddress: string | null;
  paymentReference: `0x${string}`;
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
const units = (d: { toFixed(): string }) => BigInt(d.toFixed());
/** A decimal column as base units of 8 decimals (1.08 → 108000000). */
const units8 = (d: { toFixed(dp: number): string }) => BigInt(d.toFixed(FIAT_PATH_DECIMALS).replace(".", ""));

async function newQuote(p: QuotedPayment): Promise<ConversionQuote> {
  const fiat = p.request.invoiceCurrency;
  const source = quotedRateSource(p.runtime);
  if (!source) throw invalidField("paymentCurrency", `${p.runtime.network.id} has no conversion rate source configured any more`);
  const r = await source.quote(fiat, p.token);
  const age = Math.max(0, r.readAt - r.updatedAt);
  if (age > QUOTE_MAX_RATE_AGE_SECONDS)
    throw new AppError(
      "upstream_unavailable",
      `The ${fiat}→${p.token.symbol} rate on ${source.network} was last updated ${age} s ago: its price feed is not updating. Try again later.`,
    );
  const createdAt = now();
  return db().conversionQuote.create({
    data: {
      id: prefixedId(QUOTE_PREFIX),
      requestId: p.request.id,
      accountId: p.request.accountId,
      invoiceCurrency: fiat,
      paymentCurrency: p.request.paymentCurrency,
      requestAmount: p.requestAmount.toString(),
      feeAmount: p.feeAmount.toString(),
      amountIn: ceilDiv(p.requestAmount * r.rate, r.scale).toString(),
      feeAmountIn: ceilDiv(p.feeAmount * r.rate, r.scale).toString(),
      feeAddress: p.feeAddress,
      rate: humanRate(r, FIAT_PATH_DECIMALS, p.token.decimals, 18),
      rateSource: source.kind,
      rateNetwork: source.network,
      ratePath: r.path,
      rateUpdatedAt: new Date(r.updatedAt * 1000),
      amountInUsd: r.toUsd ? formatAmount(convert(p.requestAmount, r.toUsd), FIAT_PATH_DECIMALS) : null,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + QUOTE_WINDOW_SECONDS * 1000),
    },
  });
}

/** A quote given earlier, by its id: served again while it holds; expired or paid → 400 asking for a new plan. */
async function quoteAgain(p: QuotedPayment, quoteId: string): Promise<ConversionQuote> {
  const q = await db().conversionQuote.findFirst({ where: { id: quoteId, requestId: p.request.id, accountId: p.request.accountId } });
  if (!q) throw invalidField("quoteId", "is not a quote of this request");
  if (q.paymentId)
    throw invalidField("quoteId", "this quote has been paid: ask for a new plan for what remains (call again without quoteId)");
  if (q.expiresAt.getTime() <= now().getTime())
    throw invalidField("quoteId", `this quote expired at ${q.expiresAt.toISOString()}: ask for a new plan (call again without quoteId)`);
  return q;
}

/**
 * GET /v2/request/{id}/pay for a fiat invoice on Tron: a new quote (or the one named by `quoteId`),
 * then the approval and the fee-proxy payment of its token amounts; `metadata.conversion` carries
 * the rate and `quote` (id, rate, amountIn, expiresAt).
 */
export async function planQuotedConversion(p: QuotedPayment, wallet: string | undefined, quoteId?: string): Promise<PaymentPlan> {
  const q = quoteId === undefined ? await newQuote(p) : await quoteAgain(p, quoteId);
  const amountIn = units(q.amountIn);
  const feeAmountIn = units(q.feeAmountIn);
  const plan = await planSinglePayment(
    {
      runtime: p.runtime,
      tokenAddress: p.request.tokenAddress,
      payee: p.request.payee,
      amount: amountIn,
      feeAmount: feeAmountIn,
      feeAddress: q.feeAddress,
      paymentReference: p.paymentReference,
      approveResetRequired: p.token.approveResetRequired ?? false,
    },
    wallet,
  );
  const decimals = p.token.decimals;
  const rate = formatAmount(units8(q.rate), FIAT_PATH_DECIMALS);
  const window = Math.round((q.expiresAt.getTime() - q.createdAt.getTime()) / 1000);
  plan.metadata.conversion = {
    invoiceCurrency: q.invoiceCurrency,
    requestAmount: formatAmount(units(q.requestAmount), FIAT_PATH_DECIMALS),
    feeAmount: formatAmount(units(q.feeAmount), FIAT_PATH_DECIMALS),
    paymentCurrency: q.paymentCurrency,
    path: q.ratePath,
    rate,
    rateSource: "chainlink",
    rateUpdatedAt: q.rateUpdatedAt.toISOString(),
    rateAgeSeconds: Math.max(0, Math.round((q.createdAt.getTime() - q.rateUpdatedAt.getTime()) / 1000)),
    maxRateTimespan: window,
    rateExpiresAt: q.expiresAt.toISOString(),
    rateIsStale: false,
    convertedAmount: formatAmount(amountIn, decimals),
    convertedFeeAmount: formatAmount(feeAmountIn, decimals),
    maxToSpend: formatAmount(amountIn + feeAmountIn, decimals),
    warning: null,
    rateNetwork: q.rateNetwork,
    quote: {
      id: q.id,
      rate,
      amountIn: amountIn.toString(),
      feeAmountIn: feeAmountIn.toString(),
      expiresAt: q.expiresAt.toISOString(),
      graceSeconds: QUOTE_GRACE_SECONDS,
    },
  };
  return plan;
}

/** What a transfer that pays a quote credits: the invoice amounts at the quoted rate, and the Payment columns. */
export interface QuotedCredit {
  quoteId: string;
  credited: bigint;
  columns: { invoiceAmount: string; invoiceFeeAmount: string; conversionRate: string; amountInUsd: string | null };
}

/**
 * The live quote a transfer pays (detection, in the recording transaction): of the request's quotes that
 * no other payment used, made before the block (± the grace) and not expired at its time (+ the
 * grace), with amountIn ≤ the amount sent, the one crediting the most; locked until the transaction
 * ends. A re-scan finds the quote its payment already used. Null: the transfer pays no quote.
 */
export async function claimQuotedCredit(
  tx: Prisma.TransactionClient,
  request: Pick<PaymentRequest, "id" | "network">,
  ev: { txHash: string; logIndex: number; blockTime: Date; amount: bigint; feeAmount: bigint },
): Promise<QuotedCredit | null> {
  const grace = QUOTE_GRACE_SECONDS * 1000;
  const latest = new Date(ev.blockTime.getTime() - grace);
  const earliest = new Date(ev.blockTime.getTime() + grace);
  const [q] = await tx.$queryRaw<ConversionQuote[]>`
    SELECT * FROM "ConversionQuote"
    WHERE "requestId" = ${request.id}
      AND "amountIn" <= ${ev.amount.toString()}::numeric
      AND "expiresAt" >= ${latest} AND "createdAt" <= ${earliest}
      AND ("paymentId" IS NULL OR "paymentId" IN (
        SELECT "id" FROM "Payment" WHERE "network" = ${request.network} AND "txHash" = ${ev.txHash} AND "logIndex" = ${ev.logIndex}))
    ORDER BY "requestAmount" DESC, "createdAt" DESC
    LIMIT 1
    FOR UPDATE`;
  if (!q) {
    log.warn("a transfer to a quoted conversion request pays no live quote: not credited", {
      requestId: request.id,
      txHash: ev.txHash,
      amount: ev.amount.toString(),
      blockTime: ev.blockTime.toISOString(),
    });
    return null;
  }
  const feeAmount = units(q.feeAmount);
  const feeAmountIn = units(q.feeAmountIn);
  // The fee sent, at the quoted rate, up to the quoted fee: a short fee leaves the request fee_short (lib/payments/fee-legs.ts).
  const fee = feeAmountIn === 0n ? 0n : ev.feeAmount >= feeAmountIn ? feeAmount : (ev.feeAmount * feeAmount) / feeAmountIn;
  const credited = units(q.requestAmount);
  return {
    quoteId: q.id,
    credited,
    columns: {
      invoiceAmount: credited.toString(),
      invoiceFeeAmount: fee.toString(),
      conversionRate: q.rate.toFixed(18),
      amountInUsd: q.amountInUsd === null ? null : q.amountInUsd.toFixed(FIAT_PATH_DECIMALS),
    },
  };
}

/** Marks the quote as used by the payment just recorded (same transaction as the payment). */
export async function bindQuote(tx: Prisma.TransactionClient, quoteId: string, paymentId: string): Promise<void> {
  await tx.conversionQuote.update({ where: { id: quoteId }, data: { paymentId } });
}

/** The rate a quoted conversion would get now (GET /v2/request/{id}'s currentMarketRate); null when it cannot be read. */
export async function quotedMarketRate(row: Pick<PaymentRequest, "invoiceCurrency" | "network">, token: Token) {
  const source = quotedRateSource(row.network as NetworkId);
  if (!source) return null;
  const r = await source.quote(row.invoiceCurrency, token);
  return { rate: humanRate(r, FIAT_PATH_DECIMALS, token.decimals), toUsd: r.toUsd };
}
