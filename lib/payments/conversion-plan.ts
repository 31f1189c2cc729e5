import { conversionPayTx } from "@/lib/chain/calldata";
import type { NetworkRuntime } from "@/lib/chain/config";
import {
  type ConversionRate,
  conversionContracts,
  conversionPath,
  convert,
  DEFAULT_MAX_RATE_TIMESPAN,
  FIAT_PATH_DECIMALS,
  fiatHash,
  humanRate,
  readConversionRate,
} from "@/lib/chain/conversion";
import type { Token } from "@/lib/chain/tokens";
import { AppError, invalidField } from "@/lib/errors";
import { formatAmount } from "@/lib/money";
import { approvalsFor, assemble, GAS_PER_PAYMENT, type PaymentPlan } from "@/lib/payments/plan";

export interface ConversionPayment {
  /** The network's runtime (conversion contracts, RPC), resolved once by the caller's terms. */
  runtime: NetworkRuntime;
  token: Token;
  /** Fiat invoice code (EUR, GBP, CNY, JPY). */
  invoiceCurrency: string;
  paymentCurrency: string;
  payee: string;
  /** Invoice-currency amounts at the path's 8 decimals. */
  requestAmount: bigint;
  feeAmount: bigint;
  feeAddress: string | null;
  paymentReference: `0x${string}`;
  maxRateTimespan?: number;
}

/** maxToSpend: the converted total plus 1 % (docs/spec/DECISIONS.md), rounded up. */
export function withSlippage(total: bigint): bigint {
  return total + (total + 99n) / 100n;
}

/**
 * A fiat invoice paid through Erc20ConversionProxy: approve the proxy for maxToSpend, then
 * transferFromWithReferenceAndFee(to, requestAmount, path, reference, feeAmount, feeAddress, maxToSpend,
 * maxRateTimespan). The rate is read from the network's ChainlinkConversionPath now; when its oldest
 * feed is older than maxRateTimespan the calldata is still returned, with a warning that it would revert.
 */
export async function planConversionPayment(p: ConversionPayment, wallet: string | undefined): Promise<PaymentPlan> {
  const network = p.runtime.network.id;
  const contracts = conversionContracts(p.runtime);
  if (!contracts) throw invalidField("paymentCurrency", `${network} has no conversion proxy configured`);
  const path = await conversionPath(p.runtime, fiatHash(p.invoiceCurrency), p.token);
  if (path === undefined)
    throw new AppError("upstream_unavailable", `Conversion payments on ${network} need a configured RPC to read the rate`);
  if (path === null)
    throw invalidField("paymentCurrency", `no ${p.invoiceCurrency} price feed path to ${p.token.symbol} on ${network} any more`);
  const rate: ConversionRate = await readConversionRate(p.runtime, path);
  const maxRateTimespan = p.maxRateTimespan ?? DEFAULT_MAX_RATE_TIMESPAN;
  const amount = convert(p.requestAmount, rate);
  const fee = convert(p.feeAmount, rate);
  const maxToSpend = withSlippage(amount + fee);
  const age = Math.max(0, rate.blockTimestamp - rate.oldestRateTimestamp);
  const stale = maxRateTimespan > 0 && age > maxRateTimespan;
  const rateText = humanRate(rate, FIAT_PATH_DECIMALS, p.token.decimals);

  const funding = await approvalsFor({
    runtime: p.runtime,
    token: p.token.address,
    spender: contracts.proxy,
    total: maxToSpend,
    wallet,
    approveResetRequired: p.token.approveResetRequired ?? false,
    paymentGas: GAS_PER_PAYMENT * 2n,
  });
  const payment = conversionPayTx({
    proxy: contracts.proxy,
    to: p.payee,
    requestAmount: p.requestAmount,
    path,
    paymentReference: p.paymentReference,
    feeAmount: p.feeAmount,
    feeAddress: p.feeAddress,
    maxToSpend,
    maxRateTimespan: BigInt(maxRateTimespan),
  });
  const plan = assemble(funding.approvals, payment, funding);
  const iso = (t: number) => new Date(t * 1000).toISOString();
  plan.metadata.conversion = {
    invoiceCurrency: p.invoiceCurrency,
    requestAmount: formatAmount(p.requestAmount, FIAT_PATH_DECIMALS),
    feeAmount: formatAmount(p.feeAmount, FIAT_PATH_DECIMALS),
    paymentCurrency: p.paymentCurrency,
    path,
    rate: rateText,
    rateSource: "chainlink",
    rateUpdatedAt: iso(rate.oldestRateTimestamp),
    rateAgeSeconds: age,
    maxRateTimespan,
    rateExpiresAt: iso(rate.oldestRateTimestamp + maxRateTimespan),
    rateIsStale: stale,
    convertedAmount: formatAmount(amount, p.token.decimals),
    convertedFeeAmount: formatAmount(fee, p.token.decimals),
    maxToSpend: formatAmount(maxToSpend, p.token.decimals),
    warning: stale
      ? `The ${p.invoiceCurrency}→${p.token.symbol} rate was last updated ${age} s ago, more than maxRateTimespan (${maxRateTimespan} s): ` +
        `Erc20ConversionProxy would revert with "aggregator rate is outdated". Wait for a fresh rate (the price feed must update), then request the calldata again.`
      : null,
  };
  return plan;
}
