/**
 * Wrong amounts paid from a wallet (no chain: transfers fed to detection's recordTransfer as it
 * records them): labelled exact / over / under / late with Request Network's `excessAmount`, in
 * GET /v2/request, the link views and the payment webhooks; offered to the payee as a prepared refund
 * under the link's (else the account's) policy, once per cause; a late payment is recorded but its
 * link stays expired. The label rule itself on fixed cases first. Deposit addresses: tests/deposits.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { GET as searchPayments } from "@/app/v2/payments/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { GET as pageView } from "@/app/v2/secure-payments/[token]/route";
import { POST as createLink, GET as getSecurePayment } from "@/app/v2/secure-payments/route";
import { setAccountExcessPolicy } from "@/lib/accounts/excess-policy";
import { db } from "@/lib/db";
import { recordTransfer } from "@/lib/detection/record-payment";
import type { ExcessPolicy } from "@/lib/generated/prisma/client";
import { type LabelFacts, linkWrongAmount, wrongAmountOf } from "@/lib/refunds/labels";
import { offerUnderpaidOfExpiredLinks } from "@/lib/refunds/offer";
import { expireAndReconcileSecurePayments, settleSecurePayments } from "@/lib/secure-payments/settle";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const MERCHANT = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const CUSTOMER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const OTHER = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PROXY = "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814";
const HOUR = 3_600_000;

describe("the label rule", () => {
  const at = new Date("2026-06-01T12:00:00Z");
  const before = new Date(at.getTime() - 2 * HOUR);
  const expiry = new Date(at.getTime() - HOUR);
  const base: LabelFacts = { expected: 10n, paid: 0n, payments: [], link: null, depositLate: 0n, returns: [] };
  const paid = (amount: bigint, blockTime = before, depositAddress: string | null = null) => ({ amount, blockTime, depositAddress });
  const cases: [string, Partial<LabelFacts>, string | null, bigint][] = [
    ["nothing paid", {}, null, 0n],
    ["paid exactly", { paid: 10n, payments: [paid(10n)] }, "exact", 0n],
    ["paid more", { paid: 12n, payments: [paid(12n)] }, "over", 2n],
    ["paid in part, no link (it never closes)", { paid: 4n, payments: [paid(4n)] }, null, 0n],
    [
      "paid in part, link still open",
      { paid: 4n, payments: [paid(4n)], link: { status: "pending", expiresAt: new Date(at.getTime() + HOUR) } },
      null,
      0n,
    ],
    ["paid in part, link expired", { paid: 4n, payments: [paid(4n)], link: { status: "expired", expiresAt: expiry } }, "under", 0n],
    ["paid after the link expired", { paid: 10n, payments: [paid(10n, at)], link: { status: "expired", expiresAt: expiry } }, "late", 0n],
    [
      "paid late, the link not swept yet",
      { paid: 10n, payments: [paid(10n, at)], link: { status: "pending", expiresAt: expiry } },
      "late",
      0n,
    ],
    [
      "a completed link never has late payments",
      { paid: 12n, payments: [paid(10n), paid(2n, at)], link: { status: "completed", expiresAt: expiry } },
      "over",
      2n,
    ],
    [
      "an excess returned from the deposit address is still an overpayment",
      { paid: 10n, payments: [paid(10n)], returns: [{ amount: 2n, reason: "excess" }] },
      "over",
      2n,
    ],
    [
      "an underpaid amount returned",
      { returns: [{ amount: 4n, reason: "underpaid" }], link: { status: "expired", expiresAt: expiry } },
      "under",
      0n,
    ],
    ["a late payment returned", { returns: [{ amount: 10n, reason: "late" }], link: { status: "expired", expiresAt: expiry } }, "late", 0n],
    [
      "forwarded from the deposit address after the expiry, but it arrived in time",
      { paid: 4n, payments: [paid(4n, at, "0xdeposit")], link: { status: "expired", expiresAt: expiry } },
      "under",
      0n,
    ],
    [
      "forwarded from the deposit address, it arrived after the expiry",
      { paid: 10n, payments: [paid(10n, at, "0xdeposit")], link: { status: "expired", expiresAt: expiry }, depositLate: 10n },
      "late",
      0n,
    ],
  ];
  it.each(cases)("%s", (_name, facts, label, excess) => {
    const w = wrongAmountOf({ ...base, ...facts }, at);
    expect([w.amountLabel, w.excess]).toEqual([label, excess]);
  });

  it("a link's label comes from its requests'", () => {
    const part = (amountLabel: string | null, expected: bigint, sent: bigint, closed = false) => ({
      amountLabel: amountLabel as never,
      excess: sent > expected ? sent - expected : 0n,
      returned: 0n,
      lateReceived: 0n,
      onTimeReceived: sent,
      closed,
      expected,
      sent,
    });
    expect(linkWrongAmount([part("exact", 10n, 10n), part("exact", 5n, 5n)]).amountLabel).toBe("exact");
    expect(linkWrongAmount([part("exact", 10n, 10n), part("over", 5n, 7n)])).toMatchObject({ amountLabel: "over", excess: 2n });
    expect(linkWrongAmount([part("exact", 10n, 10n), part(null, 5n, 0n, true)]).amountLabel).toBe("under");
    expect(linkWrongAmount([part("exact", 10n, 10n), part(null, 5n, 0n)]).amountLabel).toBeNull();
    expect(linkWrongAmount([part("over", 10n, 12n), part("late", 5n, 5n, true)]).amountLabel).toBe("late");
  });
});

let a: Awaited<ReturnType<typeof makeIntegrator>>;
let session: string;
let n = 0;

/** The database suites (the label rule above needs none). */
async function freshAccount() {
  await resetDb();
  a = await makeIntegrator();
  session = await walletSessionToken(a.account.id, MERCHANT);
  const dest = await call(createDestination, "/v2/payee-destination", {
    method: "POST",
    headers: { authorization: `Bearer ${session}` },
    json: { currency: "USDC-base", walletAddress: MERCHANT },
  });
  expect(dest.status, JSON.stringify(dest.body)).toBe(201);
}

async function makeLink(amount: string, excessPolicy?: ExcessPolicy) {
  const res = await call(createLink, "/v2/secure-payments", {
    method: "POST",
    headers: { "x-api-key": a.apiKey },
    json: { requests: [{ amount }], ...(excessPolicy ? { excessPolicy } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { token: res.body.token as string, requestId: res.body.requestIds[0] as string };
}

/** Pays the request from a wallet, as detection records a TransferWithReferenceAndFee to its payee, then settles its link. */
async function pay(requestId: string, units: bigint, from = CUSTOMER, blockTime = new Date()) {
  n += 1;
  const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
  const outcome = await recordTransfer(request, {
    txHash: `0x${n.toString(16).padStart(64, "0")}`,
    logIndex: 0,
    blockNumber: BigInt(n),
    blockHash: `0x${"0".repeat(64)}`,
    blockTime,
    proxyAddress: PROXY,
    tokenAddress: USDC,
    to: request.payee,
    amount: units,
    referenceHash: request.referenceHash,
    feeAmount: 0n,
    feeAddress: null,
    from,
    txTo: PROXY,
  });
  await settleSecurePayments([requestId]);
  return outcome;
}

const status = (requestId: string) =>
  call(getRequest, `/v2/request/${requestId}`, { headers: { "x-api-key": a.apiKey }, params: { requestId } });
const view = (token: string) => call(pageView, `/v2/secure-payments/${token}`, { params: { token } });
const offers = (requestId: string) => db().refund.findMany({ where: { requestId }, orderBy: { createdAt: "asc" } });
const expireNow = (token: string) => db().securePayment.update({ where: { token }, data: { expiresAt: new Date(Date.now() - 60_000) } });

describe("an overpayment from a wallet", () => {
  beforeEach(freshAccount);

  it("is recorded whole (amountPaid above the amount), labelled over with excessAmount, and offered to the payee once", async () => {
    const req = await call(createRequest, "/v2/request", {
      method: "POST",
      headers: { "x-api-key": a.apiKey },
      json: { payee: MERCHANT, amount: "10", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base" },
    });
    expect(req.status).toBe(201);
    const requestId = req.body.requestId as string;
    expect((await status(requestId)).body).toMatchObject({ amountLabel: null, excessAmount: "0", returnedAmount: "0" });
    expect(await pay(requestId, 12_000_000n)).toBe("recorded");
    expect((await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } })).amountPaid.toFixed()).toBe("12000000");
    expect((await status(requestId)).body).toMatchObject({ status: "paid", totalAmountPaid: "12", amountLabel: "over", excessAmount: "2" });
    const listed = await call(searchPayments, `/v2/payments?requestId=${requestId}`, { headers: { "x-api-key": a.apiKey } });
    expect(listed.body.payments[0].request).toMatchObject({ requestId, amountLabel: "over", excessAmount: "2" });

    // The webhook: the interface's keys in their order, then the label's two, then the receipt's URL (#30).
    const event = await db().outboxEvent.findFirstOrThrow({ where: { type: "payment.confirmed", requestId } });
    const body = JSON.parse(event.payload);
    expect(Object.keys(body).slice(-4)).toEqual(["payerEoaAddress", "amountLabel", "excessAmount", "receiptUrl"]);
    expect(body).toMatchObject({ amountLabel: "over", excessAmount: "2" });

    const [offer, ...more] = await offers(requestId);
    expect(more).toHaveLength(0);
    expect(offer).toMatchObject({ sender: "payee", status: "prepared", reason: "excess", toAddress: CUSTOMER });
    expect(offer!.amount.toFixed()).toBe("2000000");

    // More arrives while the offer is still prepared: a new offer of the rest (a wallet may be signing the first). A re-scan changes nothing.
    await pay(requestId, 1_000_000n);
    const grown = await offers(requestId);
    expect(grown.map((o) => [o.reason, o.status, o.amount.toFixed()])).toEqual([
      ["excess", "prepared", "2000000"],
      ["excess", "prepared", "1000000"],
    ]);
    expect(grown[0]!.id).toBe(offer!.id);
    const again = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
    expect(
      await recordTransfer(again, {
        txHash: `0x${n.toString(16).padStart(64, "0")}`,
        logIndex: 0,
        blockNumber: BigInt(n),
        blockHash: `0x${"0".repeat(64)}`,
        blockTime: new Date(),
        proxyAddress: PROXY,
        tokenAddress: USDC,
        to: MERCHANT,
        amount: 1_000_000n,
        referenceHash: again.referenceHash,
        feeAmount: 0n,
        feeAddress: null,
        from: CUSTOMER,
      }),
    ).toBe("duplicate");
    expect(await db().refund.count()).toBe(2);

    // Once the payee sent it (or declined it), more excess is a new offer of the rest only.
    await db().refund.update({ where: { id: offer!.id }, data: { status: "sent", txHash: `0x${"ab".repeat(32)}` } });
    await pay(requestId, 500_000n, OTHER);
    const after = await offers(requestId);
    expect(after).toHaveLength(3);
    expect(after[2]).toMatchObject({ status: "prepared", reason: "excess", toAddress: OTHER });
    expect(after[2]!.amount.toFixed()).toBe("500000");
  });

  it("`return` on a wallet payment behaves as `offer` (the money is in the payee's wallet); `keep` offers nothing", async () => {
    const ret = await makeLink("10", "return");
    // No deposit address of Duebill's contract on this network: the link says what really applies.
    expect((await view(ret.token)).body).toMatchObject({ excessPolicy: "return", effectiveExcessPolicy: "offer" });
    await pay(ret.requestId, 12_000_000n);
    expect(await offers(ret.requestId)).toMatchObject([{ sender: "payee", reason: "excess", status: "prepared" }]);

    const kept = await makeLink("10", "keep");
    await pay(kept.requestId, 12_000_000n);
    expect(await offers(kept.requestId)).toEqual([]);
    expect((await view(kept.token)).body).toMatchObject({
      status: "completed",
      amountLabel: "over",
      excessAmount: "2",
      effectiveExcessPolicy: "keep",
      checkout: { amountLabel: "over", excessAmount: "2", effectiveExcessPolicy: "keep" },
    });

    // The account's policy applies to links without their own, from when it is set.
    await setAccountExcessPolicy(a.account.id, "keep", "test");
    const plain = await makeLink("10");
    await pay(plain.requestId, 11_000_000n);
    expect(await offers(plain.requestId)).toEqual([]);
    const audit = await db().adminAuditEntry.findFirstOrThrow({ where: { action: "account.excess_policy" } });
    expect(audit).toMatchObject({ accountId: a.account.id, details: { from: "offer", to: "keep" } });
  });
});

describe("a late wallet payment (after the link expired)", () => {
  beforeEach(freshAccount);

  it("is recorded on the request, the link stays expired, labelled late; the whole late amount is offered", async () => {
    const { token, requestId } = await makeLink("10");
    await expireNow(token);
    await expireAndReconcileSecurePayments();
    await pay(requestId, 10_000_000n);
    await expireAndReconcileSecurePayments();
    expect((await status(requestId)).body).toMatchObject({ status: "paid", amountLabel: "late", excessAmount: "0" });
    expect((await view(token)).body).toMatchObject({
      status: "expired",
      amountLabel: "late",
      checkout: { status: "expired", amountLabel: "late" },
    });
    const [offer] = await offers(requestId);
    expect(offer).toMatchObject({ reason: "late", status: "prepared", toAddress: CUSTOMER });
    expect(offer!.amount.toFixed()).toBe("10000000");
    const event = await db().outboxEvent.findFirstOrThrow({ where: { type: "payment.confirmed", requestId } });
    expect(JSON.parse(event.payload)).toMatchObject({ amountLabel: "late" });
  });

  it("before the expiry sweep ran: settling does not complete the link, it expires it", async () => {
    const { token, requestId } = await makeLink("10");
    await expireNow(token);
    // Recorded, then settled as detection does (lib/detection/sweep.ts): not completed.
    await pay(requestId, 10_000_000n);
    expect((await db().securePayment.findUniqueOrThrow({ where: { token } })).status).toBe("expired");
    expect((await status(requestId)).body).toMatchObject({ amountLabel: "late" });
  });
});

describe("a link that expires short", () => {
  beforeEach(freshAccount);

  it("is unlabelled while it can still be completed, under once expired, and the paid part is offered once", async () => {
    const { token, requestId } = await makeLink("10");
    await pay(requestId, 4_000_000n, CUSTOMER, new Date(Date.now() - 120_000));
    expect((await status(requestId)).body).toMatchObject({ status: "partially_paid", amountLabel: null });
    expect(await offers(requestId)).toEqual([]);
    await expireNow(token);
    await expireAndReconcileSecurePayments();
    expect((await view(token)).body).toMatchObject({ status: "expired", amountLabel: "under", checkout: { amountLabel: "under" } });
    const [offer, ...more] = await offers(requestId);
    expect(more).toHaveLength(0);
    expect(offer).toMatchObject({ reason: "underpaid", status: "prepared", toAddress: CUSTOMER });
    expect(offer!.amount.toFixed()).toBe("4000000");
    expect(await offerUnderpaidOfExpiredLinks()).toBe(0);
    await expireAndReconcileSecurePayments();
    expect(await db().refund.count()).toBe(1);
  });
});

describe("the link's excessPolicy", () => {
  beforeEach(freshAccount);

  it("is optional on POST /v2/secure-payments, refused by name when wrong, and echoed in the link's views", async () => {
    const bad = await call(createLink, "/v2/secure-payments", {
      method: "POST",
      headers: { "x-api-key": a.apiKey },
      json: { requests: [{ amount: "10" }], excessPolicy: "refund" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("excessPolicy");
    const { requestId } = await makeLink("10", "keep");
    const sp = await call(getSecurePayment, `/v2/secure-payments?requestId=${requestId}`, {
      headers: { authorization: `Bearer ${session}` },
    });
    expect(sp.status, JSON.stringify(sp.body)).toBe(200);
    expect(sp.body).toMatchObject({
      excessPolicy: "keep",
      effectiveExcessPolicy: "keep",
      amountLabel: null,
      excessAmount: "0",
      returnedAmount: "0",
    });
  });
});
