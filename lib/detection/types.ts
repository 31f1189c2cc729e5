import type { PayerAccount } from "@/lib/detection/payer-account";

/**
 * A proxy transfer seen on chain, normalised across EVM and Tron. `referenceHash` is
 * keccak256 of the 8-byte payment reference (the indexed topic the proxies emit).
 */
export interface TransferEvent {
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  blockTime: Date;
  proxyAddress: string;
  tokenAddress: string;
  to: string;
  amount: bigint;
  referenceHash: string;
  feeAmount: bigint;
  feeAddress: string | null;
  /** Transaction sender, when the source knows it. */
  from: string | null;
  /** The contract the transaction called, when the source knows it (a deposit address's forward calls the address). */
  txTo?: string | null;
  /** Set when a smart account paid: the contract the tokens came from, and its EOA (lib/detection/payer-account.ts). */
  payerAccount?: PayerAccount;
  /**
   * Set when the transfer is the fee-proxy half of an Erc20ConversionProxy payment: its
   * TransferWithConversionAndReference event (same transaction and reference, right after).
   */
  conversion?: ConversionDetail;
}

export interface ConversionDetail {
  /** Invoice-currency amount and fee credited, at the path's 8 decimals. */
  requestAmount: bigint;
  feeAmount: bigint;
  /** path[0]: the invoice currency's hash (lowercase). */
  currency: string;
  maxRateTimespan: bigint;
  /** requestAmount in USD (8 decimals) at the payment's block, from ChainlinkConversionPath; null when unknown. */
  amountInUsd: bigint | null;
}

/** Where a network's payment events come from: an EVM JSON-RPC, or a Tron event API. */
export interface PaymentEventSource {
  readonly network: string;
  /** Highest block considered final (head minus the confirmation depth). */
  finalizedHead(): Promise<bigint>;
  /** First block worth scanning when no cursor exists yet. */
  startBlock(finalizedHead: bigint): Promise<bigint>;
  /** Proxy transfer events in [fromBlock, toBlock], inclusive. */
  transfers(fromBlock: bigint, toBlock: bigint): Promise<TransferEvent[]>;
  /** The hash of block `n` on the chain as it is now; null when the chain has no such block. Sources without it never rescan. */
  blockHash?(n: bigint): Promise<string | null>;
}
