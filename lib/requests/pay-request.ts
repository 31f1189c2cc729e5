import { asHex, parseAddressFor } from "@/lib/chain/address";
import { FIAT_PATH_DECIMALS } from "@/lib/chain/conversion";
import { storedTermsOf } from "@/lib/chain/stored";
import { AppError, invalidField } from "@/lib/errors";
import { applyFeePercentage, formatAmount, parseFeePercentage } from "@/lib/money";
import { planConversionPayment } from "@/lib/payments/conversion-plan";
import { feeProgressOf, payableOf } from "@/lib/payments/fee-legs";
import { parsePartAmount, partialPayable } from "@/lib/payments/partial";
import { feeForRemaining, type PaymentPlan, planSinglePayment } from "@/lib/payments/plan";
import { isConversionQuoteId, isQuotedConversion, planQuotedConversion } from "@/lib/payments/quoted-conversion";
import { getRequestOrThrow } from "@/lib/requests/get-request";
import {
  assertCrossChainPayable,
  type CrossChainTerms,
  crossChainPayableRefusal,
  crossChainRoutes,
  parseCrossChainQuery,
  payCrossChain,
} from "@/lib/requests/pay-crosschain";
import { ROUTE_CHAIN_LABEL } from "@/lib/routing/route-id";

export interface PayOptions {
  wallet?: string;
  chain?: string;
  token?: string;
  feePercentage?: string;
  feeAddress?: string;
  quoteId?: string;
  /** Part of what is owed, in the invoice currency (lib/payments/partial.ts); the whole rest when absent. */
  amount?: string;
}

/**
 * Exactly what is still missing: the rest of the amount and each fee leg's rest (lib/payments/fee-legs.ts) —
 * a request whose fee came short asks for the fee alone. Fee overrides apply at payment time: the
 * fee then is the override's share of what remains.
 */
async function remainingTerms(accountId: string, requestId: string, opts: PayOptions) {
  const row = await getRequestOrThrow(accountId, requestId);
  if (row.status === "paid") throw new AppError("conflict", "Request has already been paid");
  // Resolved once (network runtime and token) and handed down to the plan.
  const { network, runtime, token } = storedTermsOf(row);
  const expected = BigInt(row.expectedAmount.toFixed());
  const progress = (await feeProgressOf([row])).get(row.id)!;
  const payable =
    opts.amount === undefined
      ? payableOf(row, progress)
      : partialPayable(row, progress, expected, parsePartAmount(opts.amount, row, token, progress.owedAmount));
  let { feeAmount, feeAddress, extraFeeLegs } = payable;
  if (opts.feePercentage !== undefined || opts.feeAddress !== undefined) {
    let fee = BigInt(row.feeAmount.toFixed());
    if (opts.feePercentage !== undefined)
      fee = applyFeePercentage(expected, parseFeePercentage(opts.feePercentage, "feePercentage").basisPointsE2);
    feeAddress = opts.feeAddress !== undefined ? parseAddressFor(network, opts.feeAddress, "feeAddress") : row.feeAddress;
    if (fee > 0n && !feeAddress) throw invalidField("feeAddress", "is required with a non-zero feePercentage");
    feeAmount = feeForRemaining(fee, payable.amount, expected);
    extraFeeLegs = [];
  }
  const wallet = opts.wallet === undefined ? undefined : parseAddressFor(network, opts.wallet, "wallet");
  return {
    row,
    network,
    runtime,
    token,
    amount: payable.amount,
    feeAmount,
    feeAddress,
    extraFeeLegs,
    wallet,
    feePercentage: opts.feePercentage ?? row.feePercentage,
  };
}

/** GET /v2/request/{requestId}/pay: approvals (when needed) then the fee-proxy payment. */
export async function payRequest(accountId: string, requestId: string, opts: PayOptions): Promise<PaymentPlan | CrossChainPlan> {
  if (opts.quoteId !== undefined && opts.chain === undefined && !isConversionQuoteId(opts.quoteId))
    throw invalidField("quoteId", "goes with chain and token (cross-chain), or is a Tron conversion quote's id (cq_…)");
  if ((opts.chain === undefined) !== (opts.token === undefined))
    throw invalidField(opts.chain === undefined ? "chain" : "token", "chain and token go together (cross-chain); omit both for same-chain");
  if (opts.chain !== undefined && opts.token !== undefined) {
    if (opts.amount !== undefined) throw invalidField("amount", "partial payments are same-chain: omit chain and token");
    // Validate the query before reading the request, so bad input is a 400 whatever the request.
    parseCrossChainQuery(opts.chain, opts.token);
    const t = await remainingTerms(accountId, requestId, { ...opts, wallet: undefined });
    if (t.row.isConversion)
      throw invalidField(
        "chain",
        isQuotedConversion(t.row)
          ? `cross-chain payment does not reach Tron: pay this ${t.row.invoiceCurrency} invoice in ${t.row.paymentCurrency} on Tron (omit chain and token)`
          : `a ${t.row.invoiceCurrency} invoice is paid through the conversion proxy on ${t.network}; omit chain and token`,
      );
    assertCrossChainPayable(t);
    return payCrossChain(crossChainTerms(t), { chain: opts.chain, token: opts.token, wallet: opts.wallet, quoteId: opts.quoteId });
  }
  const t = await remainingTerms(accountId, requestId, opts);
  // Tron has no conversion proxy: the plan fixes the token amount from a quote (lib/payments/quoted-conversion.ts).
  if (isQuotedConversion(t.row)) {
    const { runtime, token, row: request, amount: requestAmount, feeAmount, feeAddress } = t;
    const paymentReference = asHex(request.paymentReference);
    return planQuotedConversion(
      { runtime, token, request, requestAmount, feeAmount, feeAddress, paymentReference },
      t.wallet,
      opts.quoteId,
    );
  }
  if (opts.quoteId !== undefined) throw invalidField("quoteId", "is not a quote of this request");
  if (t.row.isConversion)
    return planConversionPayment(
      {
        runtime: t.runtime,
        token: t.token,
        invoiceCurrency: t.row.invoiceCurrency,
        paymentCurrency: t.row.paymentCurrency,
        payee: t.row.payee,
        requestAmount: t.amount,
        feeAmount: t.feeAmount,
        feeAddress: t.feeAddress,
        paymentReference: asHex(t.row.paymentReference),
      },
      t.wallet,
    );
  return planSinglePayment(
    {
      runtime: t.runtime,
      tokenAddress: t.row.tokenAddress,
      payee: t.row.payee,
      amount: t.amount,
      feeAmount: t.feeAmount,
      feeAddress: t.feeAddress,
      paymentReference: asHex(t.row.paymentReference),
      approveResetRequired: t.token.approveResetRequired ?? false,
      extraFeeLegs: t.extraFeeLegs,
    },
    t.wallet,
  );
}

type Terms = Awaited<ReturnType<typeof remainingTerms>>;

export type CrossChainPlan = Awaited<ReturnType<typeof payCrossChain>>;

function crossChainTerms(t: Terms): CrossChainTerms {
  return {
    requestId: t.row.id,
    accountId: t.row.accountId,
    network: t.network,
    token: t.token,
    expected: BigInt(t.row.expectedAmount.toFixed()),
    amount: t.amount,
    feeAmount: t.feeAmount,
    feeAddress: t.feeAddress,
    payee: t.row.payee,
    paymentReference: asHex(t.row.paymentReference),
    tokenAddress: t.row.tokenAddress,
  };
}

/**
 * GET /v2/request/{requestId}/routes: the same-chain route and the cross-chain routes the routing
 * provider quotes (lib/routing), ranked by fee, then speed (same-chain is FAST).
 */
export async function listRoutes(accountId: string, requestId: string, opts: PayOptions) {
  const t = await remainingTerms(accountId, requestId, opts);
  const pct = t.feePercentage ? Number(t.feePercentage) / 100 : 0;
  // A conversion request's fee is owed in its invoice currency (converted when paid); it has no cross-chain route.
  const feeText = formatAmount(t.feeAmount, t.row.isConversion ? FIAT_PATH_DECIMALS : t.token.decimals);
  const feeCurrency = t.row.isConversion ? t.row.invoiceCurrency : t.token.symbol;
  // No cross-chain route where GET /pay would refuse one (a fee alone, fees to several addresses).
  const crossChain = t.row.isConversion || crossChainPayableRefusal(t) ? [] : await crossChainRoutes(crossChainTerms(t), opts.wallet, pct);
  const speedRank = (s: "FAST" | number) => (s === "FAST" ? 0 : s);
  return {
    routes: [
      {
        id: "REQUEST_NETWORK_PAYMENT",
        fee: pct,
        feeBreakdown:
          t.feeAmount > 0n
            ? [
                {
                  type: "platform",
                  stage: "sending",
                  provider: "duebill",
                  amount: feeText,
                  amountInUSD: t.token.usdPegged && !t.row.isConversion ? feeText : null,
                  currency: feeCurrency,
                },
              ]
            : [],
        speed: "FAST" as "FAST" | number,
        chain: ROUTE_CHAIN_LABEL[t.network],
        token: t.token.symbol,
      },
      ...crossChain,
    ].sort((a, b) => a.fee - b.fee || speedRank(a.speed) - speedRank(b.speed)),
  };
}
