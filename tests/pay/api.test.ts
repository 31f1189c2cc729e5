import { afterEach, describe, expect, it, vi } from "vitest";
import {
  crossChainPlan,
  fetchPageData,
  fetchPlan,
  OFFLINE_MESSAGE,
  PageApiError,
  pageApi,
  recordSubmission,
} from "@/components/pay/lib/api";
import type { CrossChainPayAnswer } from "@/lib/operations/checkout-schemas";

/** The page's fetch, replaced: each call is recorded and answered from `reply`. */
function stubFetch(reply: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return reply(url, init);
    }),
  );
  return calls;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("pageApi, the page's one fetch helper", () => {
  it("asks for JSON, never from a cache, and returns the answer", async () => {
    const calls = stubFetch(() => json(200, { ok: 1 }));
    expect(await pageApi("/v2/x")).toEqual({ ok: 1 });
    expect(calls[0]!.init).toMatchObject({ method: "GET", headers: { accept: "application/json" }, cache: "no-store" });
    expect(calls[0]!.init.body).toBeUndefined();
  });

  it("posts a JSON body with its content type", async () => {
    const calls = stubFetch(() => json(200, {}));
    await pageApi("/v2/x", { method: "POST", json: { a: 1 } });
    expect(calls[0]!.init).toMatchObject({ method: "POST", headers: { "content-type": "application/json" }, body: '{"a":1}' });
  });

  it("turns an error answer into a PageApiError with the API's message, status and code", async () => {
    stubFetch(() => json(409, { statusCode: 409, error: "Conflict", message: "This payment link is expired", code: "conflict" }));
    const err = await pageApi("/v2/x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PageApiError);
    expect(err).toMatchObject({ message: "This payment link is expired", status: 409, code: "conflict" });
  });

  it("names the status when the error answer has no message (or no JSON)", async () => {
    stubFetch(() => new Response("<html>bad gateway</html>", { status: 502 }));
    await expect(pageApi("/v2/x")).rejects.toMatchObject({ message: "Request failed (502)", status: 502, code: null });
  });

  it("says the connection failed when fetch itself fails, but lets an abort through as it is", async () => {
    vi.stubGlobal("fetch", vi.fn().mockRejectedValue(new TypeError("Failed to fetch")));
    await expect(pageApi("/v2/x")).rejects.toMatchObject({ message: OFFLINE_MESSAGE, status: 0 });
    const controller = new AbortController();
    controller.abort();
    const abort = new DOMException("aborted", "AbortError");
    vi.stubGlobal("fetch", vi.fn().mockRejectedValue(abort));
    await expect(pageApi("/v2/x", { signal: controller.signal })).rejects.toBe(abort);
  });
});

describe("the page's calls", () => {
  it("polls the checkout view of the link, its token escaped", async () => {
    const calls = stubFetch(() => json(200, { status: "pending", checkout: { token: "T", status: "completed" } }));
    expect(await fetchPageData("A/B")).toEqual({ token: "T", status: "completed" });
    expect(calls[0]!.url).toBe("/v2/secure-payments/A%2FB");
  });

  it("records the payment's hash best effort: a failure is swallowed", async () => {
    const calls = stubFetch(() => json(409, { message: "no longer pending" }));
    await expect(recordSubmission("TOK", "0xabc", "0xpayer")).resolves.toBeUndefined();
    expect(calls[0]!.url).toBe("/v2/secure-payments/TOK/intent");
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ txHash: "0xabc", payerAddress: "0xpayer" });
    vi.stubGlobal("fetch", vi.fn().mockRejectedValue(new TypeError("offline")));
    await expect(recordSubmission("TOK", "0xabc")).resolves.toBeUndefined();
  });

  const crossChain: CrossChainPayAnswer = {
    transactions: [
      { to: "0xusdc", data: "0xapprove", value: "0x0" },
      { to: "0xbridge", data: "0xdeposit", value: "0x0" },
    ],
    metadata: {
      stepsRequired: 2,
      needsApproval: true,
      approvalTransactionIndex: 0,
      paymentTransactionIndex: 1,
      routeType: "crosschain",
      quoteExpiresAt: 1_900_000_000,
      hasEnoughBalance: true,
      sourceAmount: "12.61",
      quoteId: "q1",
      routeId: "r1",
      provider: "devnet-bridge",
      sourceChain: "ARBITRUM",
      sourceChainId: 42161,
      sourceToken: "USDC",
      sourceTokenAddress: "0xusdc",
    },
  };

  it("runs a cross-chain answer as approval (only when the allowance is short) then deposit", () => {
    const withApproval = crossChainPlan(crossChain);
    expect(withApproval.transactions.map((t) => t.to)).toEqual(["0xusdc", "0xbridge"]);
    expect(withApproval.transactions[0]!.value).toEqual({ type: "BigNumber", hex: "0x0" });
    expect(withApproval.metadata).toEqual({
      stepsRequired: 2,
      needsApproval: true,
      approvalTransactionIndex: 0,
      paymentTransactionIndex: 1,
      hasEnoughBalance: true,
      hasEnoughGas: true,
    });
    expect(withApproval.crossChain).toEqual({ sourceAmount: "12.61", sourceToken: "USDC", quoteExpiresAt: 1_900_000_000 });
    const noApproval = crossChainPlan({ ...crossChain, metadata: { ...crossChain.metadata, needsApproval: false } });
    expect(noApproval.transactions.map((t) => t.to)).toEqual(["0xbridge"]);
    expect(noApproval.metadata).toMatchObject({ stepsRequired: 1, approvalTransactionIndex: null, paymentTransactionIndex: 0 });
  });

  it("asks for the plan of the wallet, from the source chain when one is picked", async () => {
    const calls = stubFetch((url) => json(200, url.includes("chain=") ? crossChain : { transactions: [], metadata: {} }));
    await fetchPlan("TOK", "0xpayer");
    const plan = await fetchPlan("TOK", "0xpayer", { chain: "ARBITRUM", token: "USDC" });
    expect(calls.map((c) => c.url)).toEqual([
      "/v2/secure-payments/TOK/pay?wallet=0xpayer",
      "/v2/secure-payments/TOK/pay?wallet=0xpayer&chain=ARBITRUM&token=USDC",
    ]);
    expect(plan.crossChain?.sourceAmount).toBe("12.61");
  });
});
