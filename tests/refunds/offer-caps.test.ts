/**
 * Offered refunds never pay the payer back more than the payee received (no chain: transfers fed to
 * recordTransfer / recordRefundTransfer as detection hands them over): an offer is capped by what the
 * payee can still refund (a refund made by hand counts, whatever its reason), a prepared offer never
 * changes amount (a wallet may be signing it: more excess is a new offer), no refund goes to the
 * payee (its reference would be the payment's), and a prepared refund already over what was received
 * hands out no calldata. Labels and the offers themselves: tests/refunds/wrong-amounts.test.ts.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { POST as createLink } from "@/app/v2/secure-payments/route";
import { db } from "@/lib/db";
import { recordTransfer } from "@/lib/detection/record-payment";
import type { TransferEvent } from "@/lib/detection/types";
import { getRefund, insertRefund, recordRefundTransfer } from "@/lib/refunds";
import { offerUnderpaidOfExpiredLinks, offerWrongAmounts } from "@/lib/refunds/offer";
import { expireAndReconcileSecurePayments, settleSecurePayments } from "@/lib/secure-payments/settle";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const MERCHANT = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const CUSTOMER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PROXY = "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814";

let a: Awaited<ReturnType<typeof makeIntegrator>>;
let n = 0;

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  const session = await walletSessionToken(a.account.id, MERCHANT);
  const dest = await call(createDestination, "/v2/payee-destination", {
    method: "POST",
    headers: { authorization: `Bearer ${session}` },
    json: { currency: "USDC-base", walletAddress: MERCHANT },
  });
  expect(dest.status, JSON.stringify(dest.body)).toBe(201);
});

async function makeLink(amount: string) {
  const res = await call(createLink, "/v2/secure-payments", {
    method: "POST",
    headers: { "x-api-key": a.apiKey },
    json: { requests: [{ amount }] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { token: res.body.token as string, requestId: res.body.requestIds[0] as string };
}

function transfer(e: Partial<TransferEvent> & { referenceHash: string; amount: bigint; to: string }): TransferEvent {
  n += 1;
  return {
    txHash: `0x${n.toString(16).padStart(64, "0")}`,
    logIndex: 0,
    blockNumber: BigInt(n),
    blockHash: `0x${"0".repeat(64)}`,
    blockTime: new Date(Date.now() - 120_000),
    proxyAddress: PROXY,
    tokenAddress: USDC,
    feeAmount: 0n,
    feeAddress: null,
    from: CUSTOMER,
    txTo: PROXY,
    ...e,
  };
}

/** A wallet payment of the request, as detection records it, then its link settled. */
async function pay(requestId: string, amount: bigint, from = CUSTOMER) {
  const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
  const outcome = await recordTransfer(request, transfer({ referenceHash: request.referenceHash, amount, to: request.payee, from }));
  await settleSecurePayments([requestId]);
  return outcome;
}

/** The payee's wallet sends a refund transfer under the refund's reference (the amount it signed). */
async function landRefund(refundId: string, amount: bigint) {
  const r = await db().refund.findUniqueOrThrow({ where: { id: refundId } });
  const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: r.requestId } });
  return recordRefundTransfer(request, transfer({ referenceHash: r.referenceHash, amount, to: r.toAddress, from: MERCHANT }));
}

const refunds = (requestId: string) => db().refund.findMany({ where: { requestId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
const expire = async (token: string) => {
  await db().securePayment.update({ where: { token }, data: { expiresAt: new Date(Date.now() - 60_000) } });
  await expireAndReconcileSecurePayments();
};

describe("an offer and a refund the payee made by hand", () => {
  it("link of 10 receives 4, the payee refunds the 4 (confirmed): the expiry sweep offers nothing more", async () => {
    const { token, requestId } = await makeLink("10");
    expect(await pay(requestId, 4_000_000n)).toBe("recorded");
    const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
    const byHand = await db().$transaction((tx) =>
      insertRefund(tx, request, { to: CUSTOMER, amount: 4_000_000n, reason: "requested", sender: "payee" }),
    );
    expect(await landRefund(byHand.id, 4_000_000n)).toBe("recorded");

    await expire(token);
    expect(await offerUnderpaidOfExpiredLinks()).toBe(0);
    const rows = await refunds(requestId);
    expect(rows.map((r) => [r.reason, r.status, r.amount.toFixed()])).toEqual([["requested", "confirmed", "4000000"]]);
    expect((await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } })).amountRefunded.toFixed()).toBe("4000000");
  });

  it("a prepared refund over what the payee received (written before the cap) hands out no transactions: 409", async () => {
    const { requestId } = await makeLink("10");
    await pay(requestId, 4_000_000n);
    const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
    const [byHand, stale] = await db().$transaction(async (tx) => [
      await insertRefund(tx, request, { to: CUSTOMER, amount: 4_000_000n, reason: "requested", sender: "payee" }),
      await insertRefund(tx, request, { to: CUSTOMER, amount: 4_000_000n, reason: "underpaid", sender: "payee" }),
    ]);
    await landRefund(byHand!.id, 4_000_000n);
    await expect(getRefund(a.account.id, requestId, stale!.id)).rejects.toMatchObject({
      code: "conflict",
      status: 409,
      message: expect.stringContaining("exceed what it received"),
    });
    // Cancelled, the other one is in the clear again (and a cancelled one has nothing to send).
    await db().refund.update({ where: { id: stale!.id }, data: { status: "cancelled" } });
    expect((await getRefund(a.account.id, requestId, stale!.id)).transactions).toEqual([]);
  });
});

describe("more excess while an offer is prepared", () => {
  it("is a new offer: the first keeps the amount the wallet signed, and landing it leaves the rest prepared", async () => {
    const { requestId } = await makeLink("10");
    await pay(requestId, 12_000_000n);
    const [first] = await refunds(requestId);
    expect(first!.amount.toFixed()).toBe("2000000");
    await pay(requestId, 1_000_000n);
    // The wallet sends the 2 it was handed calldata for.
    expect(await landRefund(first!.id, 2_000_000n)).toBe("recorded");
    const rows = await refunds(requestId);
    expect(rows.map((r) => [r.id === first!.id, r.reason, r.status, r.amount.toFixed()])).toEqual([
      [true, "excess", "confirmed", "2000000"],
      [false, "excess", "prepared", "1000000"],
    ]);
    // The rest is offered once: running the offers again adds nothing.
    expect(await db().$transaction((tx) => offerWrongAmounts(tx, requestId))).toEqual([]);
    expect(await db().refund.count({ where: { requestId } })).toBe(2);
  });
});

describe("a refund to the payee", () => {
  it("is refused by insertRefund (400 naming `to`): its reference would be the payment reference", async () => {
    const { requestId } = await makeLink("10");
    const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
    await expect(
      db().$transaction((tx) =>
        insertRefund(tx, request, { to: MERCHANT.toLowerCase(), amount: 1n, reason: "requested", sender: "payee" }),
      ),
    ).rejects.toMatchObject({ status: 400, errors: [{ field: "to" }] });
  });

  it("is not offered when the payer is the payee: the payment is recorded, no offer", async () => {
    const { requestId } = await makeLink("10");
    expect(await pay(requestId, 12_000_000n, MERCHANT)).toBe("recorded");
    expect(await refunds(requestId)).toEqual([]);
  });
});
