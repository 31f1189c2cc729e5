import type { Checkout, CrossChainPayAnswer, LinkDepositAnswer } from "@/lib/operations/checkout-schemas";
import type { PaymentPagePlan } from "@/lib/secure-payments/page-types";

/**
 * The hosted page's calls to the public API, all through `pageApi` (one place for headers,
 * caching, aborts and error answers). Answer types come from the operations' response schemas.
 */

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

export const OFFLINE_MESSAGE = "Could not reach Duebill. Check your connection and try again.";

interface PageApiInit {
  method?: "GET" | "POST";
  /** A JSON body (POST). */
  json?: unknown;
  signal?: AbortSignal;
}

/** Calls the API from the page: JSON in and out, never cached; an error answer throws a PageApiError with its message. */
export async function pageApi<T>(path: string, { method = "GET", json, signal }: PageApiInit = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (json !== undefined) headers["content-type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json), cache: "no-store", signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new PageApiError(OFFLINE_MESSAGE, 0, null);
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const e = (body ?? {}) as { message?: unknown; code?: unknown };
    const message = typeof e.message === "string" && e.message ? e.message : `Request failed (${res.status})`;
    throw new PageApiError(message, res.status, typeof e.code === "string" ? e.code : null);
  }
  return body as T;
}

export function tokenPath(token: string): string {
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

export type PagePlan = PaymentPagePlan & { crossChain?: CrossChainPlanInfo };

/**
 * A cross-chain answer as the panels run a plan: the approval only when the allowance is short,
 * then the deposit; the quote's amount and deadline beside it.
 */
export function crossChainPlan(answer: CrossChainPayAnswer): PagePlan {
  const [approval, payment] = answer.transactions;
  const txs = (answer.metadata.needsApproval ? [approval!, payment!] : [payment!]).map((t) => ({
    to: t.to,
    data: t.data as `0x${string}`,
    value: { type: "BigNumber" as const, hex: t.value as `0x${string}` },
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

/**
 * The payer's transactions (approvals first, then the payment) for the connected wallet; from
 * `source` when given (cross-chain: the approval is sent only when the allowance is short).
 */
export async function fetchPlan(token: string, wallet: string, source?: PlanSource | null, signal?: AbortSignal): Promise<PagePlan> {
  const q = new URLSearchParams({ wallet, ...(source ? { chain: source.chain, token: source.token } : {}) });
  const path = `${tokenPath(token)}/pay?${q}`;
  if (!source) return pageApi<PaymentPagePlan>(path, { signal });
  return crossChainPlan(await pageApi<CrossChainPayAnswer>(path, { signal }));
}

/** The link as the page sees it (the `checkout` view beside the reference's fields), for live status polling. */
export async function fetchPageData(token: string, signal?: AbortSignal): Promise<Checkout> {
  return (await pageApi<{ checkout: Checkout }>(tokenPath(token), { signal })).checkout;
}

/** The link's deposit address (created on first call), the exact amount and the QR code; `received` is what it holds now. */
export function fetchDeposit(token: string, signal?: AbortSignal): Promise<LinkDepositAnswer> {
  return pageApi(`${tokenPath(token)}/deposit-address`, { method: "POST", signal });
}

/**
 * Tells Duebill the payment's transaction hash as soon as the wallet returns it, so the link shows
 * as processing everywhere until detection confirms it. Best effort: a failure changes nothing.
 */
export function recordSubmission(token: string, txHash: string, payerAddress?: string): Promise<void> {
  return pageApi(`${tokenPath(token)}/intent`, { method: "POST", json: { txHash, ...(payerAddress ? { payerAddress } : {}) } }).then(
    () => undefined,
    () => undefined,
  );
}
