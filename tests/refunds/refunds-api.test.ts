/**
 * The refund operations against a real Postgres, without a chain: payments and refunds arrive as
 * the detection sweep hands them over (TransferEvent objects), on Base (no RPC configured in tests,
 * so no allowance is read and the approval is always included).
 */
import { decodeFunctionData, erc20Abi, parseAbi } from "viem";
import { beforeEach, describe, expect, it } from "vitest";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { POST as cancel } from "@/app/v2/request/[requestId]/refunds/[refundId]/cancel/route";
import { GET as getOne } from "@/app/v2/request/[requestId]/refunds/[refundId]/route";
import { POST as sent } from "@/app/v2/request/[requestId]/refunds/[refundId]/sent/route";
import { POST as createRefund, GET as listRefunds } from "@/app/v2/request/[requestId]/refunds/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { db } from "@/lib/db";
import { recordTransfer } from "@/lib/detection/record-payment";
import type { TransferEvent } from "@/lib/detection/types";
import { CONTRACT_WARNING, EXCHANGE_WARNING, recordRefundTransfer } from "@/lib/refunds";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const PAYEE = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const PAYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const OTHER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const FEE = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const FEE_PROXY_ABI = parseAbi([
  "function transferFromWithReferenceAndFee(address _tokenAddress, address _to, uint256 _amount, bytes _paymentReference, uint256 _feeAmount, address _feeAddress)",
]);

type Integrator = Awaited<ReturnType<typeof makeIntegrator>>;
let a: Integrator;
let b: Integrator;
let n = 0;

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  b = await makeIntegrator();
});

const key = (who: Integrator) => ({ "x-api-key": who.apiKey });

async function newRequest(amount = "10", extra: Record<string, unknown> = {}) {
  const res = await call(createRequest, "/v2/request", {
    method: "POST",
    headers: key(a),
    json: { amount, invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base", payee: PAYEE, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return db().paymentRequest.findUniqueOrThrow({ where: { id: res.body.requestId } });
}

function transfer(e: Partial<TransferEvent> & { referenceHash: string; amount: bigint }): TransferEvent {
  n += 1;
  return {
    txHash: `0x${n.toString(16).padStart(64, "0")}`,
    logIndex: 0,
    blockNumber: BigInt(100 + n),
    blockHash: `0x${"b".repeat(62)}${n.toString(16).padStart(2, "0")}`,
    blockTime: new Date("2026-11-27T10:00:00Z"),
    proxyAddress: "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814",
    tokenAddress: USDC_BASE,
    to: PAYEE,
    feeAmount: 0n,
    feeAddress: null,
    from: PAYER,
    ...e,
  };
}

/** A request paid `units` (USDC base units) by PAYER, as detection records it. */
async function paidRequest(units = 10_000_000n, extra: Record<string, unknown> = {}, fee = 0n) {
  const r = await newRequest((Number(units) / 1e6).toString(), extra);
  expect(
    await recordTransfer(r, transfer({ referenceHash: r.referenceHash, amount: units, feeAmount: fee, feeAddress: fee ? FEE : null })),
  ).toBe("recorded");
  return db().paymentRequest.findUniqueOrThrow({ where: { id: r.id } });
}

const refund = (requestId: string, json?: unknown, who = a) =>
  call(createRefund, `/v2/request/${requestId}/refunds`, {
    method: "POST",
    headers: key(who),
    params: { requestId },
    ...(json === undefined ? {} : { json }),
  });
const list = (requestId: string, who = a) =>
  call(listRefunds, `/v2/request/${requestId}/refunds`, { headers: key(who), params: { requestId } });
const status = (requestId: string) => call(getRequest, `/v2/request/${requestId}`, { headers: key(a), params: { requestId } });
const markSent = (requestId: string, refundId: string, txHash: unknown, who = a) =>
  call(sent, `/v2/request/${requestId}/refunds/${refundId}/sent`, {
    method: "POST",
    headers: key(who),
    params: { requestId, refundId },
    json: { txHash },
  });
const cancelOne = (requestId: string, refundId: string, who = a) =>
  call(cancel, `/v2/request/${requestId}/refunds/${refundId}/cancel`, {
    method: "POST",
    headers: key(who),
    params: { requestId, refundId },
  });
const field = (res: { body: { errors?: { field: string }[] } }) => res.body.errors?.[0]?.field;

describe("POST /v2/request/{requestId}/refunds", () => {
  it("prepares a full refund to the payer by default: approve, then the fee proxy under the refund reference, fee kept", async () => {
    const r = await paidRequest(10_000_000n, { feePercentage: "1", feeAddress: FEE }, 100_000n);
    const res = await refund(r.id);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.refund).toMatchObject({
      requestId: r.id,
      status: "prepared",
      reason: "requested",
      sender: "payee",
      amount: "10",
      currency: "USDC-base",
      network: "base",
      toAddress: PAYER,
      warning: null,
      txHash: null,
    });
    expect(res.body.refund.id).toMatch(/^rfd_/);
    expect(res.body.metadata).toMatchObject({
      wallet: PAYEE,
      feeKept: "0.1",
      refundable: "0",
      warning: null,
      needsApproval: true,
      stepsRequired: 2,
      approvalTransactionIndex: 0,
      paymentTransactionIndex: 1,
    });
    const [approve, pay] = res.body.transactions;
    expect(approve.to).toBe(USDC_BASE);
    expect(decodeFunctionData({ abi: erc20Abi, data: approve.data }).args).toEqual([
      "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814",
      10_000_000n,
    ]);
    expect(pay.to).toBe("0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814");
    const decoded = decodeFunctionData({ abi: FEE_PROXY_ABI, data: pay.data });
    expect(decoded.args).toEqual([
      USDC_BASE,
      PAYER,
      10_000_000n,
      res.body.refund.refundReference,
      0n,
      "0x0000000000000000000000000000000000000000",
    ]);
    expect(await db().refund.count()).toBe(1);
  });

  it("takes partial refunds up to what the payee received, and refuses more with 400 naming amount", async () => {
    const r = await paidRequest(10_000_000n);
    expect((await refund(r.id, { amount: "4" })).body.metadata.refundable).toBe("6");
    const over = await refund(r.id, { amount: "6.000001" });
    expect(over.status).toBe(400);
    expect(field(over)).toBe("amount");
    expect(over.body.errors[0].message).toContain("6 USDC");
    expect((await refund(r.id, { amount: "6" })).status).toBe(201);
    const none = await refund(r.id);
    expect(none.status).toBe(400);
    expect(field(none)).toBe("amount");
    expect(none.body.errors[0].message).toBe("nothing is left to refund on this request");
  });

  it.each([
    ["0", "amount"],
    ["-1", "amount"],
    ["1e3", "amount"],
    ["1.0000001", "amount"],
    ["abc", "amount"],
    [5, "amount"],
  ])("refuses amount %j with 400 naming %s", async (amount, f) => {
    const r = await paidRequest();
    const res = await refund(r.id, { amount });
    expect(res.status).toBe(400);
    expect(field(res)).toBe(f);
    expect(await db().refund.count()).toBe(0);
  });

  it.each([
    ["not an address", "to"],
    ["TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW", "to"],
    [PAYEE, "to"],
    ["0x0000000000000000000000000000000000000000", "to"],
    ["0x70997970c51812dc3a010c7d01b50e0d17dc79C8", "to"],
  ])("refuses to %s with 400 naming to", async (to, f) => {
    const r = await paidRequest();
    const res = await refund(r.id, { to });
    expect(res.status).toBe(400);
    expect(field(res)).toBe(f);
  });

  it("refuses a bad wallet and unknown fields with 400 naming them", async () => {
    const r = await paidRequest();
    expect(field(await refund(r.id, { wallet: "0x123" }))).toBe("wallet");
    expect(field(await refund(r.id, { amount: "1", fee: "0" }))).toBe("fee");
  });

  it("warns when the refund goes elsewhere than the payer, and stores the warning", async () => {
    const r = await paidRequest();
    const res = await refund(r.id, { amount: "1", to: OTHER });
    expect(res.status).toBe(201);
    expect(res.body.refund.warning).toBe(EXCHANGE_WARNING);
    expect(res.body.metadata.warning).toBe(EXCHANGE_WARNING);
    expect((await db().refund.findFirstOrThrow()).warning).toBe(EXCHANGE_WARNING);
    expect(CONTRACT_WARNING).toContain("contract");
    // The payer's own address, spelled in lowercase, is the payer: no warning.
    const own = await refund(r.id, { amount: "1", to: PAYER.toLowerCase() });
    expect(own.body.refund).toMatchObject({ toAddress: PAYER, warning: null });
  });

  it("needs `to` when the payer is not known", async () => {
    const r = await paidRequest();
    await db().paymentRequest.update({ where: { id: r.id }, data: { payer: null } });
    await db().payment.updateMany({ where: { requestId: r.id }, data: { payer: null } });
    const res = await refund(r.id);
    expect(res.status).toBe(400);
    expect(field(res)).toBe("to");
    expect((await refund(r.id, { to: OTHER })).body.refund.warning).toBe(EXCHANGE_WARNING);
  });

  it("refuses an unpaid request and a payout with 409", async () => {
    const unpaid = await newRequest();
    const res = await refund(unpaid.id, { amount: "1" });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/Nothing has been paid/);
    const payout = await call(createPayout, "/v2/payouts", {
      method: "POST",
      headers: key(a),
      json: { payee: PAYEE, amount: "1", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base" },
    });
    const p = await refund(payout.body.requestId);
    expect(p.status).toBe(409);
    expect(p.body.message).toMatch(/payout/);
  });

  it("answers 404 for another account's request and refund, and leaves them as they were", async () => {
    const r = await paidRequest();
    const mine = await refund(r.id, { amount: "1" });
    const refundId = mine.body.refund.id as string;
    expect((await refund(r.id, { amount: "1" }, b)).status).toBe(404);
    expect((await list(r.id, b)).status).toBe(404);
    expect((await markSent(r.id, refundId, `0x${"ab".repeat(32)}`, b)).status).toBe(404);
    expect((await cancelOne(r.id, refundId, b)).status).toBe(404);
    expect(
      (await call(getOne, `/v2/request/${r.id}/refunds/${refundId}`, { headers: key(b), params: { requestId: r.id, refundId } })).status,
    ).toBe(404);
    // A's refund under another of A's requests is not found either.
    const other = await paidRequest();
    expect((await cancelOne(other.id, refundId)).status).toBe(404);
    expect((await db().refund.findUniqueOrThrow({ where: { id: refundId } })).status).toBe("prepared");
    expect(await db().refund.count()).toBe(1);
  });

  it("replays an Idempotency-Key: one refund for two calls", async () => {
    const r = await paidRequest();
    const headers = { ...key(a), "idempotency-key": "refund-1" };
    const send = () =>
      call(createRefund, `/v2/request/${r.id}/refunds`, { method: "POST", headers, params: { requestId: r.id }, json: { amount: "2" } });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.refund.id).toBe(first.body.refund.id);
    expect(await db().refund.count()).toBe(1);
  });

  it("never lets concurrent refunds take more than remains", async () => {
    const r = await paidRequest(10_000_000n);
    const results = await Promise.all(Array.from({ length: 6 }, () => refund(r.id, { amount: "3" })));
    expect(results.filter((x) => x.status === 201)).toHaveLength(3);
    expect(results.filter((x) => x.status === 400).every((x) => field(x) === "amount")).toBe(true);
  });
});

describe("sent, cancel, list and detection", () => {
  it("cancel frees the amount; a cancelled refund cannot be sent; a confirmed one cannot be cancelled", async () => {
    const r = await paidRequest(10_000_000n);
    const first = await refund(r.id);
    expect((await refund(r.id, { amount: "1" })).status).toBe(400);
    const id = first.body.refund.id as string;
    const c = await cancelOne(r.id, id);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ id, status: "cancelled" });
    expect(c.body.cancelledAt).not.toBeNull();
    expect((await cancelOne(r.id, id)).body.status).toBe("cancelled");
    expect((await markSent(r.id, id, `0x${"ab".repeat(32)}`)).status).toBe(409);
    const again = await refund(r.id, { amount: "10" });
    expect(again.status).toBe(201);
    const refundId = again.body.refund.id as string;
    const ev = transfer({
      referenceHash: (await db().refund.findUniqueOrThrow({ where: { id: refundId } })).referenceHash,
      amount: 10_000_000n,
      to: PAYER,
      from: PAYEE,
    });
    expect(await recordRefundTransfer(r, ev)).toBe("recorded");
    expect((await cancelOne(r.id, refundId)).status).toBe(409);
  });

  it("sent takes the wallet's hash (400 naming txHash when malformed), and detection confirms the row it names", async () => {
    const r = await paidRequest(10_000_000n);
    const one = (await refund(r.id, { amount: "3" })).body.refund;
    const two = (await refund(r.id, { amount: "3" })).body.refund;
    for (const bad of ["0x12", "ab".repeat(32), 42, ""]) {
      const res = await markSent(r.id, one.id, bad);
      expect(res.status, String(bad)).toBe(400);
      expect(field(res)).toBe("txHash");
    }
    const hash = `0x${"AB".repeat(32)}`;
    const s = await markSent(r.id, two.id, hash);
    expect(s.body).toMatchObject({ id: two.id, status: "sent", txHash: hash.toLowerCase() });
    expect((await markSent(r.id, two.id, hash)).body.sentAt).toBe(s.body.sentAt);
    // The transfer of `two`'s transaction confirms `two`, although `one` is older and of the same amount.
    const ev = transfer({
      referenceHash: (await db().refund.findUniqueOrThrow({ where: { id: two.id } })).referenceHash,
      amount: 3_000_000n,
      to: PAYER,
      from: PAYEE,
      txHash: hash.toLowerCase(),
    });
    expect(await recordRefundTransfer(r, ev)).toBe("recorded");
    expect(await recordRefundTransfer(r, ev)).toBe("duplicate");
    const rows = await db().refund.findMany({ orderBy: { createdAt: "asc" } });
    expect(rows.map((x) => x.status)).toEqual(["prepared", "confirmed"]);
    expect((await markSent(r.id, two.id, `0x${"cd".repeat(32)}`)).status).toBe(409);
    expect((await markSent(r.id, two.id, hash)).status).toBe(200);

    const l = await list(r.id);
    expect(l.body).toMatchObject({
      refundedAmount: "3",
      returnedAmount: "0",
      refundableAmount: "4",
      refundStatus: "partially_refunded",
      feeKept: "0",
    });
    expect(l.body.refunds.map((x: { id: string }) => x.id)).toEqual([one.id, two.id]);
    const st = await status(r.id);
    expect(st.body).toMatchObject({ status: "paid", refundedAmount: "3", refundStatus: "partially_refunded", refundableAmount: "4" });
    expect(st.body.refunds[1]).toMatchObject({ status: "confirmed", txHash: hash.toLowerCase(), amount: "3" });
    const one2 = await call(getOne, `/v2/request/${r.id}/refunds/${one.id}`, {
      headers: key(a),
      params: { requestId: r.id, refundId: one.id },
    });
    expect(one2.body.transactions).toHaveLength(2);
    const two2 = await call(getOne, `/v2/request/${r.id}/refunds/${two.id}`, {
      headers: key(a),
      params: { requestId: r.id, refundId: two.id },
    });
    expect(two2.body).toMatchObject({ transactions: [], metadata: null, refund: { status: "confirmed" } });
  });

  it("a transfer nobody prepared (the same calldata sent twice) is recorded as the chain shows it", async () => {
    const r = await paidRequest(10_000_000n);
    const one = (await refund(r.id, { amount: "4" })).body.refund;
    const ref = (await db().refund.findUniqueOrThrow({ where: { id: one.id } })).referenceHash;
    expect(await recordRefundTransfer(r, transfer({ referenceHash: ref, amount: 4_000_000n, to: PAYER, from: PAYEE }))).toBe("recorded");
    expect(await recordRefundTransfer(r, transfer({ referenceHash: ref, amount: 4_000_000n, to: PAYER, from: PAYEE }))).toBe("recorded");
    // Another token or another address under the reference is not a refund.
    expect(await recordRefundTransfer(r, transfer({ referenceHash: ref, amount: 1n, to: PAYER, tokenAddress: OTHER }))).toBe("ignored");
    expect(await recordRefundTransfer(r, transfer({ referenceHash: ref, amount: 1n, to: OTHER }))).toBe("ignored");
    const rows = await db().refund.findMany({ orderBy: { createdAt: "asc" } });
    expect(rows.map((x) => [x.status, x.amount.toFixed(), x.sender])).toEqual([
      ["confirmed", "4000000", "payee"],
      ["confirmed", "4000000", "payee"],
    ]);
    const req = await db().paymentRequest.findUniqueOrThrow({ where: { id: r.id } });
    expect(req.amountRefunded.toFixed()).toBe("8000000");
    expect((await list(r.id)).body.refundableAmount).toBe("2");
    const events = await db().outboxEvent.findMany({ where: { type: "payment.refunded" }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => JSON.parse(e.payload).refundedAmount)).toEqual(["4", "8"]);
  });
});
