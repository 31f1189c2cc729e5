import { createPublicClient, decodeFunctionData, http, type PublicClient } from "viem";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as payLink } from "@/app/v2/secure-payments/[token]/pay/route";
import { GET as pageView } from "@/app/v2/secure-payments/[token]/route";
import { GET as getMulticall } from "@/app/v2/secure-payments/multicall-payouts/[token]/route";
import { POST as createMulticall } from "@/app/v2/secure-payments/multicall-payouts/route";
import { POST as createPayoutLink } from "@/app/v2/secure-payments/payouts/route";
import { batchConversionPaymentsAbi } from "@/lib/chain/abis";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { sweepExpiry } from "@/lib/jobs/expire";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { payLinkOnDevnet } from "@/tests/helpers/pay-link";

/**
 * Multicall payouts on a devnet: a parent over pending payout links, paid from the creator's
 * wallet in one batch transaction; children stay payable alone; the parent goes pending →
 * partially_settled → completed as detection settles its children. Failures come back in the
 * reference's validation envelope, one per child.
 */

let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let b: Awaited<ReturnType<typeof makeIntegrator>>;

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }) as PublicClient;
}, 60_000);
afterAll(() => stopDevnet(devnet));
afterEach(() => setClock(null));
beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  b = await makeIntegrator();
});

async function payout(who: typeof a, amount: string, creator = devnet.accounts.payer.address) {
  const res = await call(createPayoutLink, "/v2/secure-payments/payouts", {
    method: "POST",
    headers: { "x-api-key": who.apiKey },
    json: { recipient: devnet.accounts.payee.address, creatorWalletAddress: creator, network: "sepolia", currency: "USDC-sepolia", amount },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { token: string; requestIds: string[] };
}

const multicall = (json: unknown, who = a) =>
  call(createMulticall, "/v2/secure-payments/multicall-payouts", { method: "POST", headers: { "x-api-key": who.apiKey }, json });
const view = (token: string, who = a) =>
  call(getMulticall, `/v2/secure-payments/multicall-payouts/${token}`, { headers: { "x-api-key": who.apiKey }, params: { token } });
const publicView = (token: string) => call(pageView, `/v2/secure-payments/${token}`, { params: { token } });

const pay = (token: string) => payLinkOnDevnet(devnet, pub, token);

describe("POST /v2/secure-payments/multicall-payouts", () => {
  it("pays children alone or together: pending → partially_settled → completed", async () => {
    const [one, two, three] = [await payout(a, "5"), await payout(a, "7.5"), await payout(a, "1")];
    const created = await multicall({ childTokens: [one.token, two.token, three.token] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ type: "multicall", status: "pending" });
    expect(created.body.securePaymentUrl).toContain(`/pay/${created.body.token}`);
    expect(created.body.items).toEqual(
      [one, two, three].map((c, position) => ({
        securePaymentToken: c.token,
        requestId: c.requestIds[0],
        position,
        eligibility: "eligible",
      })),
    );
    const parent = created.body.token as string;
    const first = await view(parent);
    expect(first.body).toMatchObject({ paymentType: "multicall", status: "pending", canExecute: true, network: "sepolia" });
    expect(first.body.totals).toMatchObject({
      childCount: 3,
      blockedChildCount: 0,
      byDestinationCurrency: [{ network: "sepolia", currency: "USDC-sepolia", totalAmount: "13.5" }],
    });
    // The parent expires with its earliest child.
    const childExpiry = await db().securePayment.findUniqueOrThrow({ where: { token: one.token } });
    expect(first.body.expiresAt).toBe(childExpiry.expiresAt.toISOString());

    // A child stays a link of its own: paid alone, the parent is partially settled.
    await pay(two.token);
    const partial = await view(parent);
    expect(partial.body.status).toBe("partially_settled");
    expect(partial.body.children[1]).toMatchObject({ executable: false, blockReason: "already_paid", recoveryAction: null });

    // The parent's plan pays the two others in one batch call from the creator's wallet.
    const plan = await pay(parent);
    expect(plan).toMatchObject({ paymentType: "multicall", executionKind: "evm_same_chain", token: parent, amounts: ["5", "1"] });
    expect(plan.childTokens).toEqual([one.token, two.token, three.token]);
    expect(plan.requestIds).toEqual([one.requestIds[0], three.requestIds[0]]);
    expect(plan.metadata).toMatchObject({ childCount: 3, executableLegCount: 2 });
    const call0 = decodeFunctionData({ abi: batchConversionPaymentsAbi, data: plan.batchPaymentTransaction.data });
    expect(call0.functionName).toBe("batchPayments");
    const done = await view(parent);
    expect(done.body.status).toBe("completed");
    expect(done.body.canExecute).toBe(false);
    for (const c of [one, two, three]) expect((await publicView(c.token)).body.status).toBe("completed");
    // The public view of the parent answers the multicall variant with the page's view beside it.
    const pub0 = await publicView(parent);
    expect(pub0.body).toMatchObject({ paymentType: "multicall", status: "completed", token: parent });
    expect(pub0.body.checkout).toMatchObject({
      direction: "outgoing",
      paymentType: "batch",
      status: "completed",
      payerAddress: devnet.accounts.payer.address,
    });
    // Nothing left to pay.
    const again = await call(payLink, `/v2/secure-payments/${parent}/pay?wallet=${devnet.accounts.payer.address}`, {
      params: { token: parent },
    });
    expect(again.status).toBe(409);
  });

  it("answers the reference's validation envelope, one failure per child, without another account's details", async () => {
    const [one, two] = [await payout(a, "1"), await payout(a, "2")];
    const otherCreator = await payout(a, "3", devnet.accounts.payee.address);
    const foreign = await payout(b, "4");
    const res = await multicall({ childTokens: [one.token, "01JZZZZZZZZZZZZZZZZZZZZZZZ", foreign.token, otherCreator.token] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: "multicall_validation_failed", message: "Multicall validation failed" });
    expect(res.body.failures.map((f: { reason: string }) => f.reason)).toEqual(["not_found", "not_owned", "invalid_child_linkage"]);
    expect(res.body.failures[1]).toEqual({
      securePaymentToken: foreign.token,
      reason: "not_owned",
      messageKey: "secure_payment.multicall.not_owned",
      context: { securePaymentToken: foreign.token, position: 2 },
      recoveryAction: "remove_child",
    });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(["childTokens.1", "childTokens.2", "childTokens.3"]);

    // A child already in a pending multicall cannot join another; an expired one says so.
    expect((await multicall({ childTokens: [one.token, two.token] })).status).toBe(201);
    const three = await payout(a, "5");
    const busy = await multicall({ childTokens: [three.token, one.token] });
    expect(busy.body.failures).toEqual([
      expect.objectContaining({ securePaymentToken: one.token, reason: "invalid_child_linkage", recoveryAction: "support_required" }),
    ]);
    const t0 = Date.now();
    // A child merged into a batch link (invalidated, its request moved away) is no longer pending.
    const merged = await payout(a, "7");
    await db().securePaymentRequest.deleteMany({ where: { securePaymentToken: merged.token } });
    await db().securePayment.update({ where: { token: merged.token }, data: { status: "invalidated" } });
    const gone = await multicall({ childTokens: [three.token, merged.token] });
    expect(gone.body.failures).toEqual([
      expect.objectContaining({ securePaymentToken: merged.token, reason: "secure_payment_not_pending" }),
    ]);
    setClock(() => t0 + 8 * 24 * 3_600_000);
    const late = await multicall({ childTokens: [three.token, (await payout(a, "6")).token] });
    expect(late.body.failures[0]).toMatchObject({ reason: "secure_payment_expired", context: { securePaymentStatus: "expired" } });
  });

  it("children whose fees go to different addresses cannot share the batch call (it has one fee address)", async () => {
    const [one, two] = [await payout(a, "1"), await payout(a, "2")];
    await db().paymentRequest.update({
      where: { id: one.requestIds[0] },
      data: { feeAddress: devnet.accounts.feeRecipient.address, feeAmount: "10000" },
    });
    await db().paymentRequest.update({
      where: { id: two.requestIds[0] },
      data: { feeAddress: devnet.accounts.payee.address, feeAmount: "10000" },
    });
    const res = await multicall({ childTokens: [one.token, two.token] });
    expect(res.status).toBe(400);
    expect(res.body.failures).toEqual([expect.objectContaining({ securePaymentToken: two.token, reason: "invalid_child_linkage" })]);
  });

  it("caps at 150 children; refuses duplicates, other kinds and malformed bodies naming the field", async () => {
    const many = Array.from({ length: 151 }, (_, i) => `01J${String(i).padStart(23, "0")}`);
    const capped = await multicall({ childTokens: many });
    expect(capped.status).toBe(400);
    expect(capped.body).toMatchObject({
      code: "multicall_validation_failed",
      cap: { type: "child_count", maximum: 150, actual: 151, reduceBy: 1 },
    });
    const one = await payout(a, "1");
    expect((await multicall({ childTokens: [one.token, one.token] })).body.errors[0].field).toBe("childTokens.1");
    const kind = await multicall({ childTokens: [one.token, (await payout(a, "2")).token], requestedExecutionKind: "evm_cross_chain" });
    expect(kind.body.errors[0].field).toBe("requestedExecutionKind");
    expect((await multicall({ childTokens: [one.token] })).body.errors[0].field).toBe("childTokens");
    expect((await multicall({ childTokens: [one.token, 7] })).body.errors[0].field).toBe("childTokens.1");
    expect((await multicall({ childTokens: ["a", "b"], extra: true })).status).toBe(400);
  });

  it("the view is the owner's: another account gets 404; an ordinary link is not a multicall", async () => {
    const created = await multicall({ childTokens: [(await payout(a, "1")).token, (await payout(a, "2")).token] });
    expect((await view(created.body.token, b)).status).toBe(404);
    expect((await view((await payout(a, "3")).token)).status).toBe(404);
    expect((await view(created.body.token)).status).toBe(200);
  });

  it("the sweep completes a parent left pending after its last child settled", async () => {
    const [one, two] = [await payout(a, "1"), await payout(a, "2")];
    const parent = (await multicall({ childTokens: [one.token, two.token] })).body.token as string;
    await pay(parent);
    // A crash between settling the children and their parent.
    await db().securePayment.update({ where: { token: parent }, data: { status: "pending", completedAt: null } });
    expect((await sweepExpiry()).securePayments.settled).toBeGreaterThanOrEqual(1);
    expect((await db().securePayment.findUniqueOrThrow({ where: { token: parent } })).status).toBe("completed");
  });
});
