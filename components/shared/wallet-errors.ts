/**
 * Wallet errors, in words a payer understands. EIP-1193 wallets reject with code 4001
 * (viem wraps it as UserRejectedRequestError, sometimes several causes deep); TronLink
 * rejects a signature with a plain string such as "Confirmation declined by user", which
 * the adapter wraps in a WalletSignTransactionError.
 */
const REJECTION_TEXT = /user rejected|user denied|declined by user|rejected the request|user canceled|user cancelled|cancelled by user/i;

function causes(err: unknown): unknown[] {
  const out: unknown[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur && depth < 8; depth++) {
    out.push(cur);
    cur = typeof cur === "object" ? (cur as { cause?: unknown }).cause : undefined;
  }
  return out;
}

export function isUserRejection(err: unknown): boolean {
  return causes(err).some((e) => {
    if (typeof e === "string") return REJECTION_TEXT.test(e);
    if (typeof e !== "object" || e === null) return false;
    const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown };
    return code === 4001 || name === "UserRejectedRequestError" || (typeof message === "string" && REJECTION_TEXT.test(message));
  });
}

/** Contract errors the payer can act on, by selector (the raw revert data is not for people). */
const KNOWN_REVERTS: [RegExp, string][] = [
  [/0xe7821d82/i, "The cross-chain quote expired before the transaction was sent. Try again for a fresh quote."],
  [
    /custom error 0x[0-9a-f]{8}/i,
    "The contract refused this transaction, so it was not sent. Try again; if it keeps failing, contact the merchant.",
  ],
];

/** One readable sentence: viem's shortMessage when there is one, never a stack or a JSON dump. */
export function describeError(err: unknown): string {
  const text = causes(err)
    .map((e) => (typeof e === "string" ? e : ((e as { message?: unknown })?.message ?? "")))
    .join(" ");
  for (const [pattern, message] of KNOWN_REVERTS) if (pattern.test(String(text))) return message;
  if (typeof err === "string") return err;
  if (err && typeof err === "object") {
    const { shortMessage, message } = err as { shortMessage?: unknown; message?: unknown };
    if (typeof shortMessage === "string" && shortMessage) return shortMessage;
    if (typeof message === "string" && message) return message.split("\n")[0] ?? message;
  }
  return "Something went wrong. Please try again.";
}

export const REJECTED_MESSAGE = "You rejected the request in your wallet.";
