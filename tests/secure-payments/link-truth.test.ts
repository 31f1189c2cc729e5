import { createPublicClient, createWalletClient, decodeFunctionData, http, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { GET as payRequest } from "@/app/v2/request/[requestId]/pay/route";
import { GET as payLink } from "@/app/v2/secure-payments/[token]/pay/route";
import { GET as pageView } from "@/app/v2/secure-payments/[token]/route";
import { POST as createMulticall } from "@/app/v2/secure-payments/multicall-payouts/route";
import { POST as createPayoutLink } from "@/app/v2/secure-payments/payouts/route";
import { POST as createLink, GET as getSecurePayment } from "@/app/v2/secure-payments/route";
import { createSession } from "@/lib/auth/sessions";
import { batchConversionPaymentsAbi } from "@/lib/chain/abis";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { reloadEnv } from "@/lib/env";
import { prefixedId } from "@/lib/ids";
import { sweepExpiry } from "@/lib/jobs/expire";
import { accountOverview } from "@/lib/requests/account-overview";
import { requestDetail } from "@/lib/requests/request-detail";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { payLinkOnDevnet } from "@/tests/helpers/pay-link";

/**
 * What a link says is what is true (issue #24): the hosted page's view (`checkout` of the public
 * view) shows exactly what the next transaction pays and to whom, once part of a multicall or
 * batch is paid; a link's status is computed at read time on every read path; a paid link never
 * expires, even when screening is down past its expiry. Amounts are fixed decimals written here,
 * and the plan's calldata is decoded with viem against the batch contract's ABI.
 */

let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let session: string;

/** Anvil's well-known account 3: a second payout recipient (any valid address would do). */
const SECOND = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }) as PublicClient;
}, 60_000);
afterAll(() => stopDevnet(devnet));
afterEach(() => {
  setClock(null);
  for (const k of ["KYT_PROVIDER", "CHAINALYSIS_API_KEY", "CHAINALYSIS_API_URL"]) delete process.env[k];
  reloadEnv();
});
beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  const user = await db().user.create({
    data: { id: prefixedId("usr_"), accountId: a.account.id, email: `${prefixedId("u")}@example.com` },
  });
  session = (await createSession(user, "email")).token;
  const dest = await call(createDestination, "/v2/payee-destination", {
    method: "POST",
    headers: { authorization: `Bearer ${await walletSessionToken(a.account.id, devnet.accounts.payee.address)}` },
    json: { currency: "USDC-sepolia", walletAddress: devnet.accounts.payee.address },
  });
  expect(dest.status).toBe(201);
});

async function payout(amount: string, recipient: string = devnet.accounts.payee.address) {
  const res = await call(createPayoutLink, "/v2/secure-payments/payouts", {
    method: "POST",
    headers: { "x-api-key": a.apiKey },
    json: { recipient, creatorWalletAddress: devnet.accounts.payer.address, network: "sepolia", currency: "USDC-sepolia", amount },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { token: string; requestIds: string[] };
}

const publicView = (token: string) => call(pageView, `/v2/secure-payments/${token}`, { params: { token } });
const plan = (token: string) =>
  call(payLink, `/v2/secure-payments/${token}/pay?wallet=${devnet.accounts.payer.address}`, { params: { token } });
const byRequest = (requestId: string) =>
  call(getSecurePayment, `/v2/secure-payments?requestId=${requestId}`, { headers: { authorization: `Bearer ${session}` } });

/** The batch call's payee amounts, decoded from the plan's calldata (6-decimal token units). */
function batchAmounts(data: `0x${string}`): bigint[] {
  const decoded = decodeFunctionData({ abi: batchConversionPaymentsAbi, data });
  const [metaDetails] = decoded.args as unknown as [{ requestDetails: { requestAmount: bigint }[] }[]];
  return metaDetails.flatMap((m) => m.requestDetails.map((d) => d.requestAmount));
}

/** Pays one request of a link on its own (GET /v2/request/{id}/pay), then runs detection. */
async function payRequestAlone(requestId: string) {
  const account = privateKeyToAccount(devnet.accounts.payer.privateKey);
  const res = await call(payRequest, `/v2/request/${requestId}/pay?wallet=${account.address}`, {
    headers: { "x-api-key": a.apiKey },
    params: { requestId },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const wallet = createWalletClient({ account, chain: devnet.chain, transport: http(devnet.rpcUrl) });
  for (const tx of res.body.transactions)
    await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: tx.to, data: tx.data }) });
  await sweepDetectionNetwork(evmEventSource("sepolia")!);
}

describe("the hosted page shows what the next transaction pays", () => {
  it("a multicall with a child paid: the remaining amount, the paid child marked, every recipient listed", async () => {
    const [one, two, three] = [await payout("11.11"), await payout("33.33", SECOND), await payout("22.22")];
    const created = await call(createMulticall, "/v2/secure-payments/multicall-payouts", {
      method: "POST",
      headers: { "x-api-key": a.apiKey },
      json: { childTokens: [one.token, two.token, three.token] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const parent = created.body.token as string;
    expect((await publicView(parent)).body.checkout).toMatchObject({ totalAmount: "66.66", paidAmount: "0" });

    await payLinkOnDevnet(devnet, pub, one.token);
    const view = await publicView(parent);
    expect(view.body.status).toBe("partially_settled");
    const checkout = view.body.checkout;
    expect(checkout).toMatchObject({ status: "pending", totalAmount: "55.55", paidAmount: "11.11", payerFees: "0", fullAmount: "66.66" });
    expect(checkout.items.map((i: { state: string; amount: string; due: string }) => [i.state, i.amount, i.due])).toEqual([
      ["paid", "11.11", "0"],
      ["due", "33.33", "33.33"],
      ["due", "22.22", "22.22"],
    ]);
    // Every recipient of the transaction, in order, once each (the paid child's payee is also the third's).
    expect(checkout.recipients).toEqual([SECOND, devnet.accounts.payee.address]);

    // The plan pays exactly that: 33.33 and 22.22, nothing to the paid child.
    const p = await plan(parent);
    expect(p.status).toBe(200);
    expect(p.body.amounts).toEqual(["33.33", "22.22"]);
    expect(batchAmounts(p.body.batchPaymentTransaction.data)).toEqual([33_330_000n, 22_220_000n]);
  });

  it("a multicall leaves out an expired child and lists it as excluded", async () => {
    const one = await payout("1.5");
    const two = await payout("2.5", SECOND);
    const created = await call(createMulticall, "/v2/secure-payments/multicall-payouts", {
      method: "POST",
      headers: { "x-api-key": a.apiKey },
      json: { childTokens: [one.token, two.token] },
    });
    expect(created.status).toBe(201);
    // The second child alone is expired (its own expiry moved earlier than the parent's read).
    await db().securePayment.update({ where: { token: two.token }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const checkout = (await publicView(created.body.token)).body.checkout;
    expect(checkout.totalAmount).toBe("1.5");
    expect(checkout.items.map((i: { state: string }) => i.state)).toEqual(["due", "excluded"]);
    expect(checkout.recipients).toEqual([devnet.accounts.payee.address]);
  });

  it("a batch link with one request paid alone: the page and the plan both pay only the other", async () => {
    const created = await call(createLink, "/v2/secure-payments", {
      method: "POST",
      headers: { "x-client-id": a.clientId },
      json: { requests: [{ amount: "1.5" }, { amount: "2.5" }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const token = created.body.token as string;
    expect((await publicView(token)).body.checkout.totalAmount).toBe("4");

    await payRequestAlone(created.body.requestIds[0]);
    const checkout = (await publicView(token)).body.checkout;
    expect(checkout).toMatchObject({ status: "pending", totalAmount: "2.5", paidAmount: "1.5" });
    expect(checkout.items.map((i: { state: string }) => i.state)).toEqual(["paid", "due"]);
    // One request left: a single fee-proxy payment of 2.5, not a batch of 4.
    const p = await plan(token);
    expect(p.status).toBe(200);
    expect(p.body.paymentType).toBe("batch");
    const pay = p.body.transactions[p.body.metadata.paymentTransactionIndex];
    // transferFromWithReferenceAndFee(token, to, amount, reference, feeAmount, feeAddress): amount is the 3rd word.
    expect(BigInt(`0x${pay.data.slice(10 + 64 * 2, 10 + 64 * 3)}`)).toBe(2_500_000n);
  });

  it("a batch link with a request partly paid: the batch sends its remainder, as the page says", async () => {
    const created = await call(createLink, "/v2/secure-payments", {
      method: "POST",
      headers: { "x-client-id": a.clientId },
      json: { requests: [{ amount: "3" }, { amount: "2" }, { amount: "1" }] },
    });
    expect(created.status).toBe(201);
    // As detection records an underpayment: 1 of the first request's 3 arrived.
    await db().paymentRequest.update({
      where: { id: created.body.requestIds[0] },
      data: { amountPaid: "1000000", status: "partially_paid" },
    });
    const checkout = (await publicView(created.body.token)).body.checkout;
    expect(checkout).toMatchObject({ totalAmount: "5", paidAmount: "1" });
    expect(checkout.items.map((i: { state: string; due: string }) => [i.state, i.due])).toEqual([
      ["due", "2"],
      ["due", "2"],
      ["due", "1"],
    ]);
    const p = await plan(created.body.token);
    expect(p.status).toBe(200);
    expect(batchAmounts(p.body.batchPaymentTransaction.data)).toEqual([2_000_000n, 2_000_000n, 1_000_000n]);
  });
});

describe("status at read time; a paid link never expires", () => {
  it("a pending link past its expiry reads expired on every read path before the sweep runs", async () => {
    const created = await call(createLink, "/v2/secure-payments", {
      method: "POST",
      headers: { "x-client-id": a.clientId },
      json: { requests: [{ amount: "1" }] },
    });
    const [requestId] = created.body.requestIds as string[];
    const t0 = Date.now();
    setClock(() => t0 + 7 * 24 * 3_600_000 + 1000);
    expect((await db().securePayment.findUniqueOrThrow({ where: { token: created.body.token } })).status).toBe("pending");
    expect((await publicView(created.body.token)).body).toMatchObject({ status: "expired", checkout: { status: "expired" } });
    expect((await byRequest(requestId!)).body).toMatchObject({ status: "expired", blockReason: "not_outgoing" });
    expect((await requestDetail(a.account.id, requestId!)).link?.status).toBe("expired");
    expect((await accountOverview(a.account.id)).links.pending).toBe(0);
    expect((await plan(created.body.token)).status).toBe(409);
    expect((await sweepExpiry()).securePayments.expired).toBe(1);
    expect((await byRequest(requestId!)).body.status).toBe("expired");
  });

  it("a paid link stays pending while screening is down past its expiry, and completes once screening answers", async () => {
    const created = await call(createLink, "/v2/secure-payments", {
      method: "POST",
      headers: { "x-client-id": a.clientId },
      json: { requests: [{ amount: "2" }] },
    });
    const token = created.body.token as string;
    const [requestId] = created.body.requestIds as string[];
    // Screening down: the vendor's address refuses connections (nothing listens on port 9).
    process.env.KYT_PROVIDER = "chainalysis";
    process.env.CHAINALYSIS_API_KEY = "ch-key";
    process.env.CHAINALYSIS_API_URL = "http://127.0.0.1:9";
    reloadEnv();
    await payLinkOnDevnet(devnet, pub, token);
    // Paid and announced, not settled: payment.confirmed went out, the link waits for screening.
    expect(await db().outboxEvent.count({ where: { type: "payment.confirmed", requestId } })).toBe(1);
    expect((await db().securePayment.findUniqueOrThrow({ where: { token } })).status).toBe("pending");

    const t0 = Date.now();
    setClock(() => t0 + 8 * 24 * 3_600_000);
    expect((await publicView(token)).body.status).toBe("pending");
    expect((await byRequest(requestId!)).body.status).toBe("pending");
    expect((await accountOverview(a.account.id)).links.pending).toBe(1);
    const swept = await sweepExpiry();
    expect(swept.securePayments).toEqual({ expired: 0, settled: 0 });
    expect((await db().securePayment.findUniqueOrThrow({ where: { token } })).status).toBe("pending");
    // Nothing left to pay: no plan, the page says the payment was received.
    expect((await plan(token)).status).toBe(409);
    expect((await publicView(token)).body.checkout.items.map((i: { state: string }) => i.state)).toEqual(["paid"]);

    // Screening back: the next sweep settles it.
    for (const k of ["KYT_PROVIDER", "CHAINALYSIS_API_KEY", "CHAINALYSIS_API_URL"]) delete process.env[k];
    reloadEnv();
    expect((await sweepExpiry()).securePayments).toEqual({ expired: 0, settled: 1 });
    expect((await byRequest(requestId!)).body.status).toBe("completed");
  });

  it("a multicall parent whose children are all paid is not expired by the sweep", async () => {
    const one = await payout("1");
    const two = await payout("2");
    const created = await call(createMulticall, "/v2/secure-payments/multicall-payouts", {
      method: "POST",
      headers: { "x-api-key": a.apiKey },
      json: { childTokens: [one.token, two.token] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The children's requests are paid but no link settled yet (a crash between recording and settling).
    await db().paymentRequest.update({ where: { id: one.requestIds[0] }, data: { status: "paid", amountPaid: "1000000" } });
    await db().paymentRequest.update({ where: { id: two.requestIds[0] }, data: { status: "paid", amountPaid: "2000000" } });
    const t0 = Date.now();
    setClock(() => t0 + 8 * 24 * 3_600_000);
    const read = await publicView(created.body.token);
    expect(read.body.status, JSON.stringify(read.body)).toBe("pending");
    await sweepExpiry();
    expect((await db().securePayment.findUniqueOrThrow({ where: { token: created.body.token } })).status).not.toBe("expired");
    expect((await db().securePayment.findUniqueOrThrow({ where: { token: one.token } })).status).not.toBe("expired");
  });
});
