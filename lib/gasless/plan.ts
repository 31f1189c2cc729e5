import { getAddress, type Hex, parseUnits, toHex } from "viem";
import { asHex, parseAddressFor, sameAddress } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import { isNetworkId, type NetworkId } from "@/lib/chain/networks";
import { findTokenCurrency } from "@/lib/currencies/registry";
import { env } from "@/lib/env";
import { AppError, notFound } from "@/lib/errors";
import type { AccessPolicy } from "@/lib/kyt/screen";
import { formatAmount } from "@/lib/money";
import { authorizationDomain, relayerUnavailableReason, signatureRelayer, tokenAuthorizations } from "@/lib/relayer";
import { dueOf } from "@/lib/secure-payments/due";
import { loadLink } from "@/lib/secure-payments/page-data";
import { type GaslessAuthorization, type GaslessPayment, paymentNonce, receiveTypedData, totalOf } from "./terms";

/**
 * A gasless payment's plan for a link, a wallet and the link's token: what the payer signs (one
 * ReceiveWithAuthorization, no gas), every amount it commits to — the request's amount and fee from the
 * request's own fee rule (lib/secure-payments/due.ts, the same legs the wallet flow pays: the payer cannot
 * skip the fee) and the relayer's fee — and until when it is valid. GET answers a fresh plan (new salt and
 * validity); POST rebuilds the very same plan from the salt and validity the payer signed, so nothing of
 * the payment comes from the client but the signature.
 */

/** How long a signed plan may wait for submission: long enough to read and sign, short enough that a stale one dies. */
export const PLAN_VALIDITY_SECONDS = 30 * 60;

export interface GaslessPlan {
  requestId: string;
  accountId: string;
  network: { id: NetworkId; name: string; chainId: number };
  token: { symbol: string; address: Hex; decimals: number };
  contract: Hex;
  payment: GaslessPayment;
  authorization: GaslessAuthorization;
  typedData: ReturnType<typeof receiveTypedData>;
  /** Human decimal strings, in the token. */
  amounts: { amount: string; fee: string; relayerFee: string; total: string };
  expiresAt: Date;
}

/** Why gasless pay is not offered for a link's network and token; null when it is (the page reads this too). */
export function gaslessUnavailableReason(network: string, tokenAddress: string | null, symbol = "This token"): string | null {
  if (!isNetworkId(network)) return "Unknown network";
  const rt = networkRuntime(network);
  if (rt.network.kind !== "evm") return `Gasless pay is not available on ${rt.network.name}: pay with a wallet (TRX pays the fees)`;
  const auth = tokenAddress ? tokenAuthorizations(network, tokenAddress) : null;
  if (!auth?.eip3009)
    return `${symbol} on ${rt.network.name} has no EIP-3009 (transferWithAuthorization): paying it needs ${rt.network.nativeSymbol} for gas`;
  if (!rt.contracts.gaslessPayments) return `Gasless pay is not deployed on ${rt.network.name} (DuebillGaslessPayments)`;
  return relayerUnavailableReason(network);
}

export interface PlanChoice {
  /** The salt and validity the payer signed (POST); fresh ones otherwise (GET). */
  salt?: Hex;
  validBefore?: bigint;
  now?: Date;
}

export async function gaslessPlan(linkToken: string, walletInput: string, choice: PlanChoice = {}): Promise<GaslessPlan> {
  const link = await loadLink(linkToken);
  if (!link || !isNetworkId(link.sp.network)) throw notFound("Secure payment not found");
  const { sp, requests, status } = link;
  if (status !== "pending") throw new AppError("conflict", `This payment link is ${status.replace("_", " ")}`);
  if (sp.direction !== "incoming") throw new AppError("conflict", "A payout link is paid from the creator's wallet, with gas");
  if (link.multicall || requests.length !== 1) throw new AppError("conflict", "Gasless pay pays a link of one payment");
  const network = link.sp.network;
  const currency = sp.currency ? findTokenCurrency(sp.currency) : undefined;
  const request = requests[0]!;
  const why = gaslessUnavailableReason(network, request.tokenAddress, currency?.token.symbol);
  // Refused by name: the wallet flow still pays the link (a 409, as a deposit address that cannot be offered).
  if (why) throw new AppError("conflict", why);
  const rt = networkRuntime(network);
  const wallet = getAddress(parseAddressFor(network, walletInput, "wallet"));
  const allowed = (sp.accessPolicy as AccessPolicy | null)?.allowedPayerAddresses ?? [];
  if (allowed.length > 0 && !allowed.some((a) => sameAddress(a, wallet)))
    throw new AppError("forbidden", "This wallet is not allowed to pay this link");

  // The request's own fee rule: exactly the legs the wallet flow would pay.
  const { legs } = await dueOf(requests);
  const due = legs[0];
  if (!due) throw new AppError("conflict", "Already paid");
  if (due.extraFeeLegs.length > 0)
    throw new AppError("conflict", "This link's fee goes to several addresses: pay it with a wallet (the contract pays one fee address)");
  const decimals = currency?.token.decimals ?? 6;
  const relayer = signatureRelayer()!;
  const relayerFee = parseUnits(env().GASLESS_RELAYER_FEE, decimals);
  const contract = getAddress(rt.contracts.gaslessPayments!) as Hex;
  const token = getAddress(request.tokenAddress) as Hex;
  const payment: GaslessPayment = {
    token,
    from: wallet as Hex,
    payee: getAddress(request.payee) as Hex,
    amount: due.amount,
    feeAddress: getAddress(due.feeAddress ?? "0x0000000000000000000000000000000000000000") as Hex,
    feeAmount: due.feeAmount,
    relayerFeeAddress: getAddress(env().GASLESS_RELAYER_FEE_ADDRESS ?? relayer.address) as Hex,
    relayerFee,
    paymentReference: asHex(request.paymentReference),
    salt: choice.salt ?? toHex(crypto.getRandomValues(new Uint8Array(32))),
  };
  const now = choice.now ?? new Date();
  const validBefore = choice.validBefore ?? BigInt(Math.floor(now.getTime() / 1000) + PLAN_VALIDITY_SECONDS);
  const authorization: GaslessAuthorization = { validAfter: 0n, validBefore, nonce: paymentNonce(rt.network.chainId, contract, payment) };
  const domain = await authorizationDomain(network, token);
  if (!domain) throw new AppError("upstream_unavailable", `The ${rt.network.name} node cannot be read now: try again`);
  const fmt = (v: bigint) => formatAmount(v, decimals);
  return {
    requestId: request.id,
    accountId: sp.accountId,
    network: { id: network, name: rt.network.name, chainId: rt.network.chainId },
    token: { symbol: currency?.token.symbol ?? "", address: token, decimals },
    contract,
    payment,
    authorization,
    typedData: receiveTypedData(domain, contract, payment, authorization),
    amounts: { amount: fmt(payment.amount), fee: fmt(payment.feeAmount), relayerFee: fmt(relayerFee), total: fmt(totalOf(payment)) },
    expiresAt: new Date(Number(validBefore) * 1000),
  };
}
