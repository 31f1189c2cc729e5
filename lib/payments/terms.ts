import { parseAddressFor } from "@/lib/chain/address";
import { type NetworkRuntime, networkRuntime } from "@/lib/chain/config";
import { FIAT_PATH_DECIMALS } from "@/lib/chain/conversion";
import type { NetworkId } from "@/lib/chain/networks";
import { conversionConfigured, conversionUnavailable } from "@/lib/chain/rate-source";
import type { Token } from "@/lib/chain/tokens";
import { findCurrency, unpayableCurrencyMessage } from "@/lib/currencies/registry";
import { invalidField } from "@/lib/errors";
import { applyFeePercentage, parseAmount, parseFeePercentage, rescale } from "@/lib/money";

/**
 * What a request or payout owes, resolved once from the integrator's input: network (its runtime
 * configuration: contracts, RPC, token addresses) and token from `paymentCurrency`, the amount in
 * token base units, the payee, the fee and the payer validated for that network. Every rejection
 * names the field at fault. Persistence (requests/create-request) and the pay plans (payments/plan)
 * take what they need from this object: nothing below resolves the network again.
 */
export interface PaymentTerms {
  network: NetworkId;
  /** The network's runtime configuration, resolved here once. */
  runtime: NetworkRuntime;
  chain: "evm" | "tron";
  invoiceCurrency: string;
  paymentCurrency: string;
  token: Token;
  amount: string;
  expectedAmount: bigint;
  payee: string;
  feePercentage: string | null;
  feeAddress: string | null;
  feeAmount: bigint;
  /** The payer's wallet when the input names one (TermsOptions.payer), validated for the network last. */
  payer?: string;
  /**
   * A fiat invoice paid through Erc20ConversionProxy: expectedAmount and feeAmount are in the invoice
   * currency at the conversion path's 8 decimals; the token amount is fixed at pay time from the rate.
   */
  isConversion: boolean;
}

export interface TermsInput {
  amount: string;
  invoiceCurrency: string;
  paymentCurrency: string;
  payee?: string;
  feePercentage?: string;
  feeAddress?: string;
}

const at = (prefix: string, field: string) => (prefix ? `${prefix}.${field}` : field);

export interface TermsOptions {
  /** Accept fiat invoices other than USD, paid through the network's conversion proxy (requests only). */
  conversion?: boolean;
  /** A payer wallet to validate with the terms (after every other field), and the field it came in. */
  payer?: { address: string; field: string };
}

export function resolveTerms(input: TermsInput, prefix = "", opts: TermsOptions = {}): PaymentTerms {
  const payment = findCurrency(input.paymentCurrency);
  if (!payment) throw invalidField(at(prefix, "paymentCurrency"), unpayableCurrencyMessage(input.paymentCurrency));
  if (payment.kind !== "token") throw invalidField(at(prefix, "paymentCurrency"), "must be a token currency ID such as USDC-base");
  const network = payment.token.network;
  const runtime = networkRuntime(network);
  const token = runtime.tokens.find((t) => t.symbol === payment.token.symbol) ?? payment.token;

  const invoice = findCurrency(input.invoiceCurrency);
  if (!invoice) throw invalidField(at(prefix, "invoiceCurrency"), unpayableCurrencyMessage(input.invoiceCurrency));
  let expectedAmount: bigint;
  let isConversion = false;
  if (invoice.kind === "token") {
    const sameAsset =
      invoice.token.network === network &&
      (invoice.token.paymentAliasOf ?? invoice.token.symbol) === (token.paymentAliasOf ?? token.symbol);
    if (invoice.token.network !== network)
      throw invalidField(
        at(prefix, "paymentCurrency"),
        `${payment.id} is not on the invoice currency's network (${invoice.token.network})`,
      );
    if (!sameAsset) throw invalidField(at(prefix, "paymentCurrency"), `an invoice in ${invoice.id} must be paid in ${invoice.id}`);
    expectedAmount = parseAmount(input.amount, invoice.token.decimals, at(prefix, "amount"));
  } else if (invoice.fiat.code === "USD" && token.usdPegged) {
    // USD invoices paid in a dollar stablecoin settle 1:1; the amount keeps USD's 2 decimals.
    expectedAmount = rescale(parseAmount(input.amount, invoice.fiat.decimals, at(prefix, "amount")), invoice.fiat.decimals, token.decimals);
  } else if (opts.conversion && invoice.fiat.code !== "USD") {
    // Paid through Erc20ConversionProxy with a Chainlink path (on Tron, at a quoted rate: lib/chain/rate-source.ts):
    // the request amount is fiat with 8 decimals.
    if (!conversionConfigured(token, runtime)) {
      const unavailable = conversionUnavailable(runtime);
      throw invalidField(
        at(prefix, "paymentCurrency"),
        unavailable
          ? `${payment.id} cannot pay ${invoice.id} invoices: ${unavailable}`
          : `${payment.id} cannot pay ${invoice.id} invoices: conversion payments take USDC, USDT, DAI or FAU`,
      );
    }
    expectedAmount = rescale(
      parseAmount(input.amount, invoice.fiat.decimals, at(prefix, "amount")),
      invoice.fiat.decimals,
      FIAT_PATH_DECIMALS,
    );
    isConversion = true;
  } else {
    throw invalidField(
      at(prefix, "invoiceCurrency"),
      opts.conversion
        ? `${invoice.id} invoices are paid 1:1 in a dollar stablecoin; ${payment.id} is not one`
        : `${invoice.id} invoices need a price feed to convert to ${payment.id}; use USD or the payment currency itself (fiat conversion: POST /v2/request)`,
    );
  }

  if (!input.payee) throw invalidField(at(prefix, "payee"), "is required");
  const payee = parseAddressFor(network, input.payee, at(prefix, "payee"));

  let feePercentage: string | null = null;
  let feeAddress: string | null = null;
  let feeAmount = 0n;
  if (input.feePercentage !== undefined) {
    const pct = parseFeePercentage(input.feePercentage, at(prefix, "feePercentage"));
    feeAmount = applyFeePercentage(expectedAmount, pct.basisPointsE2);
    feePercentage = pct.text;
  }
  if (input.feeAddress !== undefined) feeAddress = parseAddressFor(network, input.feeAddress, at(prefix, "feeAddress"));
  if (feeAmount > 0n && !feeAddress) throw invalidField(at(prefix, "feeAddress"), "is required with a non-zero feePercentage");
  const payer = opts.payer && parseAddressFor(network, opts.payer.address, opts.payer.field);

  return {
    network,
    runtime,
    chain: network === "tron" ? "tron" : "evm",
    invoiceCurrency: invoice.id,
    paymentCurrency: payment.id,
    token,
    amount: input.amount,
    expectedAmount,
    payee,
    feePercentage,
    feeAddress,
    feeAmount,
    payer,
    isConversion,
  };
}
