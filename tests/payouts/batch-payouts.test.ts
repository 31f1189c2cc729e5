/**
 * POST /v2/secure-payments/batch-payouts merges pending single-payout links into one batch link:
 * the children's requests move to it and the children become invalidated (docs/spec/reference-notes.md §1.6).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { GET as pageView } from "@/app/v2/secure-payments/[token]/route";
import { POST as batchPayouts } from "@/app/v2/secure-payments/batch-payouts/route";
import { POST as createPayoutLink } from "@/app/v2/secure-payments/payouts/route";
import { db } from "@/lib/db";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const CREATOR = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const OTHER_CREATOR = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let b: Awaited<ReturnType<typeof makeIntegrator>>;

beforeEach(async () => {
  await resetDb();
  [a, b] = await Promise.all([makeIntegrator(), makeIntegrator()]);
});

async function payout(who: typeof a, amount: string, over: Record<string, string> = {}) {
  const res = await call(createPayoutLink, "/v2/secure-payments/payouts", {
    method: "POST",
    headers: { "x-api-key": who.apiKey },
    json: {
      recipient: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      creatorWalletAddress: CREATOR,
      network: "base",
      currency: "USDC-base",
      amount,
      ...over,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { token: string; requestIds: string[] };
}

const merge = (who: typeof a, json: unknown) =>
  call(batchPayouts, "/v2/secure-payments/batch-payouts", { method: "POST", headers: { "x-api-key": who.apiKey }, json });
const view = (token: string) => call(pageView, `/v2/secure-payments/${token}`, { params: { token } });

describe("POST /v2/secure-payments/batch-payouts", () => {
  it("merges payouts: the batch link covers every request, the children become invalidated", async () => {
    const [one, two, three] = [await payout(a, "5"), await payout(a, "7.5"), await payout(a, "1")];
    const res = await merge(a, { tokens: [one.token, two.token, three.token], redirectUrl: "https://ops.example/done" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.requestIds).toEqual([...one.requestIds, ...two.requestIds, ...three.requestIds]);
    expect(res.body.securePaymentUrl).toContain(res.body.token);
    const batch = await view(res.body.token);
    expect(batch.body).toMatchObject({ paymentType: "batch", status: "pending", network: "base", amounts: ["5", "7.5", "1"] });
    expect(batch.body.checkout).toMatchObject({ direction: "outgoing", totalAmount: "13.5" });
    for (const child of [one, two, three]) expect((await view(child.token)).body.status).toBe("invalidated");
    // An invalidated child cannot be merged again.
    const again = await merge(a, { tokens: [one.token, (await payout(a, "2")).token] });
    expect(again.status).toBe(400);
    expect(again.body.errors[0].field).toBe("tokens.0");
    const links = await db().securePaymentRequest.findMany({ where: { requestId: { in: one.requestIds } } });
    expect(links.map((l) => l.securePaymentToken)).toEqual([res.body.token]);
  });

  it("refuses another account's links (404), mixed creators, duplicates and a single token (400)", async () => {
    const mine = await payout(a, "5");
    const theirs = await payout(b, "5");
    const foreign = await merge(a, { tokens: [mine.token, theirs.token] });
    expect(foreign.status).toBe(404);
    expect((await view(theirs.token)).body.status).toBe("pending");
    const other = await payout(a, "3", { creatorWalletAddress: OTHER_CREATOR });
    const mixed = await merge(a, { tokens: [mine.token, other.token] });
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors[0].field).toBe("tokens.1");
    expect((await merge(a, { tokens: [mine.token, mine.token] })).body.errors[0].field).toBe("tokens");
    expect((await merge(a, { tokens: [mine.token] })).body.errors[0].field).toBe("tokens");
    // Nothing changed for the refused merges.
    expect((await view(mine.token)).body.status).toBe("pending");
  });
});
