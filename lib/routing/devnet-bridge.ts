import { encodeFunctionData, getAddress, parseEventLogs } from "viem";
import { devnetBridgeAbi } from "@/contracts/generated/abis.generated";
import { networkRuntime } from "@/lib/chain/config";
import type { NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import { nowMs } from "@/lib/clock";
import { formatAmount, rescale } from "@/lib/money";
import { crossChainRouteId } from "@/lib/routing/route-id";
import {
  type BuiltRoute,
  CROSS_CHAIN_NETWORKS,
  CROSS_CHAIN_TOKENS,
  type CrossChainNetwork,
  type CrossChainToken,
  type QuoteInput,
  type RouteQuote,
  type RoutingProvider,
  RoutingProviderError,
  type TrackResult,
} from "@/lib/routing/types";

/** The devnet bridge's price: 0.1 % of what it delivers, at least 0.05 of the token. */
export const DEVNET_BRIDGE_FEE_BPS = 10n;
const MIN_FEE_HUNDREDTHS = 5n;
/** Seconds a quote stays valid, from the later of the source chain's latest block time and now (the contract checks it). */
export const DEVNET_QUOTE_TTL_SECONDS = 300;
/** What the relayer usually takes (its poll interval plus two transactions). */
const DURATION_SECONDS = 15;

interface BridgeSource {
  network: CrossChainNetwork;
  chainId: number;
  bridge: `0x${string}`;
}

/** Source networks configured with a devnet bridge (scripts/devnet/bridge.ts). */
export function devnetBridgeSources(): BridgeSource[] {
  const out: BridgeSource[] = [];
  for (const network of CROSS_CHAIN_NETWORKS) {
    const rt = networkRuntime(network);
    if (rt.contracts.devnetBridge && rt.rpcUrl)
      out.push({ network, chainId: rt.network.chainId, bridge: getAddress(rt.contracts.devnetBridge) });
  }
  return out;
}

/** Base units the payer sends on the source chain for `destinationUnits` (amount + fee) delivered. */
export function devnetBridgeSourceAmount(destinationUnits: bigint, destinationDecimals: number, sourceDecimals: number) {
  const delivered = rescale(destinationUnits, destinationDecimals, sourceDecimals);
  // Round the delivered amount up when the source has fewer decimals, so the payee never gets less.
  const deliveredUp = rescale(delivered, sourceDecimals, destinationDecimals) < destinationUnits ? delivered + 1n : delivered;
  const minFee = (MIN_FEE_HUNDREDTHS * 10n ** BigInt(sourceDecimals)) / 100n;
  const pct = (deliveredUp * DEVNET_BRIDGE_FEE_BPS + 9_999n) / 10_000n;
  const bridgeFee = pct > minFee ? pct : minFee;
  return { sourceAmount: deliveredUp + bridgeFee, bridgeFee, delivered: deliveredUp };
}

/**
 * Cross-chain routing on the local two-chain devnet: the payer deposits on the source chain's
 * DuebillDevnetBridge; the bridge relayer (scripts/devnet/bridge-relayer.ts) pays the request on
 * the destination through ERC20FeeProxy with its reference and records the settlement.
 */
export class DevnetBridgeProvider implements RoutingProvider {
  readonly name = "devnet-bridge";

  sourceNetworks(): CrossChainNetwork[] {
    return devnetBridgeSources().map((s) => s.network);
  }

  private sourceToken(network: CrossChainNetwork, symbol: CrossChainToken) {
    // USDT0 is the payment alias of USDT: on the devnet it is the source chain's test USDT.
    const token = networkRuntime(network).tokens.find((t) => t.symbol === symbol);
    if (!token) return null;
    return { address: getAddress(token.address), symbol, decimals: token.decimals };
  }

  /**
   * When a quote made now expires. The contract compares with the block that mines the deposit: an idle
   * devnet's latest block can be minutes old (anvil mines on demand), and a time-travelled one ahead of
   * the clock; count from the later.
   */
  private async expiryFrom(source: BridgeSource): Promise<Date> {
    const client = publicClientFor(source.network);
    if (!client) throw new RoutingProviderError(`The ${source.network} devnet chain has no RPC`, "UNAVAILABLE");
    const block = await client.getBlock({ blockTag: "latest" }).catch(() => {
      throw new RoutingProviderError(`The ${source.network} devnet chain does not answer`, "UNAVAILABLE");
    });
    return new Date((Math.max(Number(block.timestamp), Math.floor(nowMs() / 1000)) + DEVNET_QUOTE_TTL_SECONDS) * 1000);
  }

  private quoteOne(input: QuoteInput, source: BridgeSource, symbol: CrossChainToken, expiresAt: Date): RouteQuote | null {
    const token = this.sourceToken(source.network, symbol);
    if (!token) return null;
    const d = input.destination;
    const { sourceAmount, bridgeFee } = devnetBridgeSourceAmount(d.amount + d.feeAmount, d.tokenDecimals, token.decimals);
    const destinationTotal = d.amount + d.feeAmount;
    return {
      provider: this.name,
      id: crossChainRouteId(source.network, d.network, symbol, d.tokenSymbol),
      sourceNetwork: source.network,
      sourceChainId: source.chainId,
      sourceToken: token,
      sourceAmount,
      feeFraction: Number((rescale(bridgeFee, token.decimals, d.tokenDecimals) * 1_000_000n) / (destinationTotal || 1n)) / 1_000_000,
      fees: [
        {
          type: "crosschain",
          stage: "sending",
          provider: this.name,
          amount: formatAmount(bridgeFee, token.decimals),
          amountInUSD: formatAmount(bridgeFee, token.decimals),
          currency: symbol,
        },
      ],
      durationSeconds: DURATION_SECONDS,
      expiresAt,
    };
  }

  async quote(input: QuoteInput): Promise<RouteQuote[]> {
    const sources = devnetBridgeSources().filter(
      (s) => s.network !== input.destination.network && (!input.sourceNetwork || s.network === input.sourceNetwork),
    );
    const symbols = input.sourceToken ? [input.sourceToken] : [...CROSS_CHAIN_TOKENS];
    const out: RouteQuote[] = [];
    for (const source of sources) {
      const expiresAt = await this.expiryFrom(source);
      for (const symbol of symbols) {
        const q = this.quoteOne(input, source, symbol, expiresAt);
        if (q) out.push(q);
      }
    }
    return out;
  }

  async build(input: QuoteInput & { sourceNetwork: CrossChainNetwork; sourceToken: CrossChainToken }): Promise<BuiltRoute> {
    const source = devnetBridgeSources().find((s) => s.network === input.sourceNetwork);
    if (!source || source.network === input.destination.network)
      throw new RoutingProviderError(`No route from ${input.sourceNetwork} on this devnet`, "NO_ROUTE");
    const q = this.quoteOne(input, source, input.sourceToken, await this.expiryFrom(source));
    if (!q) throw new RoutingProviderError(`No ${input.sourceToken} on ${input.sourceNetwork} on this devnet`, "NO_ROUTE");
    const d = input.destination;
    const data = encodeFunctionData({
      abi: devnetBridgeAbi,
      functionName: "deposit",
      args: [
        q.sourceToken.address,
        q.sourceAmount,
        BigInt(Math.floor(q.expiresAt.getTime() / 1000)),
        {
          chainId: BigInt(d.chainId),
          token: getAddress(d.tokenAddress),
          payee: getAddress(d.payee),
          amount: d.amount,
          paymentReference: d.paymentReference,
          feeAmount: d.feeAmount,
          feeAddress: getAddress(d.feeAddress),
        },
      ],
    });
    return {
      ...q,
      approval: { token: q.sourceToken.address, spender: source.bridge, amount: q.sourceAmount },
      payment: { to: source.bridge, data, value: 0n, chainId: source.chainId },
    };
  }

  async sourceOf(input: { destinationTxHash: string; sourceNetwork: CrossChainNetwork }): Promise<{ sourceTxHash: string } | null> {
    const source = devnetBridgeSources().find((s) => s.network === input.sourceNetwork);
    const client = publicClientFor(input.sourceNetwork);
    if (!source || !client) return null;
    const fromBlock = BigInt(networkRuntime(input.sourceNetwork).contracts.devnetBridgeCreationBlock ?? 0);
    const settled = await client.getContractEvents({ address: source.bridge, abi: devnetBridgeAbi, eventName: "Settled", fromBlock });
    const hit = settled.find((e) => e.args.destinationTxHash?.toLowerCase() === input.destinationTxHash.toLowerCase());
    if (hit?.args.depositId === undefined) return null;
    const [deposited] = await client.getContractEvents({
      address: source.bridge,
      abi: devnetBridgeAbi,
      eventName: "Deposited",
      args: { depositId: hit.args.depositId },
      fromBlock,
    });
    return deposited ? { sourceTxHash: deposited.transactionHash } : null;
  }

  async track(input: { sourceTxHash: string; sourceNetwork: CrossChainNetwork; destinationNetwork: NetworkId }): Promise<TrackResult> {
    const source = devnetBridgeSources().find((s) => s.network === input.sourceNetwork);
    const client = publicClientFor(input.sourceNetwork);
    if (!source || !client) return { status: "NOT_FOUND", substatus: null, destinationTxHash: null };
    const receipt = await client.getTransactionReceipt({ hash: input.sourceTxHash as `0x${string}` }).catch(() => null);
    if (!receipt) return { status: "NOT_FOUND", substatus: null, destinationTxHash: null };
    if (receipt.status !== "success") return { status: "FAILED", substatus: "SOURCE_REVERTED", destinationTxHash: null };
    const [deposited] = parseEventLogs({ abi: devnetBridgeAbi, eventName: "Deposited", logs: receipt.logs }).filter(
      (l) => getAddress(l.address) === source.bridge,
    );
    if (!deposited) return { status: "NOT_FOUND", substatus: null, destinationTxHash: null };
    const [, , , state] = await client.readContract({
      address: source.bridge,
      abi: devnetBridgeAbi,
      functionName: "deposits",
      args: [deposited.args.depositId],
    });
    if (state === 3) return { status: "FAILED", substatus: "REFUNDED", destinationTxHash: null };
    if (state !== 2) return { status: "PENDING", substatus: "WAIT_DESTINATION_TRANSACTION", destinationTxHash: null };
    const settled = await client.readContract({
      address: source.bridge,
      abi: devnetBridgeAbi,
      functionName: "settlementOf",
      args: [deposited.args.depositId],
    });
    return { status: "DONE", substatus: "COMPLETED", destinationTxHash: settled };
  }
}
