import type { NetworkId } from "@/lib/chain/networks";

/**
 * Cross-chain routing: a payer pays a request on its network (the destination) with USDC or
 * USDT from another chain (the source). A provider quotes routes, builds the source-chain
 * calldata for one of them, and tracks a source transaction until the destination settles.
 *
 * Every route must end in the destination's ERC20FeeProxy call with the request's payment
 * reference (`transferFromWithReferenceAndFee`), so ordinary detection marks the request paid
 * there: a plain bridge delivery to the payee carries no reference and would never be attributed.
 *
 * Implementations: `lifi` (production, over LI.FI's API; see lib/routing/lifi) and
 * `devnet-bridge` (two local anvil chains, a project-written bridge contract and a relayer).
 */

/** Source chains and tokens of the interface's cross-chain rules. */
export const CROSS_CHAIN_NETWORKS = ["mainnet", "arbitrum-one", "base", "optimism", "matic"] as const;
export type CrossChainNetwork = (typeof CROSS_CHAIN_NETWORKS)[number];
/** Source tokens quoted by default (GET /routes, the hosted page's choices): native USDC and USDT. */
export const CROSS_CHAIN_TOKENS = ["USDC", "USDT"] as const;
/**
 * Source tokens a payer may name (GET /pay `token`) and request currencies a cross-chain payment
 * may reach: USDT0 too, where the chain has it (interface: "USDT0 is a payment and cross-chain
 * currency only"; on Arbitrum One and Polygon it is the USDT contract itself).
 */
export const CROSS_CHAIN_PAY_TOKENS = ["USDC", "USDT", "USDT0"] as const;
export type CrossChainToken = (typeof CROSS_CHAIN_PAY_TOKENS)[number];

export function isCrossChainNetwork(id: string): id is CrossChainNetwork {
  return (CROSS_CHAIN_NETWORKS as readonly string[]).includes(id);
}

export { ROUTE_CHAIN_LABEL } from "@/lib/routing/route-id";

/** What the destination must receive: exactly one ERC20FeeProxy payment with this reference. */
export interface DestinationPayment {
  network: NetworkId;
  chainId: number;
  /** The request's payment currency on the destination network. */
  tokenAddress: `0x${string}`;
  tokenSymbol: string;
  tokenDecimals: number;
  /** The ERC20FeeProxy on the destination network. */
  feeProxyAddress: `0x${string}`;
  payee: `0x${string}`;
  /** Base units still due to the payee (after earlier partial payments). */
  amount: bigint;
  /** 8-byte payment reference, 0x-prefixed hex (16 hex digits). */
  paymentReference: `0x${string}`;
  feeAmount: bigint;
  feeAddress: `0x${string}`;
}

export interface QuoteInput {
  destination: DestinationPayment;
  /** The payer's wallet on the source chain. */
  payer: `0x${string}`;
  /** Restrict to one source; both or neither. */
  sourceNetwork?: CrossChainNetwork;
  sourceToken?: CrossChainToken;
}

export interface RouteFee {
  /** The reference's fee types and stages. */
  type: "gas" | "platform" | "crosschain";
  stage: "sending" | "receiving" | "proxying" | "refunding" | "overall";
  provider: string;
  /** Decimal string in `currency`'s units. */
  amount: string;
  amountInUSD: string | null;
  currency: string;
}

/** One quoted way to pay from a source chain and token. */
export interface RouteQuote {
  provider: string;
  /** Stable name, e.g. `ARBITRUM_BASE_USDC_USDC` (source, destination, tokens). */
  id: string;
  sourceNetwork: CrossChainNetwork;
  sourceChainId: number;
  sourceToken: { address: `0x${string}`; symbol: CrossChainToken; decimals: number };
  /** Base units the payer spends on the source chain, bridge fees included. */
  sourceAmount: bigint;
  /** Fees on top of the destination amount, as shares of it (0.003 = 0.3 %). */
  feeFraction: number;
  fees: RouteFee[];
  /** Expected seconds from the source transaction to the destination payment. */
  durationSeconds: number;
  /** When the quote stops being honoured. */
  expiresAt: Date;
}

export interface SourceTransaction {
  to: `0x${string}`;
  data: `0x${string}`;
  value: bigint;
  chainId: number;
}

/** The calldata for one route: the payer approves `approval.spender`, then sends `payment`. */
export interface BuiltRoute extends RouteQuote {
  approval: { token: `0x${string}`; spender: `0x${string}`; amount: bigint };
  payment: SourceTransaction;
}

export type TrackStatus = "PENDING" | "DONE" | "FAILED" | "NOT_FOUND";

export interface TrackResult {
  status: TrackStatus;
  substatus: string | null;
  destinationTxHash: string | null;
}

export interface RoutingProvider {
  readonly name: string;
  /** Source networks this provider can route from (the hosted page offers these without quoting). */
  sourceNetworks(): readonly CrossChainNetwork[];
  /** Routes for a destination payment, best first; [] when none exist (never throws for "no route"). */
  quote(input: QuoteInput): Promise<RouteQuote[]>;
  /** Source-chain calldata for the route from `input.sourceNetwork`/`sourceToken` (both required). */
  build(input: QuoteInput & { sourceNetwork: CrossChainNetwork; sourceToken: CrossChainToken }): Promise<BuiltRoute>;
  /**
   * The source transaction behind a destination payment this provider delivered, or null when it
   * did not deliver it (detection uses it to report the source chain and transaction).
   */
  sourceOf?(input: {
    destinationTxHash: string;
    destinationNetwork: NetworkId;
    sourceNetwork: CrossChainNetwork;
  }): Promise<{ sourceTxHash: string } | null>;
  /**
   * A fresh transaction for a route step the payer already chose (the bridge's deadline re-stamped),
   * for providers whose steps expire (LI.FI's `/v1/advanced/stepTransaction`). Absent: build() again.
   */
  refreshStep?(step: Record<string, unknown>): Promise<SourceTransaction>;
  /** Status of a source transaction. */
  track(input: {
    sourceTxHash: string;
    sourceNetwork: CrossChainNetwork;
    destinationNetwork: NetworkId;
    tool?: string;
  }): Promise<TrackResult>;
}

/** A provider answered but could not serve the call (no route, rate limited, down). */
export class RoutingProviderError extends Error {
  constructor(
    message: string,
    readonly code: "NO_ROUTE" | "RATE_LIMITED" | "UNAVAILABLE" | "BAD_REQUEST",
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = "RoutingProviderError";
  }
}
