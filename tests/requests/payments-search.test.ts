/** GET /v2/payments: the reference's search over the caller's account only, each filter ANDed, limit/offset pagination. */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as search } from "@/app/v2/payments/route";
import { db } from "@/lib/db";
import { recordTransfer } from "@/lib/detection/record-payment";
import type { PaymentRequest } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";
import { resetDb } from "@/tests/helpers/db";
import { insertPaidRequest, makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let a: Awaited<ReturnType<typeof makeIntegrator>>;
let b: Awaited<ReturnType<typeof makeIntegrator>>;
const PAYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const ids: string[] = [];

beforeAll(async () => {
  await resetDb();
  [a, b] = await Promise.all([makeIntegrator(), makeIntegrator()]);
  // Oldest first: days ago 5, 4, 3, 2, 1.
  for (let i = 0; i < 5; i++)
    ids.push(
      await insertPaidRequest(a.account.id, i % 2 ? "USDT-base" : "USDC-base", BigInt((i + 1) * 1_000_000), 5 - i, {
        reference: `INV-${i}`,
        payer: i === 4 ? PAYER : undefined,
        feeAmount: i === 0 ? 10_000n : 0n,
      }),
    );
  await insertPaidRequest(b.account.id, "USDC-base", 9_000_000n, 1, { reference: "INV-0", payer: PAYER });
});

const get = (query: string, headers: Record<string, string> = { "x-api-key": a.apiKey }) =>
  call(search, `/v2/payments${query}`, { headers });

describe("GET /v2/payments", () => {
  it("lists the account's payments newest first with the reference's shape and pagination", async () => {
    const r = await get("?limit=2");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.pagination).toEqual({ total: 5, limit: 2, offset: 0, hasMore: true });
    expect(r.body.payments.map((p: { request: { reference: string } }) => p.request.reference)).toEqual(["INV-4", "INV-3"]);
    expect(r.body.payments[0]).toMatchObject({
      amount: "5",
      sourceNetwork: "base",
      destinationNetwork: "base",
      type: "direct",
      currency: "USDC",
      paymentCurrency: "USDC",
      fees: [],
      request: { requestId: ids[4], hasBeenPaid: true, reference: "INV-4" },
      payer: PAYER,
    });
    const last = await get("?limit=2&offset=4");
    expect(last.body.pagination).toEqual({ total: 5, limit: 2, offset: 4, hasMore: false });
    expect(last.body.payments[0].fees).toEqual([expect.objectContaining({ type: "platform", amount: "0.01", currency: "USDC" })]);
  });

  it("filters: reference, requestId, wallet, currency, network, dates — and never another account's", async () => {
    const refs = async (q: string) => (await get(q)).body.payments.map((p: { request: { reference: string } }) => p.request.reference);
    expect(await refs("?reference=INV-0")).toEqual(["INV-0"]);
    expect(await refs(`?requestId=${ids[2]}`)).toEqual(["INV-2"]);
    expect(await refs(`?walletAddress=${PAYER.toLowerCase()}`)).toEqual(["INV-4"]);
    expect(await refs("?paymentCurrency=USDT")).toEqual(["INV-3", "INV-1"]);
    expect(await refs("?network=base&invoiceCurrency=USDC-base")).toEqual(["INV-4", "INV-2", "INV-0"]);
    const from = new Date(Date.now() - 3.5 * 86_400_000).toISOString();
    const to = new Date(Date.now() - 1.5 * 86_400_000).toISOString();
    expect(await refs(`?fromDate=${from}&toDate=${to}`)).toEqual(["INV-3", "INV-2"]);
    expect(await refs("?type=crosschain")).toEqual([]);
    const asB = await get("?reference=INV-0", { "x-api-key": b.apiKey });
    expect(asB.body.payments).toHaveLength(1);
    expect(asB.body.payments[0].amount).toBe("9");
  });

  it("a session sees its account's payments; client IDs and no credential are refused", async () => {
    const session = await walletSessionToken(a.account.id, "0x90F79bf6EB2c4f870365E785982E1f101E93b906");
    expect((await get("", { authorization: `Bearer ${session}` })).body.pagination.total).toBe(5);
    expect((await get("", {})).status).toBe(401);
    expect((await get("", { "x-client-id": a.clientId })).status).toBe(403);
  });

  it("bad input is a 400 naming the field", async () => {
    const cases: [string, string][] = [
      ["?limit=0", "limit"],
      ["?limit=101", "limit"],
      ["?limit=abc", "limit"],
      ["?offset=-1", "offset"],
      ["?fromDate=2024-01-01", "fromDate"],
      ["?fromDate=2024-02-01T00:00:00Z&toDate=2024-01-01T00:00:00Z", "toDate"],
      ["?walletAddress=nope", "walletAddress"],
      ["?network=mars", "network"],
      ["?type=teleport", "type"],
    ];
    for (const [q, field] of cases) {
      const r = await get(q);
      expect(r.status, q).toBe(400);
      expect(r.body.errors[0].field, q).toBe(field);
    }
  });
});

describe("GET /v2/payments: edges", () => {
  type Item = { sourceTxHash: string; request: { reference: string; paymentReference: string; requestId: string } };
  const refs = async (q: string) => (await get(q)).body.payments.map((p: Item) => p.request.reference);

  it("defaults to limit 20 offset 0; limit 100 is allowed; an offset past the end is an empty last page", async () => {
    expect((await get("")).body.pagination).toEqual({ total: 5, limit: 20, offset: 0, hasMore: false });
    expect((await get("?limit=100")).body.pagination).toEqual({ total: 5, limit: 100, offset: 0, hasMore: false });
    const exact = await get("?limit=4&offset=0");
    expect(exact.body.pagination.hasMore).toBe(true);
    expect((await get("?limit=1&offset=4")).body.pagination).toEqual({ total: 5, limit: 1, offset: 4, hasMore: false });
    const past = await get("?offset=50");
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ payments: [], pagination: { total: 5, limit: 20, offset: 50, hasMore: false } });
  });

  it("filters by txHash, paymentReference and type; fromDate equal to toDate is allowed", async () => {
    const all = (await get("")).body.payments as Item[];
    const third = all.find((p) => p.request.reference === "INV-2") as Item;
    expect(await refs(`?txHash=${third.sourceTxHash.toUpperCase().replace("0X", "0x")}`)).toEqual(["INV-2"]);
    expect(await refs(`?paymentReference=${third.request.paymentReference}`)).toEqual(["INV-2"]);
    expect(await refs(`?requestId=${third.request.requestId}&reference=INV-3`)).toEqual([]);
    expect(await refs("?type=direct")).toHaveLength(5);
    expect(await refs("?type=recurring")).toEqual([]);
    const day = new Date(Date.now() - 86_400_000 * 10).toISOString();
    expect((await get(`?fromDate=${day}&toDate=${day}`)).status).toBe(200);
    expect(await refs(`?walletAddress=0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC`)).toHaveLength(5);
  });

  it("another account's identifiers find nothing (never a 404 oracle, never its rows)", async () => {
    const theirs = (await get("", { "x-api-key": b.apiKey })).body.payments[0] as Item;
    for (const q of [
      `?requestId=${theirs.request.requestId}`,
      `?paymentReference=${theirs.request.paymentReference}`,
      `?txHash=${theirs.sourceTxHash}`,
    ]) {
      const r = await get(q);
      expect(r.status, q).toBe(200);
      expect(r.body.pagination.total, q).toBe(0);
    }
  });

  it("credentials: the session cookie works; an orchestrator key or a bad bearer does not", async () => {
    const session = await walletSessionToken(a.account.id, "0x90F79bf6EB2c4f870365E785982E1f101E93b906");
    expect((await get("", { cookie: `session_token=${session}` })).body.pagination.total).toBe(5);
    expect((await get("", { "x-orchestrator-key": a.orchestratorKey })).status).toBe(403);
    expect((await get("", { authorization: "Bearer nope" })).status).toBe(401);
    expect((await get("", { "x-api-key": "rk_nope" })).status).toBe(401);
  });

  it("more bad input is a 400 naming the field, never a 500", async () => {
    const cases: [string, string][] = [
      ["?limit=1.5", "limit"],
      ["?limit=", "limit"],
      ["?offset=abc", "offset"],
      ["?offset=99999999999", "offset"],
      ["?toDate=2024-13-01T00:00:00Z", "toDate"],
      ["?fromDate=2024-01-01T00:00:00%2B02:00", "fromDate"],
      [`?reference=${"x".repeat(256)}`, "reference"],
      ["?walletAddress=0x1234", "walletAddress"],
      ["?paymentCurrency=", "paymentCurrency"],
    ];
    for (const [q, field] of cases) {
      const r = await get(q);
      expect(r.status, q).toBe(400);
      expect(r.body.errors[0].field, q).toBe(field);
    }
  });
});

describe("GET /v2/payments: recurring payments are the subscriber's", () => {
  const SUBSCRIBER = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
  const RELAYER = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
  const CONTRACT = "0xa513E6E4b8f2a923D98304ec87F64353C4D5C853";
  const PROXY = "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814";
  const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
  const PAYEE = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

  it("a payment the relayer sent through the recurring contract records the subscriber as payer (found by the subscriber's wallet)", async () => {
    const c = await makeIntegrator();
    const scheduleId = ulid();
    await db().recurringSchedule.create({
      data: {
        id: scheduleId,
        accountId: c.account.id,
        network: "base",
        chainId: 8453,
        contract: CONTRACT.toLowerCase(), // stored case must not matter
        token: USDC,
        invoiceCurrency: "USDC-base",
        paymentCurrency: "USDC-base",
        frequency: "DAILY",
        startDate: new Date(),
        payer: SUBSCRIBER,
        payee: PAYEE,
        amount: "1000000",
        totalPayments: 2,
        dueTimes: [2_000_000_000, 2_000_086_400],
        deadline: 2_002_678_400,
        nonce: "1",
        scheduleId: `0x${"ef".repeat(32)}`,
        status: "active",
      },
    });
    const requests: PaymentRequest[] = [];
    for (const index of [1, 2]) {
      const id = `01${ulid().toLowerCase().padEnd(64, "0")}`;
      requests.push(
        await db().paymentRequest.create({
          data: {
            id,
            accountId: c.account.id,
            kind: "payout",
            network: "base",
            invoiceCurrency: "USDC-base",
            paymentCurrency: "USDC-base",
            tokenAddress: USDC,
            amount: "1",
            expectedAmount: "1000000",
            payee: PAYEE,
            salt: "00",
            paymentReference: `0x${id.slice(2, 18)}`,
            referenceHash: `0x${id.slice(2)}`,
            reference: `REC-${index}`,
            recurringScheduleId: scheduleId,
            recurringIndex: index,
          },
        }),
      );
    }
    const transfer = (i: number, from: string, txTo: string) => ({
      txHash: `0x${String(i).repeat(64)}`,
      logIndex: 0,
      blockNumber: 10n + BigInt(i),
      blockHash: `0x${"0".repeat(64)}`,
      blockTime: new Date(Date.now() - i * 60_000),
      proxyAddress: PROXY,
      tokenAddress: USDC,
      to: PAYEE,
      amount: 1_000_000n,
      referenceHash: requests[i - 1]!.referenceHash,
      feeAmount: 0n,
      feeAddress: null,
      from,
      txTo,
    });
    // Payment 1: triggered by the relayer through the contract. Payment 2: the subscriber paid it
    // straight through the fee proxy (the sender is then the payer as always).
    expect(await recordTransfer(requests[0]!, transfer(1, RELAYER, CONTRACT))).toBe("recorded");
    expect(await recordTransfer(requests[1]!, transfer(2, SUBSCRIBER, PROXY))).toBe("recorded");

    const asC = (q: string) => get(q, { "x-api-key": c.apiKey });
    const bySubscriber = await asC(`?walletAddress=${SUBSCRIBER.toLowerCase()}`);
    expect(
      bySubscriber.body.payments.map((p: { request: { reference: string }; payer: string }) => [p.request.reference, p.payer]),
    ).toEqual([
      ["REC-1", SUBSCRIBER],
      ["REC-2", SUBSCRIBER],
    ]);
    expect((await asC(`?walletAddress=${RELAYER}`)).body.pagination.total).toBe(0);
  });
});
