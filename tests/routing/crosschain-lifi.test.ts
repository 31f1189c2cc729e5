/**
 * The LI.FI adapter behind the API (ROUTING_PROVIDER=lifi in production): GET /pay with chain and
 * token asks LI.FI for a contract-call quote ending in the destination fee proxy with the request's
 * reference, and answers the quote's calldata; LI.FI's "no route" and rate limit become a 400
 * naming chain and a 503 with Retry-After. LI.FI is replayed from recorded shapes.
 */
import { decodeFunctionData } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as payRequest } from "@/app/v2/request/[requestId]/pay/route";
import { GET as getRoutes } from "@/app/v2/request/[requestId]/routes/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { erc20FeeProxyAbi } from "@/lib/chain/abis";
import { setRoutingProviderForTests } from "@/lib/routing/index";
import { LifiRoutingProvider } from "@/lib/routing/lifi";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { fixture, type RecordedExchange, replayFetch } from "@/tests/helpers/replay-fetch";

const PAYER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const PAYEE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const DIAMOND = "0x1231DEB6f5749EF6cE6943a275A1D3E7486F4EaE";

let a: Awaited<ReturnType<typeof makeIntegrator>>;
let requestId: string;
let paymentReference: string;

beforeAll(async () => {
  await resetDb();
  a = await makeIntegrator();
  const res = await call(createRequest, "/v2/request", {
    method: "POST",
    headers: { "x-api-key": a.apiKey },
    json: { payee: PAYEE, amount: "101", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  ({ requestId, paymentReference } = res.body);
});
afterAll(() => setRoutingProviderForTests(undefined));

function useLifi(answer: () => RecordedExchange) {
  const r = replayFetch(answer);
  setRoutingProviderForTests(new LifiRoutingProvider({ baseUrl: "https://li.quest", integrator: "duebill", fetch: r.fetch }));
  return r.calls;
}

const pay = (query: Record<string, string>) =>
  call(payRequest, `/v2/request/${requestId}/pay?${new URLSearchParams(query)}`, {
    headers: { "x-api-key": a.apiKey },
    params: { requestId },
  });

describe("cross-chain through LI.FI", () => {
  it("GET /pay from Arbitrum answers LI.FI's calldata after the approval; the destination call carries the request's reference", async () => {
    const calls = useLifi(() => fixture("lifi", "quote-contract-calls-200"));
    const res = await pay({ wallet: PAYER, chain: "ARBITRUM", token: "USDC" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.metadata).toMatchObject({
      routeType: "crosschain",
      provider: "lifi",
      sourceChain: "ARBITRUM",
      paymentTransactionIndex: 1,
    });
    expect(res.body.transactions).toHaveLength(2);
    expect(res.body.transactions[0].data.startsWith("0x095ea7b3")).toBe(true);
    expect(res.body.transactions[1].to.toLowerCase()).toBe(DIAMOND.toLowerCase());
    expect(typeof res.body.transactions[1].value).toBe("string");
    // What LI.FI was asked: deliver 101 USDC on Base into the fee proxy call with this request's reference.
    const body = calls[0]!.body as { toChain: number; toAmount: string; contractCalls: { toContractCallData: `0x${string}` }[] };
    expect(body).toMatchObject({ toChain: 8453, toAmount: "101000000" });
    const decoded = decodeFunctionData({ abi: erc20FeeProxyAbi, data: body.contractCalls[0]!.toContractCallData });
    expect(decoded.args[1]).toBe(PAYEE);
    expect(decoded.args[3]).toBe(paymentReference);
  });

  it("LI.FI's no-route answer is a 400 naming chain; its rate limit a 503 with Retry-After", async () => {
    useLifi(() => fixture("lifi", "quote-404-unavailable-routes"));
    const none = await pay({ wallet: PAYER, chain: "ARBITRUM", token: "USDC" });
    expect(none.status, JSON.stringify(none.body)).toBe(400);
    expect(none.body.errors[0].field).toBe("chain");

    useLifi(() => fixture("lifi", "quote-429"));
    const limited = await pay({ wallet: PAYER, chain: "ARBITRUM", token: "USDC" });
    expect(limited.status, JSON.stringify(limited.body)).toBe(503);
    expect(limited.headers.get("retry-after")).toBeTruthy();
  });

  it("routes stay available when LI.FI has none: the same-chain route alone", async () => {
    useLifi(() => fixture("lifi", "quote-404-unavailable-routes"));
    const res = await call(getRoutes, `/v2/request/${requestId}/routes?wallet=${PAYER}`, {
      headers: { "x-api-key": a.apiKey },
      params: { requestId },
    });
    expect(res.status).toBe(200);
    expect(res.body.routes.map((r: { id: string }) => r.id)).toEqual(["REQUEST_NETWORK_PAYMENT"]);
  });
});
