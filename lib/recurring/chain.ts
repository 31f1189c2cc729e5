/**
 * What the recurring executor (executor.ts) needs from a chain, and nothing chain-specific:
 * the EVM implementation talks to contracts/src/DuebillRecurringPayments.sol through the relayer,
 * tests use an in-process simulation (tests/recurring/recurring-executor.test.ts).
 */

/** The schedule fields a chain needs to read or trigger one payment (a RecurringSchedule row). */
export interface ChainSchedule {
  id: string;
  network: string;
  token: string;
  payer: string;
  payee: string;
  amount: string;
  feeAmount: string;
  feeAddress: string | null;
  totalPayments: number;
  dueTimes: number[];
  deadline: number;
  nonce: string;
  scheduleId: string;
  permitSignature: string | null;
}

export const FAILURE_REASONS = [
  "insufficient_balance",
  "insufficient_allowance",
  "deadline_passed",
  "cancelled_on_chain",
  "not_due",
  "already_paid",
  "relayer_out_of_gas",
  "unknown",
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** `missing`: token base units the payer lacks, when the reason is a balance or allowance shortfall. */
export type SimulationResult = { ok: true } | { ok: false; reason: FailureReason; message: string; missing?: bigint };

export type ReceiptStatus = "success" | "reverted" | "pending" | "unknown";

export interface RecurringChain {
  /** The network this chain serves: a sweep claims only that network's schedules. */
  readonly network: string;
  /** Timestamp (unix seconds) of the latest block: due times are compared with it, never the server clock. */
  latestBlockTime(): Promise<number>;
  /** Whether payment `index` (1-based) of the schedule is paid on chain. */
  isPaid(schedule: ChainSchedule, index: number): Promise<boolean>;
  /** The contract's lastPaid (0 when nothing is paid). */
  lastPaidIndex(schedule: ChainSchedule): Promise<number>;
  isCancelled(schedule: ChainSchedule): Promise<boolean>;
  /** A dry run of triggerPayment(permit, signature, index) from the relayer. */
  simulate(schedule: ChainSchedule, index: number): Promise<SimulationResult>;
  /**
   * Broadcasts triggerPayment with the relayer nonce `nonce`; returns the tx hash. Same nonce =
   * replacement: `replaces` is the stuck transaction's hash, whose fee the new one must outbid.
   */
  send(schedule: ChainSchedule, index: number, nonce: number, replaces?: string): Promise<string>;
  receipt(txHash: string): Promise<ReceiptStatus>;
  /** Reserves the relayer's next unused nonce. */
  nextNonce(): Promise<number>;
  /** Whether a transaction with this relayer nonce has been mined (whatever it was). */
  nonceUsed(nonce: number): Promise<boolean>;
  /**
   * Fills a gap in the relayer's nonces below the lowest still-unmined of `sentNonces` (sends older
   * than a grace period), so transactions queued behind a nonce that was never broadcast can be
   * mined; returns the nonce filled, or null. Chains without nonces leave it out.
   */
  fillNonceGap?(sentNonces: readonly number[]): Promise<number | null>;
  /**
   * Broadcasts the contract's cancelSchedule(permit) from the relayer with nonce `nonce`; returns the
   * tx hash. `replaces`: the unmined transaction at that nonce it must outbid (a trigger of the same
   * schedule still in the pool, or an earlier cancel); without it, `outbid` still bumps the fee (the
   * nonce may hold a transaction that was broadcast without being recorded). Chains that cannot
   * cancel leave it out (the API cancel then stays in the database only and says so).
   */
  cancel?(schedule: ChainSchedule, nonce: number, opts?: { replaces?: string; outbid?: boolean }): Promise<string>;
  /**
   * Takes back an unmined relayer transaction: a 0-value transfer to the relayer itself at the same
   * nonce, outbidding `replaces` (the transaction it withdraws), so at most one of them is mined.
   */
  withdraw?(nonce: number, replaces?: string): Promise<string>;
}

/** A readable failureReason for each code (the chain's message is appended when it has one). */
export const FAILURE_MESSAGES: Record<FailureReason, string> = {
  insufficient_balance: "The payer's token balance is below the payment amount.",
  insufficient_allowance: "The payer's allowance to the recurring contract is below the payment amount.",
  deadline_passed: "The schedule's signed deadline has passed; no further payment can be triggered.",
  cancelled_on_chain: "The payer cancelled the schedule on chain.",
  not_due: "The payment is not due yet on chain.",
  already_paid: "The payment is already paid on chain.",
  relayer_out_of_gas: "The relayer cannot pay for gas on this network.",
  unknown: "The payment would fail on chain for an unknown reason.",
};

export function readableFailure(reason: FailureReason, message?: string): string {
  const base = FAILURE_MESSAGES[reason];
  return message && message !== base ? `${base} (${message})` : base;
}
