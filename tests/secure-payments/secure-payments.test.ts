import { createPublicClient, createWalletClient, http, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { GET as payLink } from "@/app/v2/secure-payments/[token]/pay/route";
import { GET as pageView } from "@/app/v2/secure-payments/[token]/route";
import { POST as createPayoutLink } from "@/app/v2/secure-payments/payouts/route";
import { POST as createLink, GET as getSecurePayment } from "@/app/v2/secure-payments/route";
import { createSession } from "@/lib/auth/sessions";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { bindClientIdDestination } from "@/lib/destinations/destinations";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { env, reloadEnv } from "@/lib/env";
import { setFeeConfig } from "@/lib/fees/fee-config";
import { prefixedId } from "@/lib/ids";
import { sweepExpiry } from "@/lib/jobs/expire";
import { checkoutSchema } from "@/lib/operations/checkout-schemas";
import { publicLinkSchema } from "@/lib/operations/secure-payment-view-schemas";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { payLinkOnDevnet } from "@/tests/helpers/pay-link";

let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let session: string;

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }) as PublicClient;
}, 60_000);
afterAll(() => stopDevnet(devnet));
afterEach(() => setClock(null));

async function sessionFor(accountId: string) {
  const user = await db().user.create({ data: { id: prefixedId("usr_"), accountId, email: `${prefixedId("u")}@example.com` } });
  return (await createSession(user, "email")).token;
}

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  session = await sessionFor(a.account.id);
  const dest = await call(createDestination, "/v2/payee-destination", {
    method: "POST",
    headers: { authorization: `Bearer ${await walletSessionToken(a.account.id, devnet.accounts.payee.address)}` },
    json: { currency: "USDC-sepolia", walletAddress: devnet.accounts.payee.address },
  });
  expect(dest.status).toBe(201);
});

const link = (json: unknown, headers: Record<string, string> = { "x-client-id": a.clientId }) =>
  call(createLink, "/v2/secure-payments", { method: "POST", headers, json });
const bySession = (requestId: string, token = session) =>
  call(getSecurePayment, `/v2/secure-payments?requestId=${requestId}`, { headers: { authorization: `Bearer ${token}` } });

/**
 * The public view matches the operation's documented schema, and its `checkout` has exactly the
 * fields the schema names (the hosted page's client types are inferred from it).
 */
function expectDocumentedView(body: unknown) {
  expect(publicLinkSchema.safeParse(body).error).toBeUndefined();
  expect(checkoutSchema.strict().safeParse((body as { checkout: unknown }).checkout).error).toBeUndefined();
}

const payFromPage = (token: string, key: `0x${string}` = devnet.accounts.payer.privateKey) => payLinkOnDevnet(devnet, pub, token, key);

describe("secure payment links", () => {
  it("a link is paid from its page plan; the request's secure payment shows completed with payer and KYT results", async () => {
    const created = await link({
      requests: [{ amount: "25" }],
      reference: "ORDER-7",
      redirectUrl: "https://shop.example/done",
      redirectLabel: "Back to shop",
    });
    expect(created.status).toBe(201);
    expect(created.body.securePaymentUrl).toBe(`http://localhost:3000/pay/${created.body.token}`);
    expect(created.body.feePlan).toBeNull();
    const [requestId] = created.body.requestIds;
    const view = await call(pageView, `/v2/secure-payments/${created.body.token}`, { params: { token: created.body.token } });
    // The reference's public shape (single variant), with the hosted checkout's view beside it.
    expect(view.body).toMatchObject({
      paymentType: "single",
      status: "pending",
      requestIds: [requestId],
      payee: devnet.accounts.payee.address,
      network: "sepolia",
      amount: "25",
      paymentCurrency: "USDC-sepolia",
      isNativeCurrency: false,
      reference: "ORDER-7",
      redirectUrl: "https://shop.example/done",
      redirectLabel: "Back to shop",
      branding: null,
      feePlan: null,
      isPayeeAddressMasked: false,
    });
    expect(view.body.destination).toMatchObject({ walletAddress: devnet.accounts.payee.address, network: "sepolia", isMasked: false });
    expect(view.body.destination.payeeAddress).toMatch(/@eip155:11155111#[0-9A-F]{8}$/);
    expect(view.body.paymentOptions).toBeUndefined();
    // With the payer's wallet: its balance of the link's token against what it must send.
    const withWallet = (wallet: string) =>
      call(pageView, `/v2/secure-payments/${created.body.token}?wallet=${wallet}`, { params: { token: created.body.token } });
    const rich = await withWallet(devnet.accounts.payer.address);
    expect(rich.body.paymentOptions.sepolia.USDC).toMatchObject({ hasEnoughBalance: true, neededAmount: "25" });
    const empty = await withWallet("0x000000000000000000000000000000000000dEaD");
    expect(empty.body.paymentOptions.sepolia.USDC).toEqual({ balance: "0", hasEnoughBalance: false, neededAmount: "25" });
    expect((await withWallet("TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW")).body.errors[0].field).toBe("wallet");
    expect(view.body.checkout).toMatchObject({
      status: "pending",
      totalAmount: "25",
      network: { id: "sepolia", chainId: 11155111 },
      currency: { symbol: "USDC" },
      reference: "ORDER-7",
    });
    expectDocumentedView(view.body);
    expectDocumentedView(rich.body);
    const before = await bySession(requestId);
    expect(before.body).toMatchObject({
      status: "pending",
      childExecutable: false,
      blockReason: "not_outgoing",
      payerAddress: null,
      completedAt: null,
      identityMode: "client_id",
      clientId: a.clientId,
      executionKind: "evm_same_chain",
      currency: "USDC-sepolia",
      network: "sepolia",
      feePlan: null,
      claimedDestination: null,
      orchestratorId: null,
    });
    expect(before.body.destination).toMatchObject({ walletAddress: devnet.accounts.payee.address, network: "sepolia", isMasked: false });
    expect(Object.keys(before.body).sort()).toEqual(
      [
        "token",
        "securePaymentUrl",
        "status",
        "paymentType",
        "createdAt",
        "expiresAt",
        "redirectUrl",
        "redirectLabel",
        "completedAt",
        "payerAddress",
        "payerEoaAddress",
        "payerKytResults",
        "payeeKytResults",
        "destination",
        "claimedDestination",
        "orchestratorId",
        "feePlan",
        "network",
        "currency",
        "executionKind",
        "identityMode",
        "clientId",
        "branding",
        "childExecutable",
        "blockReason",
        // Duebill extension (issue #24): why a paid amount did not complete the link (fee_short), and the missing fees.
        "subStatus",
        "missingFees",
        // Duebill extension (issue #28): how it was paid, and what happens to money it did not ask for.
        "amountLabel",
        "excessAmount",
        "returnedAmount",
        "excessPolicy",
        "effectiveExcessPolicy",
        // Duebill extension (issue #30): the link's invoice, or null.
        "invoice",
        // Duebill extension (issue #30): the receipt email the payer gave (this authenticated view only).
        "collectPayerEmail",
        "payerEmail",
      ].sort(),
    );

    await payFromPage(created.body.token);
    const after = await bySession(requestId);
    expect(after.body).toMatchObject({
      status: "completed",
      payerAddress: devnet.accounts.payer.address,
      payerEoaAddress: devnet.accounts.payer.address,
    });
    expect(after.body.completedAt).not.toBeNull();
    expect(after.body.payerKytResults).toEqual([
      expect.objectContaining({
        walletAddress: devnet.accounts.payer.address,
        walletType: "eoa",
        parentWalletAddress: null,
        status: "approved",
        reasonCode: null,
        provider: "duebill-sanctions-list",
        reportUrl: null,
      }),
    ]);
    for (const field of ["providerReference", "notes", "rawStatus", "evaluatedAt"])
      expect(after.body.payerKytResults[0]).toHaveProperty(field);
    const paid = await call(payLink, `/v2/secure-payments/${created.body.token}/pay?wallet=${devnet.accounts.payer.address}`, {
      params: { token: created.body.token },
    });
    expect(paid.status).toBe(409);
  });

  it("a payer on the deny list ends in compliance_failed", async () => {
    process.env.KYT_DENY_LIST = devnet.accounts.payer.address.toLowerCase();
    reloadEnv();
    try {
      const created = await link({ requests: [{ amount: "3" }] });
      await payFromPage(created.body.token);
      const sp = await bySession(created.body.requestIds[0]);
      expect(sp.body.status).toBe("compliance_failed");
      expect(sp.body.payerKytResults[0]).toMatchObject({ status: "rejected", reasonCode: "deny_listed" });
    } finally {
      delete process.env.KYT_DENY_LIST;
      reloadEnv();
    }
  });

  it("snapshots the fee plan and includes the fee leg in the payer's transactions", async () => {
    await setFeeConfig({
      accountId: a.account.id,
      flow: "get_paid",
      percentageBps: 250,
      capUsd: "1",
      feeBearer: "payer",
      evmAddress: devnet.accounts.feeRecipient.address,
    });
    const created = await link({ requests: [{ amount: "100" }] });
    expect(created.body.feePlan).toMatchObject({
      version: 1,
      flow: "get_paid",
      defaultFeeBearer: "payer",
      grossAmountUsd: "100.00",
      totalFeesUsd: "1.00",
      payerBorneFeesUsd: "1.00",
      payeeBorneFeesUsd: "0.00",
      payerTotalAmountUsd: "101.00",
      netRecipientAmountUsd: "100.00",
    });
    expect(created.body.feePlan.fees[0]).toMatchObject({
      type: "platform",
      feeBearer: "payer",
      feeBearerSource: "fee_config",
      percentageBps: 250,
      capUsd: "1.00",
      calculatedAmountUsd: "1.00",
      destinationRef: { evmAddress: devnet.accounts.feeRecipient.address },
    });
    const plan = await payFromPage(created.body.token);
    expect(plan.transactions.at(-1).data).toContain(devnet.accounts.feeRecipient.address.slice(2).toLowerCase());
    // The reference's single variant: the fee plan as a fee bundle in token amounts, the payment after its approvals.
    expect(plan).toMatchObject({ paymentType: "single", eoaApprovalTransactions: [] });
    expect(plan.feeBundle).toEqual({
      bundleId: null,
      defaultFeeBearer: "payer",
      amountSummary: expect.objectContaining({ totalFees: "1.00", payerBorneFees: "1.00" }),
      fees: [],
    });
    expect(plan.metadata.paymentTransactionIndex).toBe(plan.transactions.length - 1);
    expect(plan.metadata.approvalTransactionsCount).toBe(plan.transactions.length - 1);
    expect((await bySession(created.body.requestIds[0])).body.status).toBe("completed");
  });

  it("pays a batch link in one transaction", async () => {
    const created = await link({ requests: [{ amount: "1" }, { amount: "2" }] });
    expect(created.body.requestIds).toHaveLength(2);
    const plan = await payFromPage(created.body.token);
    expect(plan.transactions.at(-1).data.slice(0, 10)).toBe("0x92cddb91");
    // The reference's smart-account flow is refused by name rather than answered with an EOA's plan; a Safe's plan of a paid
    // link is a 409 like any other (tests/secure-payments/safe-payer.test.ts pays links from a Safe).
    const q = (extra: string) =>
      call(payLink, `/v2/secure-payments/${created.body.token}/pay?wallet=${devnet.accounts.payer.address}&${extra}`, {
        params: { token: created.body.token },
      });
    expect((await q("isSafe=true")).status).toBe(409);
    expect((await q(`isSafe=true&eoaWallet=${devnet.accounts.payee.address}`)).body.errors[0].field).toBe("eoaWallet");
    expect((await q(`eoaWallet=${devnet.accounts.payee.address}`)).body.errors[0].field).toBe("eoaWallet");
    // The reference's batch fields: the same transactions, split into approvals and the batch call.
    expect(plan.paymentType).toBe("batch");
    expect(plan.batchPaymentTransaction).toEqual(plan.transactions.at(-1));
    expect(plan.ERC20ApprovalTransactions).toEqual(plan.transactions.slice(0, -1));
    expect(plan.metadata.approvalTransactionsCount).toBe(plan.ERC20ApprovalTransactions.length);
    const view = await call(pageView, `/v2/secure-payments/${created.body.token}`, { params: { token: created.body.token } });
    expect(view.body).toMatchObject({
      paymentType: "batch",
      status: "completed",
      requestIds: created.body.requestIds,
      amounts: ["1", "2"],
      paymentCurrencies: ["USDC-sepolia", "USDC-sepolia"],
      isNativeCurrency: [false, false],
    });
    expect(view.body.destinations).toHaveLength(2);
    expect(view.body.checkout).toMatchObject({ status: "completed", paymentType: "batch" });
    expect(view.body.checkout.completedAt).not.toBeNull();
    expectDocumentedView(view.body);
    expect((await bySession(created.body.requestIds[1])).body).toMatchObject({ status: "completed", paymentType: "batch" });
  });

  it("the expiry sweep settles a paid link left pending by a crash", async () => {
    const created = await link({ requests: [{ amount: "4" }] });
    await payFromPage(created.body.token);
    await db().securePayment.update({ where: { token: created.body.token }, data: { status: "pending", completedAt: null } });
    expect((await sweepExpiry()).securePayments.settled).toBe(1);
    expect((await bySession(created.body.requestIds[0])).body.status).toBe("completed");
  });

  it("expires pending links after 7 days", async () => {
    const created = await link({ requests: [{ amount: "1" }] });
    const t0 = Date.now();
    setClock(() => t0 + 7 * 24 * 3_600_000 + 1000);
    const view = await call(pageView, `/v2/secure-payments/${created.body.token}`, { params: { token: created.body.token } });
    expect(view.body.status).toBe("expired");
    expect(
      (
        await call(payLink, `/v2/secure-payments/${created.body.token}/pay?wallet=${devnet.accounts.payer.address}`, {
          params: { token: created.body.token },
        })
      ).status,
    ).toBe(409);
    expect((await sweepExpiry()).securePayments.expired).toBe(1);
    expect((await bySession(created.body.requestIds[0])).body.status).toBe("expired");
  });

  it("a session (Bearer or cookie) creates a link as the reference allows, on the account's active destination", async () => {
    const bearer = await link({ requests: [{ amount: "3" }], reference: "SESSION-1" }, { authorization: `Bearer ${session}` });
    expect(bearer.status, JSON.stringify(bearer.body)).toBe(201);
    // A cookie write must come from the app's own origin (CSRF), as every cookie-authenticated write.
    const foreign = await link({ requests: [{ amount: "4" }] }, { cookie: `session_token=${session}`, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const cookie = await link(
      { requests: [{ amount: "4" }] },
      { cookie: `session_token=${session}`, origin: new URL(env().APP_URL).origin },
    );
    expect(cookie.status, JSON.stringify(cookie.body)).toBe(201);
    const view = await bySession(bearer.body.requestIds[0]);
    expect(view.status).toBe(200);
    expect((await link({ requests: [{ amount: "1" }] }, { authorization: "Bearer not-a-session" })).status).toBe(401);
  });

  it("guards access: 401 without a session, 404 for another account, 403 for another destination than the bound one, 400 for a multi-item Tron link", async () => {
    const created = await link({ requests: [{ amount: "1" }] });
    const requestId = created.body.requestIds[0];
    expect((await call(getSecurePayment, `/v2/secure-payments?requestId=${requestId}`)).status).toBe(401);
    const b = await makeIntegrator();
    expect((await bySession(requestId, await sessionFor(b.account.id))).status).toBe(404);
    const bound = await db().payeeDestination.findFirstOrThrow({ where: { accountId: a.account.id, active: true } });
    await bindClientIdDestination(a.account.id, a.clientId, bound.id);
    const other = await call(createDestination, "/v2/payee-destination", {
      method: "POST",
      headers: { authorization: `Bearer ${await walletSessionToken(a.account.id, devnet.accounts.feeRecipient.address)}` },
      json: { currency: "USDT-sepolia", walletAddress: devnet.accounts.feeRecipient.address },
    });
    const mismatch = await link({ requests: [{ amount: "1" }], destinationId: other.body.destinationId });
    expect(mismatch.status).toBe(403);
    expect(mismatch.body.code).toBe("destination_mismatch");
    await call(createDestination, "/v2/payee-destination", {
      method: "POST",
      headers: { authorization: `Bearer ${await walletSessionToken(a.account.id, "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW")}` },
      json: { currency: "USDT-tron", walletAddress: "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW" },
    });
    const tron = await link({ requests: [{ amount: "1" }, { amount: "2" }] }, { "x-api-key": a.apiKey });
    expect(tron.status).toBe(400);
    expect(tron.body.message).toBe("Batch payments are not supported for TRON networks. Please submit individual payment requests.");
    const single = await link({ requests: [{ amount: "1" }] }, { "x-api-key": a.apiKey });
    expect(single.status).toBe(201);
    const view = await call(pageView, `/v2/secure-payments/${single.body.token}`, { params: { token: single.body.token } });
    expect(view.body.network).toBe("tron");
    expect(view.body.checkout.network).toMatchObject({ id: "tron", kind: "tron" });
    expectDocumentedView(view.body);
  });

  it("screens the payee of an outgoing link at creation", async () => {
    const ok = await call(createPayoutLink, "/v2/secure-payments/payouts", {
      method: "POST",
      headers: { "x-client-id": a.clientId },
      json: {
        recipient: devnet.accounts.payee.address,
        creatorWalletAddress: devnet.accounts.payer.address,
        network: "sepolia",
        currency: "USDC-sepolia",
        amount: "5",
      },
    });
    expect(ok.status).toBe(201);
    const sp = await bySession(ok.body.requestIds[0]);
    expect(sp.body).toMatchObject({ status: "pending", childExecutable: true, blockReason: null });
    expect(sp.body.payeeKytResults[0]).toMatchObject({ status: "approved", walletAddress: devnet.accounts.payee.address });
    const sanctioned = "0x8589427373D6D84E98730D7795D8f6f8731FDA16"; // on the bundled OFAC list
    const bad = await call(createPayoutLink, "/v2/secure-payments/payouts", {
      method: "POST",
      headers: { "x-client-id": a.clientId },
      json: {
        recipient: sanctioned,
        creatorWalletAddress: devnet.accounts.payer.address,
        network: "sepolia",
        currency: "USDC-sepolia",
        amount: "5",
      },
    });
    const failed = await bySession(bad.body.requestIds[0]);
    expect(failed.body).toMatchObject({ status: "compliance_failed", blockReason: "compliance_failed" });
    expect(failed.body.payeeKytResults[0]).toMatchObject({ status: "rejected", reasonCode: "sanctioned_address" });
  });

  it("creates a keyed link once: its nested transaction joins the request's, and a retry replays it", async () => {
    const headers = { "x-client-id": a.clientId, "idempotency-key": "link-order-9" };
    const [first, second] = await Promise.all([
      link({ requests: [{ amount: "3" }] }, headers),
      link({ requests: [{ amount: "3" }] }, headers),
    ]);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.token).toBe(first.body.token);
    expect(await db().securePayment.count()).toBe(1);
    expect(await db().securePaymentRequest.count()).toBe(1);
    const refused = await link({ requests: [{ amount: "-1" }] }, { ...headers, "idempotency-key": "link-order-10" });
    expect(refused.status).toBe(400);
    expect(await db().idempotencyRecord.count()).toBe(1);
  });
});

describe("POST /v2/secure-payments/{token}/intent", () => {
  it("records the payer's transaction: processing in the dashboard until detection confirms it; then the link refuses new intents", async () => {
    const { requestDetail } = await import("@/lib/requests/request-detail");
    const { POST: intent } = await import("@/app/v2/secure-payments/[token]/intent/route");
    const created = await link({ requests: [{ amount: "3" }] });
    expect(created.status).toBe(201);
    const token = created.body.token as string;
    const requestId = created.body.requestIds[0] as string;
    const post = (json: unknown, t = token) =>
      call(intent, `/v2/secure-payments/${t}/intent`, { method: "POST", params: { token: t }, json });

    const bad = await post({ txHash: "0x1234" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("txHash");
    expect((await post({})).status).toBe(400);
    expect((await post({ txHash: `0x${"ab".repeat(32)}` }, "nosuchtoken")).status).toBe(404);

    const payer = privateKeyToAccount(devnet.accounts.payer.privateKey);
    const plan = await call(payLink, `/v2/secure-payments/${token}/pay?wallet=${payer.address}`, { params: { token } });
    const wallet = createWalletClient({ account: payer, chain: devnet.chain, transport: http(devnet.rpcUrl) });
    let paymentHash = "";
    for (const tx of plan.body.transactions) {
      paymentHash = await wallet.sendTransaction({ to: tx.to, data: tx.data });
      await pub.waitForTransactionReceipt({ hash: paymentHash as `0x${string}` });
    }
    const recorded = await post({ txHash: paymentHash, payerAddress: payer.address, chain: "SEPOLIA", token: "USDC" });
    expect(recorded.status).toBe(200);
    expect(recorded.body).toMatchObject({ txHash: paymentHash.toLowerCase(), isListening: true, payerAddress: payer.address });
    expect(recorded.body.paymentReference).toMatch(/^0x[0-9a-f]{16}$/);
    expect((await post({ txHash: paymentHash })).status).toBe(200);
    const before = await requestDetail(a.account.id, requestId);
    expect(before.link?.processing?.txHash).toBe(paymentHash.toLowerCase());
    expect(before.request.hasBeenPaid).toBe(false);

    await sweepDetectionNetwork(evmEventSource("sepolia")!);
    const after = await requestDetail(a.account.id, requestId);
    expect(after.request.hasBeenPaid).toBe(true);
    expect(after.link?.processing).toBeNull();
    const late = await post({ txHash: `0x${"cd".repeat(32)}` });
    expect(late.status).toBe(409);
  });
});
