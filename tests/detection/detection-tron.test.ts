import { beforeEach, describe, expect, it } from "vitest";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { db } from "@/lib/db";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import type { PaymentEventSource, TransferEvent } from "@/lib/detection/types";
import { referenceTopic } from "@/lib/payments/reference";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const PAYEE = "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW";
const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const PROXY = "TCUDPYnS9dH3WvFEaE7wN7vnDa51J4R4fd";

/** A Tron event source fed by the test, as a TronGrid-backed one would be by the network. */
function fakeTronSource() {
  const events: TransferEvent[] = [];
  let head = 100n;
  const source: PaymentEventSource = {
    network: "tron",
    finalizedHead: async () => head,
    startBlock: async () => 90n,
    transfers: async (from, to) => events.filter((e) => e.blockNumber >= from && e.blockNumber <= to),
  };
  return {
    source,
    emit(e: Partial<TransferEvent> & { referenceHash: string; amount: bigint; blockNumber: bigint }) {
      events.push({
        txHash: `tx${events.length}`,
        logIndex: 0,
        blockHash: `b${e.blockNumber}`,
        blockTime: new Date("2026-11-22T12:00:00Z"),
        proxyAddress: PROXY,
        tokenAddress: USDT,
        to: PAYEE,
        feeAmount: 0n,
        feeAddress: null,
        from: "TPayer1111111111111111111111111111",
        ...e,
      });
    },
    setHead(h: bigint) {
      head = h;
    },
  };
}

let a: Awaited<ReturnType<typeof makeIntegrator>>;
beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
});

async function newTronPayout(amount = "10", fee: { feePercentage?: string; feeAddress?: string } = {}) {
  const res = await call(createPayout, "/v2/payouts", {
    method: "POST",
    headers: { "x-api-key": a.apiKey },
    json: { payee: PAYEE, amount, invoiceCurrency: "USDT-tron", paymentCurrency: "USDT-tron", ...fee },
  });
  expect(res.status).toBe(201);
  return res.body as { requestId: string; paymentReference: string };
}

describe("Tron detection through the event-source interface", () => {
  it("tracks partial payments, marks the request paid once, and writes one payment.confirmed", async () => {
    const p = await newTronPayout("10");
    const fake = fakeTronSource();
    const ref = referenceTopic(p.paymentReference);
    fake.emit({ referenceHash: ref, amount: 4_000_000n, blockNumber: 95n });
    let r = await sweepDetectionNetwork(fake.source);
    expect(r).toMatchObject({ recorded: 1, fromBlock: "90", toBlock: "100" });
    let status = await call(getRequest, `/v2/request/${p.requestId}`, {
      headers: { "x-api-key": a.apiKey },
      params: { requestId: p.requestId },
    });
    expect(status.body).toMatchObject({ status: "partially_paid", hasBeenPaid: false, totalAmountPaid: "4" });

    fake.emit({ referenceHash: ref, amount: 6_000_000n, blockNumber: 105n, txHash: "txFinal" });
    fake.setHead(110n);
    r = await sweepDetectionNetwork(fake.source);
    expect(r).toMatchObject({ recorded: 1, fromBlock: "101" });
    status = await call(getRequest, `/v2/request/${p.requestId}`, {
      headers: { "x-api-key": a.apiKey },
      params: { requestId: p.requestId },
    });
    expect(status.body).toMatchObject({ status: "paid", hasBeenPaid: true, isListening: false, totalAmountPaid: "10", txHash: "txFinal" });
    expect(status.body.payments).toHaveLength(2);
    const events = await db().outboxEvent.findMany();
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.payload)).toMatchObject({
      event: "payment.confirmed",
      requestId: p.requestId,
      requestID: p.requestId,
      amount: "6",
      totalAmountPaid: "10",
      expectedAmount: "10",
      network: "tron",
      txHash: "txFinal",
    });
  });

  it("counts a re-scanned event once", async () => {
    const p = await newTronPayout("10");
    const fake = fakeTronSource();
    fake.emit({ referenceHash: referenceTopic(p.paymentReference), amount: 10_000_000n, blockNumber: 95n });
    await sweepDetectionNetwork(fake.source);
    await db().chainCursor.update({ where: { network: "tron" }, data: { lastBlock: 80n } }); // rewind: a reorg-window re-scan
    const again = await sweepDetectionNetwork(fake.source);
    expect(again).toMatchObject({ recorded: 0, duplicates: 1 });
    const row = await db().paymentRequest.findUniqueOrThrow({ where: { id: p.requestId } });
    expect(row.amountPaid.toFixed()).toBe("10000000");
    expect(await db().outboxEvent.count()).toBe(1);
  });

  it("ignores a transfer of another token or to another address carrying the reference", async () => {
    const p = await newTronPayout("10");
    const fake = fakeTronSource();
    const ref = referenceTopic(p.paymentReference);
    fake.emit({ referenceHash: ref, amount: 10_000_000n, blockNumber: 95n, tokenAddress: "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8" });
    fake.emit({ referenceHash: ref, amount: 10_000_000n, blockNumber: 96n, to: USDT });
    const r = await sweepDetectionNetwork(fake.source);
    expect(r).toMatchObject({ recorded: 0, ignored: 2 });
    expect((await db().paymentRequest.findUniqueOrThrow({ where: { id: p.requestId } })).status).toBe("pending");
  });

  it("a Tron payment without its fee leaves the request fee_short; a fee-only transfer to the fee address completes it", async () => {
    const FEE_TO = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";
    const p = await newTronPayout("10", { feePercentage: "2.5", feeAddress: FEE_TO });
    const fake = fakeTronSource();
    const ref = referenceTopic(p.paymentReference);
    const view = () =>
      call(getRequest, `/v2/request/${p.requestId}`, { headers: { "x-api-key": a.apiKey }, params: { requestId: p.requestId } });
    // The whole amount, the fee (2.5 % of 10 = 0.25) to another address.
    fake.emit({ referenceHash: ref, amount: 10_000_000n, blockNumber: 95n, feeAmount: 250_000n, feeAddress: PAYEE });
    await sweepDetectionNetwork(fake.source);
    expect((await view()).body).toMatchObject({
      status: "partially_paid",
      subStatus: "fee_short",
      missingFees: [{ type: "platform", feeAddress: FEE_TO, amount: "0.25", currency: "USDT" }],
    });
    expect((await db().outboxEvent.findMany()).map((e) => e.type)).toEqual(["payment.partial"]);
    // Amount 0 plus the fee, to the fee address.
    fake.emit({ referenceHash: ref, amount: 0n, blockNumber: 105n, txHash: "txFee", feeAmount: 250_000n, feeAddress: FEE_TO });
    fake.setHead(110n);
    await sweepDetectionNetwork(fake.source);
    expect((await view()).body).toMatchObject({ status: "paid", hasBeenPaid: true, subStatus: null, missingFees: null });
    expect((await db().outboxEvent.findMany({ orderBy: { createdAt: "asc" } })).map((e) => e.type)).toEqual([
      "payment.partial",
      "payment.confirmed",
    ]);
  });
});
