import { isEvmAddress, isTronAddress, toChecksumAddress } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import { conversionContracts, conversionTokenConfigured, FIAT_PATH_DECIMALS } from "@/lib/chain/conversion";
import type { NetworkId } from "@/lib/chain/networks";
import type { Token } from "@/lib/chain/tokens";
import { findCurrency } from "@/lib/currencies/registry";
import { invalidField } from "@/lib/errors";
import { applyFeePercentage, parseAmount, parseFeePercentage, rescale } from "@/lib/money";

/**
 * What a request or payout owes, resolved from the integrator's input: network and token
 * from `paymentCurrency`, the amount in token base units, the payee and fee validated for
 * that network. Every rejection names the field at fault.
 */
export interface PaymentTerms {
  network: NetworkId;
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

/** Validates an address for a network and returns its canonical form (EIP-55 on EVM). */
export function parseAddressFor(network: NetworkId, value: string, field: string): string {
  if (network === "tron") {
    if (!isTronAddress(value)) throw invalidField(field, `must be a Tron base58 address (T...) for network ${network}`);
    return value;
  }
  if (!isEvmAddress(value)) {
    const hint = isTronAddress(value)
      ? `a Tron address cannot receive on ${network}`
      : "must be a 0x-prefixed 20-byte address with a valid checksum";
    throw invalidField(field, hint);
  }
  return toChecksumAddress(value);
}

const at = (prefix: string, field: string) => (prefix ? `${prefix}.${field}` : field);

export interface TermsOptions {
  /** Accept fiat invoices other than USD, paid through the network's conversion proxy (requests only). */
  conversion?: boolean;
}

export function resolveTerms(input: TermsInput, prefix = "", opts: TermsOptions = {}): PaymentTerms {
  const payment = findCurrency(input.paymentCurrency);
  if (!payment) throw invalidField(at(prefix, "paymentCurrency"), `Unknown currency "${input.paymentCurrency}"`);
  if (payment.kind !== "token") throw invalidField(at(prefix, "paymentCurrency"), "must be a token currency ID such as USDC-base");
  const network = payment.token.network;
  const token = networkRuntime(network).tokens.find((t) => t.symbol === payment.token.symbol) ?? payment.token;

  const invoice = findCurrency(input.invoiceCurrency);
  if (!invoice) throw invalidField(at(prefix, "invoiceCurrency"), `Unknown currency "${input.invoiceCurrency}"`);
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
    // Paid through Erc20ConversionProxy with a Chainlink path: the request amount is fiat with 8 decimals.
    if (!conversionTokenConfigured(token))
      throw invalidField(
        at(prefix, "paymentCurrency"),
        conversionContracts(network)
          ? `${payment.id} cannot pay ${invoice.id} invoices: conversion payments take USDC, USDT, DAI or FAU`
          : `${payment.id} cannot pay ${invoice.id} invoices: ${network} has no conversion proxy configured`,
      );
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

  return {
    network,
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
    isConversion,
  };
}
