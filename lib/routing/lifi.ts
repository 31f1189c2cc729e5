import type { ContractCallsQuoteRequestToAmount, FeeCost, GasCost, LiFiStep, StatusResponse } from "@lifi/types";
import { encodeFunctionData, formatUnits, isAddress } from "viem";
import { erc20FeeProxyAbi } from "@/lib/chain/abis";
import { NETWORKS, type NetworkId } from "@/lib/chain/networks";
import { TOKENS } from "@/lib/chain/tokens";
import { now } from "@/lib/clock";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { type LifiHttpOptions, lifiRequest } from "@/lib/routing/lifi-http";
import { crossChainRouteId } from "@/lib/routing/route-id";
import {
  type BuiltRoute,
  CROSS_CHAIN_NETWORKS,
  CROSS_CHAIN_TOKENS,
  type CrossChainNetwork,
  type CrossChainToken,
  type DestinationPayment,
  type QuoteInput,
  type RouteFee,
  type RouteQuote,
  type RoutingProvider,
  RoutingProviderError,
  type SourceTransaction,
  type TrackResult,
} from "@/lib/routing/types";

export interface LifiProviderOptions {
  /** `https://li.quest` (paths are `/v1/...`). */
  baseUrl: string;
  apiKey?: string;
  /** Registered integrator name, sent with every quote (attribution, integrator fees). */
  integrator?: string;
  fetch?: typeof fetch;
  /** Decimal share, 0.005 = 0.5 %. LI.FI's default is documented inconsistently, so it is always sent. */
  slippage?: number;
  timeoutMs?: number;
}

/** Gas the destination fee-proxy call may use (an ERC-20 transferFrom twice plus the event). */
const DESTINATION_CALL_GAS_LIMIT = "200000";
/** LI.FI documents no quote lifetime (docs/spec/provider-notes.md [?]): quotes are honoured for one minute here. */
const QUOTE_TTL_MS = 60_000;

/**
 * Cross-chain routing over LI.FI's API. Every route is a contract-call quote
 * (`POST /v1/quote/contractCalls` with `toAmount`): LI.FI bridges to the destination chain, then
 * its executor approves the destination ERC20FeeProxy and calls `transferFromWithReferenceAndFee`
 * with the request's reference, so detection attributes the payment like a same-chain one. A
 * plain LI.FI delivery would reach the payee from a bridge contract with no reference at all.
 */
export class LifiRoutingProvider implements RoutingProvider {
  readonly name = "lifi";
  private readonly http: LifiHttpOptions;
  private readonly integrator: string | undefined;
  private readonly slippage: number;

  constructor(opts: LifiProviderOptions) {
    this.http = { baseUrl: opts.baseUrl, apiKey: opts.apiKey, fetch: opts.fetch ?? fetch, timeoutMs: opts.timeoutMs ?? 15_000 };
    this.integrator = opts.integrator;
    this.slippage = opts.slippage ?? 0.005;
  }

  sourceNetworks(): readonly CrossChainNetwork[] {
    return CROSS_CHAIN_NETWORKS;
  }

  /** `GET /v1/status` takes the receiving hash too; only the source tx is used (detection reads its sender on chain). */
  async sourceOf(input: { destinationTxHash: string; destinationNetwork: NetworkId; sourceNetwork: CrossChainNetwork }) {
    const s = await lifiRequest<StatusResponse>(this.http, "GET", "v1/status", {
      query: {
        txHash: input.destinationTxHash,
        fromChain: NETWORKS[input.sourceNetwork].chainId,
        toChain: NETWORKS[input.destinationNetwork].chainId,
      },
    });
    const sent = "sending" in s && s.sending && "txHash" in s.sending && s.status === "DONE" ? s.sending : null;
    return sent?.txHash && Number(sent.chainId) === NETWORKS[input.sourceNetwork].chainId ? { sourceTxHash: sent.txHash } : null;
  }

  /** `POST /v1/advanced/stepTransaction`: the same step with a fresh `transactionRequest`. */
  async refreshStep(step: Record<string, unknown>): Promise<SourceTransaction> {
    const tx = (await lifiRequest<LiFiStep>(this.http, "POST", "v1/advanced/stepTransaction", { body: step })).transactionRequest;
    if (!tx?.to || !tx.data || tx.chainId === undefined)
      throw new RoutingProviderError("LI.FI returned the step without a transaction", "NO_ROUTE");
    return { to: tx.to as `0x${string}`, data: tx.data as `0x${string}`, value: BigInt(tx.value ?? "0x0"), chainId: Number(tx.chainId) };
  }

  async quote(input: QuoteInput): Promise<RouteQuote[]> {
    if (!isEvmDestination(input.destination)) return [];
    const sources = sourceCandidates(input).filter((s) => NETWORKS[s.network].chainId !== input.destination.chainId);
    const settled = await Promise.allSettled(sources.map((s) => this.fetchQuote(input, s.network, s.token)));
    const routes: RouteQuote[] = [];
    const failures: RoutingProviderError[] = [];
    settled.forEach((r, i) => {
      if (r.status === "fulfilled") routes.push(toRouteQuote(r.value, input.destination, sources[i]!.network, sources[i]!.token));
      else if (r.reason instanceof RoutingProviderError && r.reason.code === "NO_ROUTE") return;
      else failures.push(r.reason instanceof RoutingProviderError ? r.reason : new RoutingProviderError(String(r.reason), "UNAVAILABLE"));
    });
    // Some sources answered: show them, and leave the failures to the log. None did: say why.
    if (routes.length === 0 && failures.length > 0) throw failures.find((f) => f.code === "RATE_LIMITED") ?? failures[0]!;
    if (failures.length > 0) log.warn("some LI.FI quotes failed", { failures: failures.map((f) => `${f.code}: ${f.message}`) });
    return routes.sort((a, b) => a.feeFraction - b.feeFraction || a.durationSeconds - b.durationSeconds);
  }

  async build(input: QuoteInput & { sourceNetwork: CrossChainNetwork; sourceToken: CrossChainToken }): Promise<BuiltRoute> {
    if (!isEvmDestination(input.destination)) throw new RoutingProviderError("LI.FI routes end on EVM networks only", "NO_ROUTE");
    const step = await this.fetchQuote(input, input.sourceNetwork, input.sourceToken);
    const route = toRouteQuote(step, input.destination, input.sourceNetwork, input.sourceToken);
    const tx = step.transactionRequest;
    const spender = step.estimate?.approvalAddress;
    if (!tx?.to || !tx.data || !isAddress(tx.to) || !/^0x[0-9a-fA-F]*$/.test(tx.data))
      throw new RoutingProviderError("LI.FI answered a quote without an EVM transaction", "UNAVAILABLE");
    if (!spender || !isAddress(spender))
      throw new RoutingProviderError("LI.FI answered a quote without an approval address", "UNAVAILABLE");
    if (tx.chainId !== undefined && tx.chainId !== route.sourceChainId)
      throw new RoutingProviderError(`LI.FI built a transaction for chain ${tx.chainId}, not ${route.sourceChainId}`, "UNAVAILABLE");
    return {
      ...route,
      approval: { token: route.sourceToken.address, spender, amount: route.sourceAmount },
      payment: {
        to: tx.to,
        data: tx.data as `0x${string}`,
        // transactionRequest numbers are hex strings ("0x0de0b6b3a7640000"); BigInt reads both forms.
        value: tx.value ? BigInt(tx.value) : 0n,
        chainId: route.sourceChainId,
      },
    };
  }

  async track(input: {
    sourceTxHash: string;
    sourceNetwork: CrossChainNetwork;
    destinationNetwork: NetworkId;
    tool?: string;
  }): Promise<TrackResult> {
    // 200 even when LI.FI has not seen the hash (status NOT_FOUND).
    const s = await lifiRequest<StatusResponse>(this.http, "GET", "v1/status", {
      query: {
        txHash: input.sourceTxHash,
        fromChain: NETWORKS[input.sourceNetwork].chainId,
        toChain: NETWORKS[input.destinationNetwork].chainId,
        bridge: input.tool,
      },
    });
    const substatus = s.substatus ?? null;
    const receiving = "receiving" in s && "txHash" in s.receiving ? s.receiving.txHash : null;
    switch (s.status) {
      case "PENDING":
        return { status: "PENDING", substatus, destinationTxHash: receiving };
      case "DONE":
        // DONE is not paid: REFUNDED sent the funds back, PARTIAL delivered another token. The
        // destination payment itself is what detection records; this only reports progress.
        return { status: substatus === "COMPLETED" || substatus === null ? "DONE" : "FAILED", substatus, destinationTxHash: receiving };
      case "FAILED":
      case "INVALID":
        return { status: "FAILED", substatus: substatus ?? s.status, destinationTxHash: receiving };
      default:
        return { status: "NOT_FOUND", substatus, destinationTxHash: null };
    }
  }

  private async fetchQuote(input: QuoteInput, source: CrossChainNetwork, token: CrossChainToken): Promise<LiFiStep> {
    const d = input.destination;
    const needed = d.amount + d.feeAmount;
    const sourceToken = sourceTokenOf(source, token);
    const body: ContractCallsQuoteRequestToAmount = {
      fromChain: NETWORKS[source].chainId,
      fromToken: sourceToken.address,
      fromAddress: input.payer,
      toChain: d.chainId,
      toToken: d.tokenAddress,
      toAmount: needed.toString(),
      contractCalls: [
        {
          fromAmount: needed.toString(),
          fromTokenAddress: d.tokenAddress,
          toContractAddress: d.feeProxyAddress,
          toContractCallData: destinationCalldata(d),
          toContractGasLimit: DESTINATION_CALL_GAS_LIMIT,
          toApprovalAddress: d.feeProxyAddress,
        },
      ],
      // What the call does not use (a surplus, or everything if it reverts) goes back to the payer.
      toFallbackAddress: input.payer,
      slippage: this.slippage,
      integrator: this.integrator,
    };
    const step = await lifiRequest<LiFiStep>(this.http, "POST", "v1/quote/contractCalls", { body });
    if (!step.estimate) throw new RoutingProviderError("LI.FI answered a quote without an estimate", "UNAVAILABLE");
    const a = step.action;
    if (
      a?.fromChainId !== NETWORKS[source].chainId ||
      a.toChainId !== d.chainId ||
      a.fromToken?.address?.toLowerCase() !== sourceToken.address.toLowerCase()
    )
      throw new RoutingProviderError("LI.FI answered a quote for another chain or token than asked", "UNAVAILABLE");
    // LI.FI does not promise toAmountMin >= toAmount (docs/spec/provider-notes.md [?]): a route that may
    // deliver less than the fee proxy pulls would revert on the destination.
    if (BigInt(step.estimate.toAmountMin) < needed)
      throw new RoutingProviderError(
        `LI.FI's guaranteed minimum ${step.estimate.toAmountMin} is below the ${needed} the payment needs`,
        "NO_ROUTE",
      );
    return step;
  }
}

/** The destination call: the fee proxy pulls amount + fee from LI.FI's executor and emits the reference. */
export function destinationCalldata(d: DestinationPayment): `0x${string}` {
  return encodeFunctionData({
    abi: erc20FeeProxyAbi,
    functionName: "transferFromWithReferenceAndFee",
    args: [d.tokenAddress, d.payee, d.amount, d.paymentReference, d.feeAmount, d.feeAddress],
  });
}

export function lifiProviderFromEnv(fetchImpl?: typeof fetch): LifiRoutingProvider {
  const e = env();
  return new LifiRoutingProvider({ baseUrl: e.LIFI_API_URL, apiKey: e.LIFI_API_KEY, integrator: e.LIFI_INTEGRATOR, fetch: fetchImpl });
}

function isEvmDestination(d: DestinationPayment): boolean {
  return NETWORKS[d.network].kind === "evm";
}

function sourceCandidates(input: QuoteInput): { network: CrossChainNetwork; token: CrossChainToken }[] {
  const networks = input.sourceNetwork ? [input.sourceNetwork] : CROSS_CHAIN_NETWORKS;
  const tokens = input.sourceToken ? [input.sourceToken] : CROSS_CHAIN_TOKENS;
  return networks.flatMap((network) => tokens.map((token) => ({ network, token })));
}

/** Native USDC/USDT from the committed token table (never a bridged USDC.e). */
function sourceTokenOf(network: CrossChainNetwork, symbol: CrossChainToken): RouteQuote["sourceToken"] {
  const t = TOKENS.find((x) => x.network === network && x.symbol === symbol);
  if (!t || !isAddress(t.address)) throw new RoutingProviderError(`No ${symbol} on ${network}`, "BAD_REQUEST");
  return { address: t.address, symbol, decimals: t.decimals };
}

function toRouteQuote(step: LiFiStep, d: DestinationPayment, source: CrossChainNetwork, token: CrossChainToken): RouteQuote {
  const estimate = step.estimate!;
  const sourceToken = sourceTokenOf(source, token);
  const sourceAmount = BigInt(estimate.fromAmount);
  const provider = step.toolDetails?.name ?? step.tool;
  const fees: RouteFee[] = [
    ...(estimate.feeCosts ?? []).map((f) => feeOf(f, provider)),
    ...(estimate.gasCosts ?? []).map((g) => gasOf(g, provider)),
  ];
  return {
    provider: "lifi",
    id: crossChainRouteId(source, d.network, token, d.tokenSymbol),
    sourceNetwork: source,
    sourceChainId: NETWORKS[source].chainId,
    sourceToken,
    sourceAmount,
    feeFraction: feeFraction(step, d, sourceAmount, sourceToken.decimals),
    fees,
    durationSeconds: Math.round(estimate.executionDuration),
    expiresAt: new Date(now().getTime() + QUOTE_TTL_MS),
  };
}

/**
 * What the payer spends beyond what the destination receives, as a share of it: the source
 * amount above the destination amount (both dollar stablecoins, compared in decimal) plus, in USD,
 * the fees LI.FI charges on top (`included: false`, e.g. a native messaging fee in `value`) and gas.
 */
function feeFraction(step: LiFiStep, d: DestinationPayment, sourceAmount: bigint, sourceDecimals: number): number {
  const needed = Number(formatUnits(d.amount + d.feeAmount, d.tokenDecimals));
  if (needed <= 0) return 0;
  const spread = Number(formatUnits(sourceAmount, sourceDecimals)) - needed;
  const onTop = (step.estimate?.feeCosts ?? []).filter((f) => !f.included).reduce((s, f) => s + (Number(f.amountUSD) || 0), 0);
  const gas = (step.estimate?.gasCosts ?? []).reduce((s, g) => s + (Number(g.amountUSD) || 0), 0);
  return Math.max(0, Number(((Math.max(0, spread) + onTop + gas) / needed).toFixed(6)));
}

function feeOf(f: FeeCost, provider: string): RouteFee {
  const integratorFee = /integrator|lifi|li\.fi/i.test(f.name);
  return {
    // The reference's fee types and stages: a bridge's fee is `crosschain`.
    type: integratorFee ? "platform" : "crosschain",
    // Included fees come out of what is bridged ("proxying"); the others are paid with the source transaction.
    stage: f.included ? "proxying" : "sending",
    provider: integratorFee ? "lifi" : provider,
    amount: formatUnits(BigInt(f.amount), f.token.decimals),
    amountInUSD: f.amountUSD ?? null,
    currency: f.token.symbol,
  };
}

function gasOf(g: GasCost, provider: string): RouteFee {
  return {
    type: "gas",
    stage: "sending",
    provider,
    amount: formatUnits(BigInt(g.amount), g.token.decimals),
    amountInUSD: g.amountUSD ?? null,
    currency: g.token.symbol,
  };
}
