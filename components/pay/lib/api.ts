import type { LinkDeposit } from "@/lib/secure-payments/deposit";
import type { PaymentPageData, PaymentPagePlan } from "@/lib/secure-payments/page-types";

/** An error answer of the public API (`{statusCode, error, message, code, errors?, requestId}`). */
export class PageApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
  ) {
    super(message);
    this.name = "PageApiError";
  }
}

async function getJson<T>(path: string, signal?: AbortSignal, method: "GET" | "POST" = "GET"): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { method, headers: { accept: "application/json" }, cache: "no-store", signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new PageApiError("Could not reach Duebill. Check your connection and try again.", 0, null);
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const e = (body ?? {}) as { message?: unknown; code?: unknown };
    const message = typeof e.message === "string" && e.message ? e.message : `Request failed (${res.status})`;
    throw new PageApiError(message, res.status, typeof e.code === "string" ? e.code : null);
  }
  return body as T;
}

function tokenPath(token: string): string {
  return `/v2/secure-payments/${encodeURIComponent(token)}`;
}

/** A cross-chain source the payer picked: `chain` and `token` of the pay call. */
export interface PlanSource {
  chain: string;
  token: string;
}

/** What a cross-chain plan adds: the amount spent on the source chain and until when the quote holds. */
export interface CrossChainPlanInfo {
  sourceAmount: string;
  sourceToken: string;
  quoteExpiresAt: number;
}

interface CrossChainAnswer {
  transactions: { to: string; data: `0x${string}`; value: `0x${string}` }[];
  metadata: {
    needsApproval: boolean;
    hasEnoughBalance: boolean;
    sourceAmount: string;
    sourceToken: string;
    quoteExpiresAt: number;
  };
}

/**
 * The payer's transactions (approvals first, then the payment) for the connected wallet; from
 * `source` when given (cross-chain: the approval is sent only when the allowance is short).
 */
export async function fetchPlan(
  token: string,
  wallet: string,
  source?: PlanSource | null,
  signal?: AbortSignal,
): Promise<PaymentPagePlan & { crossChain?: CrossChainPlanInfo }> {
  const q = new URLSearchParams({ wallet, ...(source ? { chain: source.chain, token: source.token } : {}) });
  if (!source) return getJson(`${tokenPath(token)}/pay?${q}`, signal);
  const answer = await getJson<CrossChainAnswer>(`${tokenPath(token)}/pay?${q}`, signal);
  const [approval, payment] = answer.transactions;
  const txs = (answer.metadata.needsApproval ? [approval!, payment!] : [payment!]).map((t) => ({
    to: t.to,
    data: t.data,
    value: { type: "BigNumber" as const, hex: t.value },
  }));
  return {
    transactions: txs,
    metadata: {
      stepsRequired: txs.length,
      needsApproval: answer.metadata.needsApproval,
      approvalTransactionIndex: answer.metadata.needsApproval ? 0 : null,
      paymentTransactionIndex: txs.length - 1,
      hasEnoughBalance: answer.metadata.hasEnoughBalance,
      hasEnoughGas: true,
    },
    crossChain: {
      sourceAmount: answer.metadata.sourceAmount,
      sourceToken: answer.metadata.sourceToken,
      quoteExpiresAt: answer.metadata.quoteExpiresAt,
    },
  };
}

/** The link as the page sees it (the `checkout` view beside the reference's fields), for live status polling. */
export async function fetchPageData(token: string, signal?: AbortSignal): Promise<PaymentPageData> {
  return (await getJson<{ checkout: PaymentPageData }>(tokenPath(token), signal)).checkout;
}

/** The link's deposit address (created on first call), the exact amount and the QR code; `received` is what it holds now. */
export function fetchDeposit(token: string, signal?: AbortSignal): Promise<LinkDeposit> {
  return getJson(`${tokenPath(token)}/deposit-address`, signal, "POST");
}

/**
 * Tells Duebill the payment's transaction hash as soon as the wallet returns it, so the link shows
 * as processing everywhere until detection confirms it. Best effort: a failure changes nothing.
 */
export function recordIntent(token: string, txHash: string, payerAddress?: string): Promise<void> {
  return fetch(`${tokenPath(token)}/intent`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ txHash, ...(payerAddress ? { payerAddress } : {}) }),
  }).then(
    () => undefined,
    () => undefined,
  );
}
