import { FIAT_PATH_DECIMALS } from "@/lib/chain/conversion";
import { explorerLink, tokenOf } from "@/lib/chain/stored";
import type { ExportRow } from "@/lib/exports/columns";
import { formatAmount } from "@/lib/money";

/**
 * Export rows from the columns the batch queries read (lib/exports/sources.ts). Amounts arrive as the
 * database's base-unit integers (text) and leave as decimal strings: token units with the token's
 * decimals; a conversion request's invoice amounts at the conversion path's 8 decimals.
 */

/** The request's columns every row carries. */
export interface RequestCols {
  requestId: string;
  kind: "request" | "payout";
  reference: string | null;
  invoiceNumber: string | null;
  network: string;
  invoiceCurrency: string;
  paymentCurrency: string;
  requestTokenAddress: string;
  isConversion: boolean;
  paymentReference: string;
  requestStatus: string;
  requestAmount: string;
  expectedAmount: string;
  requestFeeAmount: string;
  requestFeeAddress: string | null;
  requestPayee: string;
  requestPayer: string | null;
  amountPaid: string;
  amountRefunded: string;
}

export interface PaymentCols extends RequestCols {
  id: string;
  time: Date;
  txHash: string;
  logIndex: number;
  blockNumber: string;
  payer: string | null;
  payee: string;
  tokenAddress: string;
  amount: string;
  feeAmount: string;
  feeAddress: string | null;
  invoiceAmount: string | null;
}

export interface RefundCols extends RequestCols {
  id: string;
  time: Date;
  txHash: string | null;
  logIndex: number | null;
  blockNumber: string | null;
  toAddress: string;
  tokenAddress: string;
  amount: string;
  refundReference: string;
  refundStatus: string;
  sender: "payee" | "relayer";
  depositAddress: string | null;
}

export interface RequestRowCols extends RequestCols {
  time: Date;
}

/** `USDC` of `USDC-base` (network IDs may hold a hyphen: the request's network is cut off whole). */
function symbolOf(currency: string, network: string): string {
  if (currency.endsWith(`-${network}`)) return currency.slice(0, -(network.length + 1));
  return currency.includes("-") ? currency.slice(0, currency.indexOf("-")) : currency;
}

/** The token's decimals, read once per currency; an unknown stored currency gets 18 rather than a failed export. */
const decimalsCache = new Map<string, number>();
function decimalsOf(r: RequestCols): number {
  const key = `${r.network}|${r.paymentCurrency}`;
  let d = decimalsCache.get(key);
  if (d === undefined) {
    try {
      d = tokenOf(r).decimals;
    } catch {
      d = 18;
    }
    decimalsCache.set(key, d);
  }
  return d;
}

const units = (v: string | null, decimals: number) => (v === null ? null : formatAmount(BigInt(v), decimals));
const negate = (v: string) => (v === "0" ? v : `-${v}`);

/** Columns of the request itself, the same on every row of it. */
function requestPart(r: RequestCols) {
  const decimals = decimalsOf(r);
  return {
    requestId: r.requestId,
    reference: r.reference,
    invoiceNumber: r.invoiceNumber,
    network: r.network,
    tokenSymbol: symbolOf(r.paymentCurrency, r.network),
    invoiceCurrency: r.invoiceCurrency,
    // amountPaid is kept in the invoice currency's path units for a conversion request, in token units otherwise.
    paidAmount: units(r.amountPaid, r.isConversion ? FIAT_PATH_DECIMALS : decimals),
    refundedAmount: units(r.amountRefunded, decimals),
  };
}

export function paymentRow(p: PaymentCols): ExportRow {
  const decimals = decimalsOf(p);
  const amount = units(p.amount, decimals)!;
  const out = p.kind === "payout";
  return {
    date: p.time.toISOString(),
    type: out ? "payout" : "payment",
    direction: out ? "out" : "in",
    id: p.id,
    ...requestPart(p),
    tokenAddress: p.tokenAddress,
    amount,
    signedAmount: out ? negate(amount) : amount,
    // Without conversion the invoice currency is the token or USD paid 1:1 in a dollar stablecoin.
    invoiceAmount: p.isConversion ? units(p.invoiceAmount, FIAT_PATH_DECIMALS) : amount,
    feeAmount: units(p.feeAmount, decimals),
    feeAddress: p.feeAddress,
    payer: p.payer,
    payee: p.payee,
    txHash: p.txHash,
    logIndex: p.logIndex,
    blockNumber: p.blockNumber,
    explorerUrl: explorerLink(p.network, p.txHash),
    paymentReference: p.paymentReference,
    status: p.requestStatus,
  };
}

export function refundRow(f: RefundCols): ExportRow {
  const decimals = decimalsOf(f);
  const amount = units(f.amount, decimals)!;
  return {
    date: f.time.toISOString(),
    type: "refund",
    direction: "out",
    id: f.id,
    ...requestPart(f),
    tokenAddress: f.tokenAddress,
    amount,
    signedAmount: negate(amount),
    // A refund is sent in the token; its invoice-currency value is known only without conversion.
    invoiceAmount: f.isConversion ? null : amount,
    feeAmount: "0",
    feeAddress: null,
    // Who sends it: the payee's wallet, or Duebill's relayer from the request's deposit address.
    payer: f.sender === "relayer" ? f.depositAddress : f.requestPayee,
    payee: f.toAddress,
    txHash: f.txHash,
    logIndex: f.logIndex,
    blockNumber: f.blockNumber,
    explorerUrl: f.txHash ? explorerLink(f.network, f.txHash) : null,
    paymentReference: f.refundReference,
    status: f.refundStatus,
  };
}

export function requestRow(r: RequestRowCols): ExportRow {
  const decimals = decimalsOf(r);
  const amount = r.isConversion ? null : units(r.expectedAmount, decimals);
  return {
    date: r.time.toISOString(),
    type: r.kind,
    direction: r.kind === "payout" ? "out" : "in",
    id: r.requestId,
    ...requestPart(r),
    tokenAddress: r.requestTokenAddress,
    amount,
    signedAmount: null,
    invoiceAmount: r.requestAmount,
    feeAmount: units(r.requestFeeAmount, r.isConversion ? FIAT_PATH_DECIMALS : decimals),
    feeAddress: r.requestFeeAddress,
    payer: r.requestPayer,
    payee: r.requestPayee,
    txHash: null,
    logIndex: null,
    blockNumber: null,
    explorerUrl: null,
    paymentReference: r.paymentReference,
    status: r.requestStatus,
  };
}
