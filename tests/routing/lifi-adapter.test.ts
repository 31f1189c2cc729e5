import { decodeFunctionData } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import { erc20FeeProxyAbi } from "@/lib/chain/abis";
import { reloadEnv } from "@/lib/env";
import { LifiRoutingProvider, lifiProviderFromEnv } from "@/lib/routing/lifi";
import { type DestinationPayment, RoutingProviderError } from "@/lib/routing/types";
import { fixture, type RecordedExchange, replayFetch } from "@/tests/helpers/replay-fetch";

const PAYER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const PAYEE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const FEE = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const BASE_USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const ARB_USDC = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831";
const BASE_PROXY = "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814";
const DIAMOND = "0x1231DEB6f5749EF6cE6943a275A1D3E7486F4EaE";

/** 100 USDC to the payee plus 1 USDC fee, on Base, reference 0x0123456789abcdef. */
const destination: DestinationPayment = {
  network: "base",
  chainId: 8453,
  tokenAddress: BASE_USDC,
  tokenSymbol: "USDC",
  tokenDecimals: 6,
  feeProxyAddress: BASE_PROXY,
  payee: PAYEE,
  amount: 100_000_000n,
  paymentReference: "0x0123456789abcdef",
  feeAmount: 1_000_000n,
  feeAddress: FEE,
};
const input = { destination, payer: PAYER } as const;
const fromArbitrum = { ...input, sourceNetwork: "arbitrum-one", sourceToken: "USDC" } as const;

function provider(answer: Parameters<typeof replayFetch>[0], extra: Partial<ConstructorParameters<typeof LifiRoutingProvider>[0]> = {}) {
  const r = replayFetch(answer);
  return {
    p: new LifiRoutingProvider({ baseUrl: "https://li.quest", apiKey: "test-key", integrator: "duebill", fetch: r.fetch, ...extra }),
    calls: r.calls,
  };
}

const ok = fixture("lifi", "quote-contract-calls-200");
/** The 200 answer with one estimate field changed. */
function okWith(estimate: Record<string, unknown>): RecordedExchange {
  const body = ok.response.body as { estimate: Record<string, unknown> };
  return { response: { ...ok.response, body: { ...body, estimate: { ...body.estimate, ...estimate } } } };
}

afterEach(() => {
  delete process.env.LIFI_API_URL;
  delete process.env.LIFI_API_KEY;
  delete process.env.LIFI_INTEGRATOR;
  reloadEnv();
});

describe("LI.FI adapter: the request it sends", () => {
  it("asks a contract-call quote with toAmount whose destination call is the fee proxy with the payment reference", async () => {
    const { p, calls } = provider(() => ok);
    await p.build(fromArbitrum);
    expect(calls).toHaveLength(1);
    const req = calls[0]!;
    expect(req.method).toBe("POST");
    expect(req.url.toString()).toBe("https://li.quest/v1/quote/contractCalls");
    expect(req.headers.get("x-lifi-api-key")).toBe("test-key");
    expect(req.headers.get("content-type")).toBe("application/json");
    expect(req.body).toEqual({
      fromChain: 42161,
      fromToken: ARB_USDC,
      fromAddress: PAYER,
      toChain: 8453,
      toToken: BASE_USDC,
      toAmount: "101000000",
      contractCalls: [
        {
          fromAmount: "101000000",
          fromTokenAddress: BASE_USDC,
          toContractAddress: BASE_PROXY,
          toContractCallData: expect.stringMatching(/^0xc219a14d/),
          toContractGasLimit: "200000",
          toApprovalAddress: BASE_PROXY,
        },
      ],
      toFallbackAddress: PAYER,
      slippage: 0.005,
      integrator: "duebill",
    });
    const call = (req.body as { contractCalls: { toContractCallData: `0x${string}` }[] }).contractCalls[0]!;
    const decoded = decodeFunctionData({ abi: erc20FeeProxyAbi, data: call.toContractCallData });
    expect(decoded.functionName).toBe("transferFromWithReferenceAndFee");
    expect(decoded.args).toEqual([BASE_USDC, PAYEE, 100_000_000n, "0x0123456789abcdef", 1_000_000n, FEE]);
  });

  it("sends no key header without a key, and the configured slippage", async () => {
    const { p, calls } = provider(() => ok, { apiKey: undefined, integrator: undefined, slippage: 0.01 });
    await p.build(fromArbitrum);
    expect(calls[0]!.headers.has("x-lifi-api-key")).toBe(false);
    expect(calls[0]!.body).toMatchObject({ slippage: 0.01 });
    expect(calls[0]!.body).not.toHaveProperty("integrator");
  });

  it("asks every source chain and token but the destination's chain, with native USDC (never USDC.e)", async () => {
    const { p, calls } = provider((req) =>
      (req.body as { fromChain: number; fromToken: string }).fromChain === 42161 &&
      (req.body as { fromToken: string }).fromToken === ARB_USDC
        ? ok
        : fixture("lifi", "quote-404-unavailable-routes"),
    );
    const routes = await p.quote(input);
    const asked = calls.map((c) => `${(c.body as { fromChain: number }).fromChain}:${(c.body as { fromToken: string }).fromToken}`).sort();
    expect(asked).toEqual(
      [
        "1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
        "1:0xdAC17F958D2ee523a2206206994597C13D831ec7",
        "10:0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85",
        "10:0x94b008aA00579c1307B0EF2c499aD98a8ce58e58",
        "137:0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
        "137:0xc2132D05D31c914a87C6611C10748AEb04B58e8F",
        "42161:0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9",
        "42161:0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
      ].sort(),
    );
    expect(routes.map((r) => r.id)).toEqual(["ARBITRUM_BASE_USDC_USDC"]);
  });

  it("tracks with GET /v1/status, txHash, fromChain, toChain and the quote's tool", async () => {
    const { p, calls } = provider(() => fixture("lifi", "status-done-completed"));
    await p.track({ sourceTxHash: "0xabc", sourceNetwork: "arbitrum-one", destinationNetwork: "base", tool: "across" });
    const req = calls[0]!;
    expect(req.method).toBe("GET");
    expect(`${req.url.origin}${req.url.pathname}`).toBe("https://li.quest/v1/status");
    expect(Object.fromEntries(req.url.searchParams)).toEqual({ txHash: "0xabc", fromChain: "42161", toChain: "8453", bridge: "across" });
    expect(req.headers.get("x-lifi-api-key")).toBe("test-key");
  });

  it("lifiProviderFromEnv reads LIFI_API_URL, LIFI_API_KEY and LIFI_INTEGRATOR", async () => {
    process.env.LIFI_API_URL = "https://staging.li.quest";
    process.env.LIFI_API_KEY = "env-key";
    process.env.LIFI_INTEGRATOR = "duebill-staging";
    reloadEnv();
    const r = replayFetch(() => ok);
    await lifiProviderFromEnv(r.fetch).build(fromArbitrum);
    expect(r.calls[0]!.url.toString()).toBe("https://staging.li.quest/v1/quote/contractCalls");
    expect(r.calls[0]!.headers.get("x-lifi-api-key")).toBe("env-key");
    expect(r.calls[0]!.body).toMatchObject({ integrator: "duebill-staging" });
  });
});

describe("LI.FI adapter: mapping a quote", () => {
  it("maps the step onto a route: amounts, fees (included and on top), duration, id", async () => {
    const { p } = provider(() => ok);
    const [route] = await p.quote(fromArbitrum);
    expect(route).toMatchObject({
      provider: "lifi",
      id: "ARBITRUM_BASE_USDC_USDC",
      sourceNetwork: "arbitrum-one",
      sourceChainId: 42161,
      sourceToken: { address: ARB_USDC, symbol: "USDC", decimals: 6 },
      sourceAmount: 101_180_000n,
      durationSeconds: 52,
    });
    expect(route!.fees).toEqual([
      { type: "platform", stage: "proxying", provider: "lifi", amount: "0.25295", amountInUSD: "0.2529", currency: "USDC" },
      { type: "crosschain", stage: "proxying", provider: "AcrossV3", amount: "0.091", amountInUSD: "0.0910", currency: "USDC" },
      { type: "crosschain", stage: "sending", provider: "AcrossV3", amount: "0.00003", amountInUSD: "0.1095", currency: "ETH" },
      { type: "gas", stage: "sending", provider: "AcrossV3", amount: "0.0000035", amountInUSD: "0.0128", currency: "ETH" },
    ]);
    // (101.18 − 101) spread + 0.1095 paid on top + 0.0128 gas, over the 101 USDC delivered.
    expect(route!.feeFraction).toBeCloseTo((0.18 + 0.1095 + 0.0128) / 101, 6);
    expect(route!.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it("builds the approval to estimate.approvalAddress and the payment from transactionRequest (hex → bigint)", async () => {
    const { p } = provider(() => ok);
    const built = await p.build(fromArbitrum);
    expect(built.approval).toEqual({ token: ARB_USDC, spender: DIAMOND, amount: 101_180_000n });
    expect(built.payment).toEqual({
      to: DIAMOND,
      data: (ok.response.body as { transactionRequest: { data: string } }).transactionRequest.data,
      value: 30_000_000_000_000n,
      chainId: 42161,
    });
  });

  it("refuses a quote whose guaranteed minimum is below what the fee proxy pulls", async () => {
    const { p } = provider(() => okWith({ toAmountMin: "100999999" }));
    await expect(p.quote(fromArbitrum)).resolves.toEqual([]);
    await expect(p.build(fromArbitrum)).rejects.toMatchObject({
      code: "NO_ROUTE",
      message: expect.stringContaining("below the 101000000"),
    });
  });

  it("refuses an answer for another source chain than asked", async () => {
    const { p } = provider(() => ok);
    await expect(p.build({ ...input, sourceNetwork: "optimism", sourceToken: "USDC" })).rejects.toMatchObject({ code: "UNAVAILABLE" });
  });

  it("offers no route to a Tron destination without asking LI.FI", async () => {
    const { p, calls } = provider(() => ok);
    expect(await p.quote({ ...input, destination: { ...destination, network: "tron", chainId: 728126428 } })).toEqual([]);
    expect(calls).toHaveLength(0);
  });
});

describe("LI.FI adapter: errors", () => {
  it("404 no quote → [] from quote(), NO_ROUTE with LI.FI's reasons from build()", async () => {
    const { p } = provider(() => fixture("lifi", "quote-404-unavailable-routes"));
    expect(await p.quote(input)).toEqual([]);
    const err = await p.build(fromArbitrum).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RoutingProviderError);
    expect(err).toMatchObject({
      code: "NO_ROUTE",
      message:
        "LI.FI: No available quotes for the requested transfer (1002 NoQuoteError) — stargateV2: INSUFFICIENT_LIQUIDITY (The tool's liquidity is insufficient.); filtered out: The amount is too low for this bridge",
    });
  });

  it("reads the ToolError-array form of a 404 too", async () => {
    const { p } = provider(() => fixture("lifi", "quote-404-tool-errors"));
    await expect(p.build(fromArbitrum)).rejects.toMatchObject({
      code: "NO_ROUTE",
      message: expect.stringContaining("across: AMOUNT_TOO_LOW (The amount is too low to cover the fees.)"),
    });
  });

  it("429 → RATE_LIMITED with Retry-After, from build() and from a quote() where every source failed", async () => {
    const { p } = provider(() => fixture("lifi", "quote-429"));
    await expect(p.build(fromArbitrum)).rejects.toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: 120 });
    await expect(p.quote(input)).rejects.toMatchObject({
      code: "RATE_LIMITED",
      retryAfterSeconds: 120,
      message: expect.stringContaining("1005 RateLimitError"),
    });
  });

  it("a quote() where some sources answered keeps those routes", async () => {
    const { p } = provider((req) => ((req.body as { fromChain: number }).fromChain === 42161 ? ok : fixture("lifi", "quote-500")));
    const routes = await p.quote({ ...input, sourceToken: undefined, sourceNetwork: undefined });
    expect(routes.map((r) => r.sourceNetwork)).toEqual(["arbitrum-one"]);
  });

  it("5xx → UNAVAILABLE; 400 → BAD_REQUEST with LI.FI's message", async () => {
    await expect(provider(() => fixture("lifi", "quote-500")).p.build(fromArbitrum)).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: "LI.FI: Internal server error (1006 ServerError)",
    });
    await expect(provider(() => fixture("lifi", "quote-400-validation")).p.build(fromArbitrum)).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "LI.FI: Invalid request: toAmount must be a positive integer string (1011 ValidationError)",
    });
  });

  it("a timeout → UNAVAILABLE", async () => {
    const { p } = provider(
      (req) =>
        new Promise<Response>((_resolve, reject) => {
          void req;
          setTimeout(() => reject(new DOMException("The operation was aborted due to timeout", "TimeoutError")), 5);
        }),
      { timeoutMs: 5 },
    );
    await expect(p.build(fromArbitrum)).rejects.toMatchObject({ code: "UNAVAILABLE", message: "LI.FI did not answer within 5 ms" });
  });
});

describe("LI.FI adapter: track", () => {
  it("DONE/COMPLETED → DONE with the destination transaction", async () => {
    const { p } = provider(() => fixture("lifi", "status-done-completed"));
    expect(await p.track({ sourceTxHash: "0xabc", sourceNetwork: "arbitrum-one", destinationNetwork: "base" })).toEqual({
      status: "DONE",
      substatus: "COMPLETED",
      destinationTxHash: "0x9e2d4c6a8b0f1e3d5c7b9a1f3e5d7c9b1a3f5e7d9c1b3a5f7e9d1c3b5a7f9e1d",
    });
  });

  it("DONE/REFUNDED is not paid: FAILED", async () => {
    const { p } = provider(() => fixture("lifi", "status-done-refunded"));
    expect(await p.track({ sourceTxHash: "0xabc", sourceNetwork: "arbitrum-one", destinationNetwork: "base" })).toMatchObject({
      status: "FAILED",
      substatus: "REFUNDED",
    });
  });

  it("PENDING without a receiving hash, and NOT_FOUND (answered with 200)", async () => {
    expect(
      await provider(() => fixture("lifi", "status-pending")).p.track({
        sourceTxHash: "0xabc",
        sourceNetwork: "arbitrum-one",
        destinationNetwork: "base",
      }),
    ).toEqual({ status: "PENDING", substatus: "WAIT_DESTINATION_TRANSACTION", destinationTxHash: null });
    expect(
      await provider(() => fixture("lifi", "status-not-found")).p.track({
        sourceTxHash: "0xbad",
        sourceNetwork: "arbitrum-one",
        destinationNetwork: "base",
      }),
    ).toEqual({ status: "NOT_FOUND", substatus: null, destinationTxHash: null });
  });
});
