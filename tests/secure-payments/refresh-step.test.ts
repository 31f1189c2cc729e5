/**
 * POST /v2/secure-payments/{token}/refresh-step-transaction: with LI.FI as the routing provider the
 * chosen step comes back with a fresh transaction (LI.FI replayed); without a provider whose steps
 * expire, a 400 saying how to get fresh calldata; unknown links 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as refresh } from "@/app/v2/secure-payments/[token]/refresh-step-transaction/route";
import { POST as createPayoutLink } from "@/app/v2/secure-payments/payouts/route";
import { setRoutingProviderForTests } from "@/lib/routing/index";
import { LifiRoutingProvider } from "@/lib/routing/lifi";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { fixture, replayFetch } from "@/tests/helpers/replay-fetch";

const step = {
  id: "step-1",
  type: "lifi",
  tool: "across",
  action: { toChainId: 8453, toAddress: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" },
};
let token: string;

beforeAll(async () => {
  await resetDb();
  const a = await makeIntegrator();
  const res = await call(createPayoutLink, "/v2/secure-payments/payouts", {
    method: "POST",
    headers: { "x-api-key": a.apiKey },
    json: {
      recipient: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      creatorWalletAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      network: "base",
      currency: "USDC-base",
      amount: "5",
    },
  });
  expect(res.status).toBe(201);
  token = res.body.token;
});
afterAll(() => setRoutingProviderForTests(undefined));

const post = (t: string, json: unknown) =>
  call(refresh, `/v2/secure-payments/${t}/refresh-step-transaction`, { method: "POST", json, params: { token: t } });

describe("POST /v2/secure-payments/{token}/refresh-step-transaction", () => {
  it("with LI.FI: posts the step to /v1/advanced/stepTransaction and answers its fresh transaction", async () => {
    const r = replayFetch(() => fixture("lifi", "quote-contract-calls-200"));
    setRoutingProviderForTests(new LifiRoutingProvider({ baseUrl: "https://li.quest", fetch: r.fetch }));
    const res = await post(token, { step });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(r.calls[0]!.url.toString()).toBe("https://li.quest/v1/advanced/stepTransaction");
    expect(r.calls[0]!.body).toMatchObject(step);
    expect(res.body.transactionRequest).toMatchObject({ to: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), chainId: 42161 });
    expect(res.body.transactionRequest.value).toMatch(/^0x[0-9a-f]+$/);
  });

  it("without a provider whose steps expire: 400 on step saying how to get fresh calldata; unknown link 404; bad step 400", async () => {
    setRoutingProviderForTests(null);
    const res = await post(token, { step });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      field: "step",
      message: expect.stringMatching(/GET \/v2\/secure-payments\/\{token\}\/pay/),
    });
    expect((await post("01NOSUCHLINK", { step })).status).toBe(404);
    const bad = await post(token, { step: { ...step, action: { toChainId: 8453, toAddress: "nope" } } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("step.action.toAddress");
  });
});
