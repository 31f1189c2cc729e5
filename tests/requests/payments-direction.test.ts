/**
 * Money in and money out, apart (issue 27): a payment's direction is its request's kind — a
 * request of the account (incoming) or a payout it made (outgoing, recurring payouts included) —
 * in the overview's totals, chart and counts, and in GET /v2/payments (`direction` filter).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as search } from "@/app/v2/payments/route";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { db } from "@/lib/db";
import { recordTransfer } from "@/lib/detection/record-payment";
import { directionOf, isDirection, kindOf } from "@/lib/payments/direction";
import { accountOverview, recentPayments } from "@/lib/requests/account-overview";
import { resetDb } from "@/tests/helpers/db";
import { insertPaidRequest, makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const MERCHANT = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const SUPPLIER = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const CUSTOMER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PROXY = "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814";

let a: Awaited<ReturnType<typeof makeIntegrator>>;
let b: Awaited<ReturnType<typeof makeIntegrator>>;
let incomingId: string;
let outgoingId: string;

/** Pays a request as detection records it: one TransferWithReferenceAndFee to its payee. */
async function pay(requestId: string, units: bigint, from: string, n: number) {
  const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
  const result = await recordTransfer(request, {
    txHash: `0x${n.toString(16).padStart(64, "0")}`,
    logIndex: 0,
    blockNumber: BigInt(n),
    blockHash: `0x${"0".repeat(64)}`,
    blockTime: new Date(),
    proxyAddress: PROXY,
    tokenAddress: USDC,
    to: request.payee,
    amount: units,
    referenceHash: request.referenceHash,
    feeAmount: 0n,
    feeAddress: null,
    from,
  });
  expect(result).toBe("recorded");
}

beforeAll(async () => {
  await resetDb();
  [a, b] = await Promise.all([makeIntegrator(), makeIntegrator()]);
  const headers = { "x-api-key": a.apiKey };
  // Money in: a request of the account, paid by a customer.
  const req = await call(createRequest, "/v2/request", {
    method: "POST",
    headers,
    json: { payee: MERCHANT, amount: "12.5", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base", reference: "IN-1" },
  });
  expect(req.status, JSON.stringify(req.body)).toBe(201);
  incomingId = req.body.requestId;
  await pay(incomingId, 12_500_000n, CUSTOMER, 1);
  // Money out: a payout the account makes to a supplier, paid from the merchant's wallet.
  const out = await call(createPayout, "/v2/payouts", {
    method: "POST",
    headers,
    json: { payee: SUPPLIER, amount: "4", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base", reference: "OUT-1" },
  });
  expect(out.status, JSON.stringify(out.body)).toBe(201);
  outgoingId = out.body.requestId;
  await pay(outgoingId, 4_000_000n, MERCHANT, 2);
  // An older outgoing payment on another token (the rollup keeps days, currencies and kinds apart).
  await insertPaidRequest(a.account.id, "USDT-base", 1_000_000n, 2, { kind: "payout", reference: "OUT-2" });
  // Another account's money in: never in a's numbers.
  await insertPaidRequest(b.account.id, "USDC-base", 9_000_000n, 0, { reference: "B-IN" });
});

describe("direction of a payment", () => {
  it("is the request's kind: request → incoming, payout → outgoing; and back", () => {
    expect(directionOf("request")).toBe("incoming");
    expect(directionOf("payout")).toBe("outgoing");
    expect(kindOf("incoming")).toBe("request");
    expect(kindOf("outgoing")).toBe("payout");
    expect(isDirection("incoming")).toBe(true);
    expect(isDirection("Incoming")).toBe(false);
    expect(isDirection("refund")).toBe(false);
  });
});

describe("overview: money in and money out apart", () => {
  it("totals per direction, currency and network; a payout is never in what was received", async () => {
    const o = await accountOverview(a.account.id);
    expect(o.incoming).toEqual([
      {
        direction: "incoming",
        network: "base",
        networkName: "Base",
        currency: "USDC-base",
        symbol: "USDC",
        count: 1,
        amount: "12.5",
        gross: "12.5",
        refunded: "0",
        refundCount: 0,
      },
    ]);
    expect(o.outgoing).toEqual([
      {
        direction: "outgoing",
        network: "base",
        networkName: "Base",
        currency: "USDC-base",
        symbol: "USDC",
        count: 1,
        amount: "4",
        gross: "4",
        refunded: "0",
        refundCount: 0,
      },
      {
        direction: "outgoing",
        network: "base",
        networkName: "Base",
        currency: "USDT-base",
        symbol: "USDT",
        count: 1,
        amount: "1",
        gross: "1",
        refunded: "0",
        refundCount: 0,
      },
    ]);
    expect(o.requests.paid).toBe(1);
    expect(o.payouts.paid).toBe(2);
  });

  it("the chart's days keep each direction's count and amounts apart", async () => {
    const o = await accountOverview(a.account.id);
    expect(o.days.at(-1)).toEqual({
      day: new Date().toISOString().slice(0, 10),
      incoming: { count: 1, amounts: { "USDC-base": "12.5" } },
      outgoing: { count: 1, amounts: { "USDC-base": "4" } },
    });
    expect(o.days.at(-3)?.outgoing).toEqual({ count: 1, amounts: { "USDT-base": "1" } });
    expect(o.days.reduce((s, d) => s + d.incoming.count, 0)).toBe(1);
    expect(o.days.reduce((s, d) => s + d.outgoing.count, 0)).toBe(2);
  });

  it("recent payments say which way each moved", async () => {
    const recent = await recentPayments(a.account.id);
    expect(recent.map((p) => [p.reference, p.direction])).toEqual([
      ["OUT-1", "outgoing"],
      ["IN-1", "incoming"],
      ["OUT-2", "outgoing"],
    ]);
  });

  it("the rollup equals the payments' sums per day, network, currency and kind", async () => {
    const fromPayments = await db().$queryRaw`
      SELECT pr."accountId", p."blockTime"::date::text AS day, pr."network", pr."paymentCurrency" AS currency, pr."kind"::text AS kind,
             count(*)::int AS count, sum(p."amount")::text AS amount
      FROM "Payment" p JOIN "PaymentRequest" pr ON pr."id" = p."requestId" GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`;
    const rollup = await db().$queryRaw`
      SELECT "accountId", "day"::text AS day, "network", "currency", "kind"::text AS kind, "count", "amount"::text AS amount
      FROM "PaymentDaily" ORDER BY 1, 2, 3, 4, 5`;
    expect(rollup).toEqual(fromPayments);
  });
});

describe("GET /v2/payments?direction=", () => {
  const get = (q: string, key = a.apiKey) => call(search, `/v2/payments${q}`, { headers: { "x-api-key": key } });
  const refs = async (q: string) =>
    (await get(q)).body.payments.map((p: { request: { reference: string }; direction: string }) => [p.request.reference, p.direction]);

  it("every payment carries its direction; the filter keeps one direction (the count too)", async () => {
    expect(await refs("")).toEqual([
      ["OUT-1", "outgoing"],
      ["IN-1", "incoming"],
      ["OUT-2", "outgoing"],
    ]);
    const incoming = await get("?direction=incoming");
    expect(incoming.body.payments.map((p: { request: { requestId: string } }) => p.request.requestId)).toEqual([incomingId]);
    expect(incoming.body.pagination).toEqual({ total: 1, limit: 20, offset: 0, hasMore: false });
    const outgoing = await get("?direction=outgoing&limit=1");
    expect(outgoing.body.payments[0].request.requestId).toBe(outgoingId);
    expect(outgoing.body.pagination).toEqual({ total: 2, limit: 1, offset: 0, hasMore: true });
  });

  it("combines with the other filters (ANDed) and never shows another account's", async () => {
    expect(await refs("?direction=outgoing&paymentCurrency=USDT")).toEqual([["OUT-2", "outgoing"]]);
    expect(await refs("?direction=incoming&paymentCurrency=USDT")).toEqual([]);
    expect((await get("?direction=outgoing&paymentCurrency=USDT")).body.pagination.total).toBe(1);
    expect(await refs(`?direction=outgoing&walletAddress=${SUPPLIER}`)).toEqual([["OUT-1", "outgoing"]]);
    const asB = await get("?direction=outgoing", b.apiKey);
    expect(asB.body.pagination.total).toBe(0);
    expect((await get("?direction=incoming", b.apiKey)).body.pagination.total).toBe(1);
  });

  it("a bad direction is a 400 naming `direction`", async () => {
    for (const bad of ["in", "INCOMING", "refund", "", "incoming,outgoing"]) {
      const r = await get(`?direction=${encodeURIComponent(bad)}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.errors[0].field, bad).toBe("direction");
    }
  });
});
