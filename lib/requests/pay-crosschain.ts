import { encodeFunctionData, erc20Abi, getAddress, isAddress } from "viem";
import { asHex } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import { NETWORKS, type NetworkId } from "@/lib/chain/networks";
import { chainReaderFor } from "@/lib/chain/reader";
import { isLocalChain, networkOf, tokenOf } from "@/lib/chain/stored";
import type { Token } from "@/lib/chain/tokens";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { AppError, invalidField } from "@/lib/errors";
import type { PaymentRequest } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";
import { formatAmount } from "@/lib/money";
import { routingProvider } from "@/lib/routing/index";
import {
  CROSS_CHAIN_NETWORKS,
  CROSS_CHAIN_PAY_TOKENS,
  CROSS_CHAIN_TOKENS,
  type CrossChainNetwork,
  type CrossChainToken,
  type DestinationPayment,
  ROUTE_CHAIN_LABEL,
  type RouteQuote,
  RoutingProviderError,
} from "@/lib/routing/types";

/** `chain` query values (docs/spec/DECISIONS.md "Cross-chain and conversion") → network ids. */
const CHAIN_BY_LABEL: Record<string, CrossChainNetwork> = Object.fromEntries(CROSS_CHAIN_NETWORKS.map((n) => [ROUTE_CHAIN_LABEL[n], n]));
const CHAIN_LABELS = Object.keys(CHAIN_BY_LABEL);

export const CROSS_CHAIN_MIN_USD = 1;

/** What a cross-chain payment needs to know of the request (see remainingTerms in pay-request.ts). */
export interface CrossChainTerms {
  requestId: string;
  accountId: string;
  network: NetworkId;
  token: Token;
  expected: bigint;
  amount: bigint;
  feeAmount: bigint;
  feeAddress: string | null;
  payee: string;
  paymentReference: `0x${string}`;
  tokenAddress: string;
  /** A fiat invoice paid through the conversion proxy: amounts are fiat, never cross-chain. */
  isConversion?: boolean;
}

/**
 * Cross-chain terms of a stored request for what it still owes (`owed`: the fee rule's payable,
 * secure-payments/due.ts), so the bridge delivers exactly what the same-chain plan would send.
 */
export function crossChainTermsOf(
  row: PaymentRequest,
  owed: { amount: bigint; feeAmount: bigint; feeAddress: string | null },
): CrossChainTerms {
  return {
    requestId: row.id,
    accountId: row.accountId,
    network: networkOf(row),
    token: tokenOf(row),
    expected: BigInt(row.expectedAmount.toFixed()),
    amount: owed.amount,
    feeAmount: owed.feeAmount,
    feeAddress: owed.feeAddress,
    payee: row.payee,
    paymentReference: asHex(row.paymentReference),
    tokenAddress: row.tokenAddress,
    isConversion: row.isConversion,
  };
}

/** The source chains a payer of this request may pick on the hosted page (no quote yet), or [] when none. */
export function crossChainSourcesFor(t: CrossChainTerms): { network: CrossChainNetwork; chain: string; tokens: CrossChainToken[] }[] {
  const provider = routingProvider();
  if (!provider || crossChainIneligibility(t)) return [];
  return provider
    .sourceNetworks()
    .filter((n) => n !== t.network)
    .map((network) => ({
      network,
      chain: ROUTE_CHAIN_LABEL[network],
      tokens: CROSS_CHAIN_TOKENS.filter((s) => networkRuntime(network).tokens.some((tk) => tk.symbol === s && !tk.paymentAliasOf)),
    }))
    .filter((s) => s.tokens.length > 0);
}

/**
 * Why what is still owed cannot come over a bridge, or null when it can: a bridge delivers one
 * fee-proxy payment with an amount, so a fee alone, or fees to several addresses, are paid on the
 * request's own network. GET /pay refuses (assertCrossChainPayable), and neither GET /routes nor
 * the hosted page offers a cross-chain route then.
 */
export function crossChainPayableRefusal(t: { amount: bigint; extraFeeLegs: readonly unknown[] }): string | null {
  if (t.amount === 0n) return "only the fee is missing: pay it on the request's own network (omit chain and token)";
  if (t.extraFeeLegs.length > 0) return "this request's fee goes to several addresses: pay it on its own network (omit chain and token)";
  return null;
}

/** crossChainPayableRefusal as the 400 naming `chain`. */
export function assertCrossChainPayable(t: { amount: bigint; extraFeeLegs: readonly unknown[] }): void {
  const refusal = crossChainPayableRefusal(t);
  if (refusal) throw invalidField("chain", refusal);
}

/** Why a request cannot be paid from another chain (field at fault, message), or null when it can. */
export function crossChainIneligibility(t: CrossChainTerms): { field: string; message: string } | null {
  if (t.isConversion) return { field: "chain", message: "a fiat invoice is paid through the conversion proxy on its own network" };
  const destinationOk =
    (CROSS_CHAIN_NETWORKS as readonly string[]).includes(t.network) || (NETWORKS[t.network].kind === "evm" && isLocalChain(t.network));
  if (!destinationOk)
    return {
      field: "chain",
      message: `cross-chain payment reaches Ethereum, Arbitrum One, Base, Optimism and Polygon (mainnet) only; this request is on ${NETWORKS[t.network].name}`,
    };
  if (!(CROSS_CHAIN_PAY_TOKENS as readonly string[]).includes(t.token.symbol))
    return { field: "token", message: `${t.token.symbol} is not supported in crosschain payment.` };
  // The request's amount, in USD (USDC/USDT are dollar-pegged).
  const usd = Number(formatAmount(t.expected, t.token.decimals));
  if (!(usd > CROSS_CHAIN_MIN_USD))
    return {
      field: "amount",
      message: `must exceed ${CROSS_CHAIN_MIN_USD} USD equivalent for cross-chain payment (the request is ${usd} USD)`,
    };
  return null;
}

function destinationOf(t: CrossChainTerms): DestinationPayment {
  return {
    network: t.network,
    chainId: NETWORKS[t.network].chainId,
    tokenAddress: getAddress(t.tokenAddress),
    tokenSymbol: t.token.symbol,
    tokenDecimals: t.token.decimals,
    feeProxyAddress: getAddress(networkRuntime(t.network).contracts.erc20FeeProxy),
    payee: getAddress(t.payee),
    amount: t.amount,
    paymentReference: t.paymentReference,
    feeAmount: t.feeAmount,
    feeAddress: getAddress(t.feeAddress ?? "0x0000000000000000000000000000000000000000"),
  };
}

function providerFailure(err: unknown): never {
  if (err instanceof RoutingProviderError) {
    if (err.code === "NO_ROUTE" || err.code === "BAD_REQUEST") throw invalidField("chain", err.message);
    throw new AppError("upstream_unavailable", `The routing provider is unavailable: ${err.message}`, {
      headers: err.retryAfterSeconds ? { "retry-after": String(err.retryAfterSeconds) } : undefined,
    });
  }
  throw err;
}

/** Cross-chain routes for GET /routes: [] when the request cannot be paid from another chain or no provider is configured. */
export async function crossChainRoutes(t: CrossChainTerms, payer: string | undefined, platformFee: number) {
  const provider = routingProvider();
  if (!provider || !payer || crossChainIneligibility(t)) return [];
  let quotes: RouteQuote[];
  try {
    quotes = await provider.quote({ destination: destinationOf(t), payer: getAddress(payer) });
  } catch (err) {
    // Routes are advice: a provider outage leaves the same-chain route on offer.
    if (err instanceof RoutingProviderError) return [];
    throw err;
  }
  return quotes.map((q) => ({
    id: q.id,
    fee: Math.round((platformFee + q.feeFraction) * 1e6) / 1e6,
    feeBreakdown: q.fees.map((f) => ({ ...f })),
    speed: q.durationSeconds,
    chain: ROUTE_CHAIN_LABEL[q.sourceNetwork],
    token: q.sourceToken.symbol,
  }));
}

/** Validates the cross-chain `chain`/`token` query values (400 naming the field). */
export function parseCrossChainQuery(chain: string, token: string): { sourceNetwork: CrossChainNetwork; sourceToken: CrossChainToken } {
  const sourceNetwork = CHAIN_BY_LABEL[chain];
  if (!sourceNetwork)
    throw invalidField("chain", `Invalid enum value. Expected ${CHAIN_LABELS.map((c) => `'${c}'`).join(" | ")}, received '${chain}'`);
  if (token.toUpperCase() === "USDC.E") throw invalidField("token", "USDC.e is bridged USDC: cross-chain payments use native USDC or USDT");
  if (!(CROSS_CHAIN_PAY_TOKENS as readonly string[]).includes(token))
    throw invalidField(
      "token",
      `Invalid enum value. Expected ${CROSS_CHAIN_PAY_TOKENS.map((t) => `'${t}'`).join(" | ")}, received '${token}'`,
    );
  if (!networkRuntime(sourceNetwork).tokens.some((tk) => tk.symbol === token)) {
    const has = CROSS_CHAIN_NETWORKS.filter((n) => networkRuntime(n).tokens.some((tk) => tk.symbol === token)).map((n) => NETWORKS[n].name);
    throw invalidField("token", `${token} is not on ${NETWORKS[sourceNetwork].name}; it is on ${has.join(", ")}`);
  }
  return { sourceNetwork, sourceToken: token as CrossChainToken };
}

/**
 * A quote already given, by its id (`metadata.quoteId`): the same calldata while the quote holds;
 * once `quoteExpiresAt` has passed, a 400 asking for a new quote (the bridge would refuse it).
 */
async function quotedAgain(t: CrossChainTerms, quoteId: string) {
  const q = await db().crossChainQuote.findFirst({ where: { id: quoteId, requestId: t.requestId, accountId: t.accountId } });
  if (!q) throw invalidField("quoteId", "is not a quote of this request");
  if (q.expiresAt.getTime() <= now().getTime())
    throw invalidField("quoteId", `this quote expired at ${q.expiresAt.toISOString()}: request a new one (call again without quoteId)`);
  return JSON.parse(q.answer) as CrossChainAnswer;
}

type CrossChainAnswer = Awaited<ReturnType<typeof buildCrossChain>>;

/** GET /v2/request/{id}/pay with chain and token: the source chain's approval and payment, values as hex strings. */
export async function payCrossChain(t: CrossChainTerms, query: { chain: string; token: string; wallet?: string; quoteId?: string }) {
  if (query.quoteId !== undefined) {
    parseCrossChainQuery(query.chain, query.token);
    return quotedAgain(t, query.quoteId);
  }
  return buildCrossChain(t, query);
}

async function buildCrossChain(t: CrossChainTerms, query: { chain: string; token: string; wallet?: string }) {
  const { sourceNetwork, sourceToken } = parseCrossChainQuery(query.chain, query.token);
  if (!query.wallet) throw invalidField("wallet", "is required for cross-chain payment (the payer's address on the source chain)");
  const why = crossChainIneligibility(t);
  if (why) throw invalidField(why.field, why.message);
  if (sourceNetwork === t.network) throw invalidField("chain", "is the request's own network: omit chain and token to pay on it directly");
  const provider = routingProvider();
  if (!provider) throw invalidField("chain", "no cross-chain route is available: this deployment has no routing provider configured");
  if (!isAddress(query.wallet, { strict: false })) throw invalidField("wallet", "Invalid Ethereum address");
  const payer = getAddress(query.wallet);
  const built = await provider.build({ destination: destinationOf(t), payer, sourceNetwork, sourceToken }).catch(providerFailure);

  // Remembered so detection can report the source transaction of the payment it delivers.
  const quoteId = ulid();
  const reader = chainReaderFor(sourceNetwork);
  const [allowance, balance] = reader
    ? await Promise.all([
        reader.allowance(built.approval.token, payer, built.approval.spender),
        reader.balanceOf(built.approval.token, payer),
      ])
    : [0n, 0n];
  const needsApproval = allowance < built.approval.amount;
  // USDT-style source tokens (Ethereum USDT) revert approve(n) over another non-zero allowance:
  // approve(0) first, as the same-chain plan does (lib/payments/plan.ts). An allowance that could
  // not be read counts as possibly non-zero (approve(0) is always accepted).
  const sourceTok = networkRuntime(sourceNetwork).tokens.find((tk) => tk.address.toLowerCase() === built.approval.token.toLowerCase());
  const resetFirst = needsApproval && sourceTok?.approveResetRequired === true && (!reader || allowance > 0n);
  const approve = (amount: bigint) => ({
    to: built.approval.token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [built.approval.spender, amount] }),
    value: "0x0",
  });
  const transactions = [
    ...(resetFirst ? [approve(0n)] : []),
    // Cross-chain calldata always carries the approval (interface), executed first when needsApproval.
    approve(built.approval.amount),
    { to: built.payment.to, data: built.payment.data, value: `0x${built.payment.value.toString(16)}` },
  ];
  const answer = {
    transactions,
    metadata: {
      // With needsApproval false only the payment is sent (the approval is there, skipped).
      stepsRequired: needsApproval ? transactions.length : 1,
      needsApproval,
      approvalTransactionIndex: needsApproval ? transactions.length - 2 : null,
      paymentTransactionIndex: transactions.length - 1,
      routeType: "crosschain" as const,
      quoteExpiresAt: Math.floor(built.expiresAt.getTime() / 1000),
      hasEnoughBalance: reader ? balance >= built.sourceAmount : false,
      sourceAmount: formatAmount(built.sourceAmount, built.sourceToken.decimals),
      quoteId,
      routeId: built.id,
      provider: built.provider,
      sourceChain: ROUTE_CHAIN_LABEL[sourceNetwork],
      sourceChainId: built.sourceChainId,
      sourceToken: built.sourceToken.symbol,
      sourceTokenAddress: built.sourceToken.address,
    },
  };
  await db().crossChainQuote.create({
    data: {
      id: quoteId,
      answer: JSON.stringify(answer),
      requestId: t.requestId,
      accountId: t.accountId,
      provider: built.provider,
      routeId: built.id,
      sourceNetwork,
      sourceToken,
      sourceAmount: built.sourceAmount.toString(),
      payer,
      expiresAt: built.expiresAt,
    },
  });

  return answer;
}
