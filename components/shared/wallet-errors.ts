import {
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  ExecutionRevertedError,
  type Hex,
  InsufficientFundsError,
  isHex,
  parseAbi,
  UserRejectedRequestError,
} from "viem";

/**
 * Wallet errors, in words a payer understands. EVM wallets reach us through viem (wagmi), so
 * they are recognised by viem's error classes, found anywhere on the cause chain with
 * `BaseError.walk`: UserRejectedRequestError (EIP-1193 code 4001), InsufficientFundsError,
 * and a revert (ContractFunctionRevertedError, ExecutionRevertedError, or revert data a
 * wallet passed along), decoded against the errors a payer can act on. TronLink is no viem
 * wallet: it rejects a signature with a plain string ("Confirmation declined by user") that its
 * adapter wraps in a WalletSignTransactionError, matched narrowly below.
 */

export const REJECTED_MESSAGE = "You rejected the request in your wallet.";
export const QUOTE_EXPIRED_MESSAGE = "The cross-chain quote expired before the transaction was sent. Try again for a fresh quote.";
export const REVERTED_MESSAGE =
  "The contract refused this transaction, so it was not sent. Try again; if it keeps failing, contact the merchant.";
export const INSUFFICIENT_FUNDS_MESSAGE = "This wallet does not hold enough to pay for this transaction and its network fee.";
const FALLBACK_MESSAGE = "Something went wrong. Please try again.";

/**
 * Reverts the page can word: the cross-chain bridge refuses a deposit after its quote's deadline
 * (QuoteExpired), and Solidity's own `Error(string)` (the contract said why).
 */
const KNOWN_ERRORS = parseAbi(["error QuoteExpired(uint256 expiresAt, uint256 now_)", "error Error(string reason)"]);

/** What TronLink says when the user declines: a signature ("Confirmation declined by user") or the connection. */
const TRONLINK_DECLINED = ["confirmation declined by user", "the user rejected connection"];

/** TronLink's refusals: its adapter wraps the original (a string, or `{code: 4001}`) as `error` of a WalletError. */
function tronLinkDeclined(err: unknown): boolean {
  let cur: unknown = err;
  for (let depth = 0; cur && depth < 4; depth++) {
    const text = typeof cur === "string" ? cur : typeof cur === "object" ? (cur as { message?: unknown }).message : undefined;
    if (typeof text === "string" && TRONLINK_DECLINED.some((t) => text.toLowerCase().includes(t))) return true;
    if (typeof cur !== "object") return false;
    if ((cur as { code?: unknown }).code === 4001) return true;
    cur = (cur as { error?: unknown }).error ?? (cur as { cause?: unknown }).cause;
  }
  return false;
}

export function isUserRejection(err: unknown): boolean {
  if (err instanceof BaseError) return err.walk((e) => e instanceof UserRejectedRequestError) !== null;
  // Not a viem error: TronLink, or an EIP-1193 provider's own `{code: 4001}`.
  return tronLinkDeclined(err);
}

/** Revert data on the cause chain: viem's decoded revert, or the bytes a node or wallet returned (`data`, or MetaMask's `data.data`). */
function revertData(err: BaseError): Hex | undefined {
  let found: Hex | undefined;
  err.walk((e) => {
    if (e instanceof ContractFunctionRevertedError && e.raw) found = e.raw;
    else if (typeof e === "object" && e !== null && "data" in e) {
      const data = (e as { data?: unknown }).data;
      const inner = typeof data === "object" && data !== null ? (data as { data?: unknown }).data : data;
      if (typeof inner === "string" && isHex(inner) && inner.length >= 10) found = inner;
    }
    return found !== undefined;
  });
  return found;
}

function revertMessage(err: BaseError): string | null {
  const data = revertData(err);
  const reverted =
    data !== undefined || err.walk((e) => e instanceof ExecutionRevertedError || e instanceof ContractFunctionRevertedError) !== null;
  if (!reverted) return null;
  if (data) {
    try {
      const decoded = decodeErrorResult({ abi: KNOWN_ERRORS, data });
      if (decoded.errorName === "QuoteExpired") return QUOTE_EXPIRED_MESSAGE;
      if (decoded.errorName === "Error") return `${REVERTED_MESSAGE} (${decoded.args[0]})`;
    } catch {
      // A custom error of another contract: its raw data is not for people.
    }
  }
  return REVERTED_MESSAGE;
}

/** One readable sentence: never a stack, a JSON dump or raw revert data. */
export function describeError(err: unknown): string {
  if (err instanceof BaseError) {
    if (err.walk((e) => e instanceof UserRejectedRequestError)) return REJECTED_MESSAGE;
    if (err.walk((e) => e instanceof InsufficientFundsError)) return INSUFFICIENT_FUNDS_MESSAGE;
    return revertMessage(err) ?? (err.shortMessage || FALLBACK_MESSAGE);
  }
  if (typeof err === "string") return err || FALLBACK_MESSAGE;
  if (err instanceof Error && err.message) return err.message.split("\n")[0] ?? err.message;
  if (typeof err === "object" && err !== null) {
    const { message } = err as { message?: unknown };
    if (typeof message === "string" && message) return message.split("\n")[0] ?? message;
  }
  return FALLBACK_MESSAGE;
}

/** The sentence to show for a failed wallet request: the rejection message when the user said no. */
export function walletErrorMessage(err: unknown): string {
  return isUserRejection(err) ? REJECTED_MESSAGE : describeError(err);
}
