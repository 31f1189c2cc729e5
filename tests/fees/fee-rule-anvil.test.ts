/**
 * Issue #24 item 1, on anvil: a link with a platform fee is not paid by a transfer through the
 * ERC20FeeProxy that skips the fee. The request stays partially_paid with subStatus fee_short and
 * the missing fee named (API, webhook event); the link's pay plan then asks for the fee alone
 * (amount 0 plus the fee), and paying it completes the link. Every fee leg of a plan with several
 * destinations is checked, and a fee sent to another address does not count.
 *
 * Expected amounts are fixed vectors worked out by hand from the fee configuration (5 % of 100 USDC
 * = 5 USDC; 3 % + 2 % to two addresses); calldata is decoded with an ABI written here from the
 * contract's signature, not the app's.
 */
import { createPublicClient, createWalletClient, decodeFunctionData, erc20Abi, http, type PublicClient, parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { GET as payRequest } from "@/app/v2/request/[requestId]/pay/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { GET as payLink } from "@/app/v2/secure-payments/[token]/pay/route";
import { GET as pageView } from "@/app/v2/secure-payments/[token]/route";
import { POST as createMulticall } from "@/app/v2/secure-payments/multicall-payouts/route";
import { POST as createPayoutLink } from "@/app/v2/secure-payments/payouts/route";
import { POST as createLink, GET as securePaymentByRequest } from "@/app/v2/secure-payments/route";
import { batchConversionPaymentsAbi } from "@/lib/chain/abis";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { prefixedId } from "@/lib/ids";
import { type Devnet, devAccount } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { payLinkOnDevnet } from "@/tests/helpers/pay-link";

/** ERC20FeeProxy's payment function, from its Solidity signature (docs/spec/reference-notes.md §2). */
const feeProxyAbi = parseAbi([
  "function transferFromWithReferenceAndFee(address _tokenAddress, address _to, uint256 _amount, bytes _paymentReference, uint256 _feeAmount, address _feeAddress)",
]);

let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
/** A second fee destination (an anvil dev account no role uses). */
const OTHER_FEE = devAccount(7).address;
/** An address the plan does not name: a fee sent here counts for nothing. */
const STRANGER = devAccount(8).address;

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }) as PublicClient;
}, 60_000);
afterAll(() => stopDevnet(devnet));

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  const dest = await call(createDestination, "/v2/payee-destination", {
    method: "POST",
    headers: { authorization: `Bearer ${await walletSessionToken(a.account.id, devnet.accounts.payee.address)}` },
    json: { currency: "USDC-sepolia", walletAddress: devnet.accounts.payee.address },
  });
  expect(dest.status).toBe(201);
});

/** A payer-borne fee configuration of the account (several rows make a plan with several entries). */
async function feeConfig(bps: number, evmAddress: string, createdAt = new Date(), flow: "get_paid" | "pay" = "get_paid") {
  await db().feeConfig.create({
    data: {
      id: prefixedId("fee_"),
      accountId: a.account.id,
      flow,
      percentageBps: bps,
      feeBearer: "payer",
      evmAddress,
      createdAt,
    },
  });
}

async function newLink(amounts: string[]) {
  const res = await call(createLink, "/v2/secure-payments", {
    method: "POST",
    headers: { "x-client-id": a.clientId },
    json: { requests: amounts.map((amount) => ({ amount })) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const requestIds = res.body.requestIds as string[];
  const rows = await db().paymentRequest.findMany({ where: { id: { in: requestIds } } });
  const order = new Map(requestIds.map((id, i) => [id, i]));
  return { token: res.body.token as string, requests: rows.sort((x, y) => order.get(x.id)! - order.get(y.id)!) };
}

const usdc = (n: string) => BigInt(Math.round(Number(n) * 1e6));
const balance = (owner: string) =>
  pub.readContract({ address: devnet.tokens.USDC, abi: erc20Abi, functionName: "balanceOf", args: [owner as `0x${string}`] });

/** The payer calls the fee proxy directly, as a payer who crafts their own transaction would. */
async function payThroughProxy(reference: string, amount: bigint, fee: bigint, feeAddress: string) {
  const wallet = createWalletClient({
    account: privateKeyToAccount(devnet.accounts.payer.privateKey),
    chain: devnet.chain,
    transport: http(devnet.rpcUrl),
  });
  const approve = await wallet.writeContract({
    address: devnet.tokens.USDC,
    abi: erc20Abi,
    functionName: "approve",
    args: [devnet.contracts.erc20FeeProxy, amount + fee],
  });
  await pub.waitForTransactionReceipt({ hash: approve });
  const hash = await wallet.writeContract({
    address: devnet.contracts.erc20FeeProxy,
    abi: feeProxyAbi,
    functionName: "transferFromWithReferenceAndFee",
    args: [devnet.tokens.USDC, devnet.accounts.payee.address, amount, reference as `0x${string}`, fee, feeAddress as `0x${string}`],
  });
  expect((await pub.waitForTransactionReceipt({ hash })).status).toBe("success");
  await sweepDetectionNetwork(evmEventSource("sepolia")!);
  return hash;
}

const requestView = (id: string) =>
  call(getRequest, `/v2/request/${id}`, { headers: { "x-api-key": a.apiKey }, params: { requestId: id } });
const linkView = (token: string) => call(pageView, `/v2/secure-payments/${token}`, { params: { token } });
const plan = (token: string) =>
  call(payLink, `/v2/secure-payments/${token}/pay?wallet=${devnet.accounts.payer.address}`, { params: { token } });

/** The fee-proxy calls of a plan, decoded: [amount, feeAmount, feeAddress] each. */
function proxyCalls(transactions: { to: string; data: `0x${string}` }[]) {
  return transactions
    .filter((t) => t.to.toLowerCase() === devnet.contracts.erc20FeeProxy.toLowerCase())
    .map((t) => {
      const { args } = decodeFunctionData({ abi: feeProxyAbi, data: t.data });
      return { to: args[1], amount: args[2], fee: args[4], feeAddress: args[5] };
    });
}

/** The batch call's legs, decoded: [recipient, amount, fee] each, and the one fee address. */
function batchLegs(data: `0x${string}`) {
  const { args } = decodeFunctionData({ abi: batchConversionPaymentsAbi, data });
  const [metaDetails, , feeAddress] = args as unknown as [
    { requestDetails: { recipient: string; requestAmount: bigint; feeAmount: bigint }[] }[],
    unknown,
    string,
  ];
  return {
    legs: metaDetails.flatMap((m) => m.requestDetails.map((d) => [d.recipient, d.requestAmount, d.feeAmount])),
    feeAddress,
  };
}

type Item = { state: string; amount: string; due: string; dueFee: string; feeShort: boolean };
const itemsOf = (checkout: { items: Item[] }) => checkout.items.map((i) => [i.state, i.amount, i.due, i.dueFee, i.feeShort]);

/** A 2 % "pay" fee, two payout links (10 and 25 USDC to the payee) and a multicall parent over them. */
async function multicallOfTwoPayouts() {
  await feeConfig(200, devnet.accounts.feeRecipient.address, new Date(), "pay");
  const payee = devnet.accounts.payee.address;
  const fee = devnet.accounts.feeRecipient.address;
  const payout = async (amount: string) => {
    const res = await call(createPayoutLink, "/v2/secure-payments/payouts", {
      method: "POST",
      headers: { "x-api-key": a.apiKey },
      json: {
        recipient: payee,
        creatorWalletAddress: devnet.accounts.payer.address,
        network: "sepolia",
        currency: "USDC-sepolia",
        amount,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { token: string; requestIds: string[] };
  };
  const [one, two] = [await payout("10"), await payout("25")];
  const created = await call(createMulticall, "/v2/secure-payments/multicall-payouts", {
    method: "POST",
    headers: { "x-api-key": a.apiKey },
    json: { childTokens: [one.token, two.token] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { payee, fee, one, two, parent: created.body.token as string };
}

describe("the fee rule on anvil (issue #24)", () => {
  it("a payment through the fee proxy with fee 0 leaves the link partially paid, fee_short; paying the missing fee completes it", async () => {
    await feeConfig(500, devnet.accounts.feeRecipient.address);
    const { token, requests } = await newLink(["100"]);
    const r = requests[0]!;
    expect(r.expectedAmount.toFixed()).toBe("100000000");
    expect(r.feeAmount.toFixed()).toBe("5000000");
    const feeBefore = await balance(devnet.accounts.feeRecipient.address);
    const payeeBefore = await balance(devnet.accounts.payee.address);

    await payThroughProxy(r.paymentReference, usdc("100"), 0n, devnet.accounts.feeRecipient.address);
    expect((await balance(devnet.accounts.payee.address)) - payeeBefore).toBe(100_000_000n);
    expect(await balance(devnet.accounts.feeRecipient.address)).toBe(feeBefore);

    const missing = [{ type: "platform", feeAddress: devnet.accounts.feeRecipient.address, amount: "5", currency: "USDC" }];
    const status = await requestView(r.id);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      status: "partially_paid",
      hasBeenPaid: false,
      subStatus: "fee_short",
      missingFees: missing,
      totalAmountPaid: "100",
      expectedAmount: "100",
    });
    const view = await linkView(token);
    expect(view.body).toMatchObject({ status: "pending", subStatus: "fee_short", missingFees: missing });
    expect(view.body.checkout).toMatchObject({ status: "pending", subStatus: "fee_short", amountDue: "5" });
    const byRequest = await call(securePaymentByRequest, `/v2/secure-payments?requestId=${r.id}`, {
      headers: { authorization: `Bearer ${await walletSessionToken(a.account.id, devnet.accounts.payee.address)}` },
    });
    expect(byRequest.status, JSON.stringify(byRequest.body)).toBe(200);
    expect(byRequest.body).toMatchObject({ status: "pending", subStatus: "fee_short", missingFees: missing });

    // The webhook: payment.partial with the reason; no payment.confirmed.
    const events = await db().outboxEvent.findMany({ where: { requestId: r.id } });
    expect(events.map((e) => e.type)).toEqual(["payment.partial"]);
    expect(JSON.parse(events[0]!.payload)).toMatchObject({
      event: "payment.partial",
      requestId: r.id,
      subStatus: "fee_short",
      amount: "100",
      totalAmountPaid: "100",
      expectedAmount: "100",
      missingFees: missing,
      fees: [],
    });

    // The plan asks for exactly what is missing: amount 0 plus the 5 USDC fee, to the plan's fee address.
    const p = await plan(token);
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(proxyCalls(p.body.transactions)).toEqual([
      { to: devnet.accounts.payee.address, amount: 0n, fee: 5_000_000n, feeAddress: devnet.accounts.feeRecipient.address },
    ]);
    await payLinkOnDevnet(devnet, pub, token);
    expect((await balance(devnet.accounts.feeRecipient.address)) - feeBefore).toBe(5_000_000n);
    expect((await balance(devnet.accounts.payee.address)) - payeeBefore).toBe(100_000_000n);
    expect((await requestView(r.id)).body).toMatchObject({ status: "paid", hasBeenPaid: true, subStatus: null, missingFees: null });
    expect((await linkView(token)).body).toMatchObject({ status: "completed", subStatus: null, missingFees: [] });
    const confirmed = await db().outboxEvent.findMany({ where: { requestId: r.id, type: "payment.confirmed" } });
    expect(confirmed).toHaveLength(1);
    expect(JSON.parse(confirmed[0]!.payload)).toMatchObject({
      amount: "0",
      totalAmountPaid: "100",
      subStatus: "",
      fees: [{ type: "platform", amount: "5", currency: "USDC" }],
    });
    // Re-scanning the same blocks records nothing again (once-only detection).
    await db().chainCursor.update({ where: { network: "sepolia" }, data: { lastBlock: 0n } });
    expect(await sweepDetectionNetwork(evmEventSource("sepolia")!)).toMatchObject({ recorded: 0 });
    expect(await db().outboxEvent.count({ where: { requestId: r.id } })).toBe(2);
  }, 90_000);

  it("a fee sent to another address does not count toward the fee", async () => {
    await feeConfig(500, devnet.accounts.feeRecipient.address);
    const { token, requests } = await newLink(["100"]);
    const r = requests[0]!;
    await payThroughProxy(r.paymentReference, usdc("100"), usdc("5"), STRANGER);
    expect((await requestView(r.id)).body).toMatchObject({
      status: "partially_paid",
      subStatus: "fee_short",
      missingFees: [{ feeAddress: devnet.accounts.feeRecipient.address, amount: "5" }],
    });
    expect(proxyCalls((await plan(token)).body.transactions)).toEqual([
      { to: devnet.accounts.payee.address, amount: 0n, fee: 5_000_000n, feeAddress: devnet.accounts.feeRecipient.address },
    ]);
    await payLinkOnDevnet(devnet, pub, token);
    expect((await requestView(r.id)).body).toMatchObject({ status: "paid", subStatus: null });
    // payment.confirmed reports the fee the plan's address got, not the 5 sent elsewhere.
    const confirmed = await db().outboxEvent.findFirstOrThrow({ where: { requestId: r.id, type: "payment.confirmed" } });
    expect(JSON.parse(confirmed.payload).fees).toEqual([{ type: "platform", amount: "5", currency: "USDC" }]);
  }, 60_000);

  it("a partial payment owes its share of the fee: short → fee_short; an over-paid fee leaves only the amount to pay", async () => {
    await feeConfig(500, devnet.accounts.feeRecipient.address);
    const { token, requests } = await newLink(["100"]);
    const r = requests[0]!;
    // 40 of 100 paid: the fee's share is 2; 1 is sent.
    await payThroughProxy(r.paymentReference, usdc("40"), usdc("1"), devnet.accounts.feeRecipient.address);
    expect((await requestView(r.id)).body).toMatchObject({
      status: "partially_paid",
      subStatus: "fee_short",
      missingFees: [{ amount: "1" }],
      totalAmountPaid: "40",
    });
    // 20 more with a fee of 6: 60 paid, fee 7 ≥ its share of 3 (and above the whole fee of 5).
    await payThroughProxy(r.paymentReference, usdc("20"), usdc("6"), devnet.accounts.feeRecipient.address);
    expect((await requestView(r.id)).body).toMatchObject({
      status: "partially_paid",
      subStatus: null,
      missingFees: null,
      totalAmountPaid: "60",
    });
    // The fee is paid in full: the plan asks for the 40 left and no fee.
    const p = await plan(token);
    expect(proxyCalls(p.body.transactions)).toEqual([
      { to: devnet.accounts.payee.address, amount: 40_000_000n, fee: 0n, feeAddress: devnet.accounts.feeRecipient.address },
    ]);
    await payLinkOnDevnet(devnet, pub, token);
    expect((await requestView(r.id)).body).toMatchObject({ status: "paid", subStatus: null });
    expect((await linkView(token)).body.status).toBe("completed");
  }, 90_000);

  it("a plan with fee entries to two addresses: each must receive its share; over-paying one does not pay the other", async () => {
    await feeConfig(300, devnet.accounts.feeRecipient.address, new Date("2026-01-01T00:00:00Z"));
    await feeConfig(200, OTHER_FEE, new Date("2026-01-02T00:00:00Z"));
    const { token, requests } = await newLink(["100"]);
    const r = requests[0]!;
    expect(r.feeAmount.toFixed()).toBe("5000000");
    expect(r.feeLegs).toEqual([
      { address: devnet.accounts.feeRecipient.address, amount: "3000000" },
      { address: OTHER_FEE, amount: "2000000" },
    ]);
    // A fresh plan pays both legs: the payment carries the first, a fee-only transfer the second.
    expect(proxyCalls((await plan(token)).body.transactions)).toEqual([
      { to: devnet.accounts.payee.address, amount: 100_000_000n, fee: 3_000_000n, feeAddress: devnet.accounts.feeRecipient.address },
      { to: devnet.accounts.payee.address, amount: 0n, fee: 2_000_000n, feeAddress: OTHER_FEE },
    ]);

    // The whole 5 to the first address: the first leg is over-paid, the second gets nothing.
    await payThroughProxy(r.paymentReference, usdc("100"), usdc("5"), devnet.accounts.feeRecipient.address);
    expect((await requestView(r.id)).body).toMatchObject({
      status: "partially_paid",
      subStatus: "fee_short",
      missingFees: [{ type: "platform", feeAddress: OTHER_FEE, amount: "2", currency: "USDC" }],
    });
    const otherBefore = await balance(OTHER_FEE);
    const p = await plan(token);
    expect(proxyCalls(p.body.transactions)).toEqual([
      { to: devnet.accounts.payee.address, amount: 0n, fee: 2_000_000n, feeAddress: OTHER_FEE },
    ]);
    await payLinkOnDevnet(devnet, pub, token);
    expect((await balance(OTHER_FEE)) - otherBefore).toBe(2_000_000n);
    expect((await requestView(r.id)).body).toMatchObject({ status: "paid", subStatus: null });
    expect((await linkView(token)).body.status).toBe("completed");
  }, 90_000);

  it("a two-address plan paid by its own plan in one go completes the link", async () => {
    await feeConfig(300, devnet.accounts.feeRecipient.address, new Date("2026-01-01T00:00:00Z"));
    await feeConfig(200, OTHER_FEE, new Date("2026-01-02T00:00:00Z"));
    const { token, requests } = await newLink(["40"]);
    const [feeBefore, otherBefore] = await Promise.all([balance(devnet.accounts.feeRecipient.address), balance(OTHER_FEE)]);
    await payLinkOnDevnet(devnet, pub, token);
    expect((await balance(devnet.accounts.feeRecipient.address)) - feeBefore).toBe(1_200_000n);
    expect((await balance(OTHER_FEE)) - otherBefore).toBe(800_000n);
    expect((await requestView(requests[0]!.id)).body).toMatchObject({ status: "paid", subStatus: null });
    expect((await linkView(token)).body.status).toBe("completed");
  }, 90_000);

  it("a batch plan with a fee-only leg checks the payer's balance against everything it sends (batch and fee legs together)", async () => {
    await feeConfig(300, devnet.accounts.feeRecipient.address, new Date("2026-01-01T00:00:00Z"));
    await feeConfig(200, OTHER_FEE, new Date("2026-01-02T00:00:00Z"));
    const { token } = await newLink(["40", "60"]);
    const wallet = devAccount(12).address;
    const planFor = async () => {
      const res = await call(payLink, `/v2/secure-payments/${token}/pay?wallet=${wallet}`, { params: { token } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { transactions: { to: string; data: `0x${string}` }[]; metadata: { hasEnoughBalance: boolean } };
    };
    // The batch carries 100 USDC and the 3 % leg (3 USDC, plus the contract's batch fee); the 2 % leg (2 USDC) is a fee-only call.
    const first = await planFor();
    expect(proxyCalls(first.transactions)).toEqual([
      { to: devnet.accounts.payee.address, amount: 0n, fee: 800_000n, feeAddress: OTHER_FEE },
      { to: devnet.accounts.payee.address, amount: 0n, fee: 1_200_000n, feeAddress: OTHER_FEE },
    ]);
    const approvals = first.transactions
      .filter((t) => t.to.toLowerCase() === devnet.tokens.USDC.toLowerCase())
      .map((t) => decodeFunctionData({ abi: erc20Abi, data: t.data }))
      .filter((d) => d.functionName === "approve")
      .map((d) => d.args as readonly [string, bigint]);
    const toBatch = approvals.find(([spender]) => spender.toLowerCase() === devnet.contracts.batchPayments.toLowerCase())![1];
    expect(toBatch).toBeGreaterThanOrEqual(103_000_000n);
    const payer = createWalletClient({
      account: privateKeyToAccount(devnet.accounts.payer.privateKey),
      chain: devnet.chain,
      transport: http(devnet.rpcUrl),
    });
    const fund = async (amount: bigint) => {
      const hash = await payer.writeContract({
        address: devnet.tokens.USDC,
        abi: erc20Abi,
        functionName: "transfer",
        args: [wallet, amount],
      });
      await pub.waitForTransactionReceipt({ hash });
    };
    // Enough for the batch alone, not for the fee-only leg after it: not enough balance.
    await fund(toBatch);
    expect((await planFor()).metadata.hasEnoughBalance).toBe(false);
    // The 2 USDC of the fee-only leg on top: enough.
    await fund(2_000_000n);
    expect((await planFor()).metadata.hasEnoughBalance).toBe(true);
  }, 90_000);

  it("a batch link (BatchConversionPayments) goes through the same rule: a short fee on one request keeps the link pending", async () => {
    await feeConfig(500, devnet.accounts.feeRecipient.address);
    const { token, requests } = await newLink(["50", "30"]);
    const [r1, r2] = requests as [(typeof requests)[0], (typeof requests)[0]];
    // The first request is paid alone, without its fee; then the link's batch plan.
    await payThroughProxy(r1.paymentReference, usdc("50"), 0n, devnet.accounts.feeRecipient.address);
    expect((await requestView(r1.id)).body).toMatchObject({ subStatus: "fee_short", missingFees: [{ amount: "2.5" }] });
    expect((await linkView(token)).body).toMatchObject({ status: "pending", subStatus: "fee_short" });
    expect((await linkView(token)).body.checkout).toMatchObject({ amountDue: "34" }); // 2.5 + 30 + 1.5
    const feeBefore = await balance(devnet.accounts.feeRecipient.address);
    const p = await payLinkOnDevnet(devnet, pub, token);
    expect(p.paymentType).toBe("batch");
    expect((await balance(devnet.accounts.feeRecipient.address)) - feeBefore).toBeGreaterThanOrEqual(4_000_000n);
    expect((await requestView(r1.id)).body).toMatchObject({ status: "paid", subStatus: null });
    expect((await requestView(r2.id)).body).toMatchObject({ status: "paid", subStatus: null });
    expect((await linkView(token)).body.status).toBe("completed");
  }, 90_000);

  it("a batch link whose first request's amount arrived without its fee: the page and the plan ask that fee and nothing for the others", async () => {
    await feeConfig(500, devnet.accounts.feeRecipient.address);
    const { token, requests } = await newLink(["50", "30", "20"]);
    const [r1, r2, r3] = requests as [(typeof requests)[0], (typeof requests)[0], (typeof requests)[0]];
    const fee = devnet.accounts.feeRecipient.address;
    const payee = devnet.accounts.payee.address;
    // r1: its 50 without its 2.5 fee; r2: its 30 with its 1.5 fee; r3 not paid yet.
    await payThroughProxy(r1.paymentReference, usdc("50"), 0n, fee);
    await payThroughProxy(r2.paymentReference, usdc("30"), usdc("1.5"), fee);
    expect((await requestView(r2.id)).body).toMatchObject({ status: "paid", subStatus: null });

    // 5 % of 50 = 2.5 missing on r1; r3 owes 20 + 1; r2 nothing.
    let checkout = (await linkView(token)).body.checkout;
    expect(checkout).toMatchObject({ status: "pending", subStatus: "fee_short", totalAmount: "23.5", amountDue: "23.5", payerFees: "3.5" });
    expect(checkout.missingFees).toEqual([{ type: "platform", feeAddress: fee, amount: "2.5", currency: "USDC" }]);
    expect(itemsOf(checkout)).toEqual([
      ["due", "50", "0", "2.5", true],
      ["paid", "30", "0", "0", false],
      ["due", "20", "20", "1", false],
    ]);
    expect(checkout.recipients).toEqual([payee]);
    let p = await plan(token);
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(batchLegs(p.body.batchPaymentTransaction.data)).toEqual({
      legs: [
        [payee, 0n, 2_500_000n],
        [payee, 20_000_000n, 1_000_000n],
      ],
      feeAddress: fee,
    });

    // r3 paid in full: only r1's fee is left — one fee-proxy call, amount 0, fee 2.5, nothing to anyone else.
    await payThroughProxy(r3.paymentReference, usdc("20"), usdc("1"), fee);
    checkout = (await linkView(token)).body.checkout;
    expect(checkout).toMatchObject({ subStatus: "fee_short", totalAmount: "2.5", amountDue: "2.5", payerFees: "2.5" });
    expect(itemsOf(checkout)).toEqual([
      ["due", "50", "0", "2.5", true],
      ["paid", "30", "0", "0", false],
      ["paid", "20", "0", "0", false],
    ]);
    // Nobody receives an amount; the fee address receives the fee.
    expect(checkout.recipients).toEqual([]);
    expect(checkout.feeRecipients).toEqual([fee]);
    p = await plan(token);
    expect(proxyCalls(p.body.transactions)).toEqual([{ to: payee, amount: 0n, fee: 2_500_000n, feeAddress: fee }]);
    const feeBefore = await balance(fee);
    const payeeBefore = await balance(payee);
    await payLinkOnDevnet(devnet, pub, token);
    expect((await balance(fee)) - feeBefore).toBe(2_500_000n);
    expect(await balance(payee)).toBe(payeeBefore);
    expect((await requestView(r1.id)).body).toMatchObject({ status: "paid", subStatus: null });
    expect((await linkView(token)).body.status).toBe("completed");
  }, 120_000);

  it("a multicall whose child's amount arrived without its fee: the parent's page and plan send that fee alone", async () => {
    const { payee, fee, one, two, parent } = await multicallOfTwoPayouts();
    // 2 % of 10 = 0.2 and of 25 = 0.5: the whole multicall sends 35.7.
    expect((await linkView(parent)).body.checkout).toMatchObject({ totalAmount: "35.7", payerFees: "0.7" });

    // The first child's 10 arrives without its fee; the second is paid in full on its own link.
    const first = await db().paymentRequest.findUniqueOrThrow({ where: { id: one.requestIds[0] } });
    expect(first.feeAmount.toFixed()).toBe("200000");
    await payThroughProxy(first.paymentReference, usdc("10"), 0n, fee);
    await payLinkOnDevnet(devnet, pub, two.token);
    expect((await requestView(two.requestIds[0]!)).body).toMatchObject({ status: "paid" });
    expect((await requestView(first.id)).body).toMatchObject({ status: "partially_paid", subStatus: "fee_short" });

    const checkout = (await linkView(parent)).body.checkout;
    expect(checkout).toMatchObject({ status: "pending", subStatus: "fee_short", totalAmount: "0.2", payerFees: "0.2" });
    expect(itemsOf(checkout)).toEqual([
      ["due", "10", "0", "0.2", true],
      ["paid", "25", "0", "0", false],
    ]);
    expect(checkout.recipients).toEqual([]);
    expect(checkout.feeRecipients).toEqual([fee]);
    const p = await plan(parent);
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body.amounts).toEqual(["0"]);
    expect(proxyCalls(p.body.transactions)).toEqual([{ to: payee, amount: 0n, fee: 200_000n, feeAddress: fee }]);
    const feeBefore = await balance(fee);
    await payLinkOnDevnet(devnet, pub, parent);
    expect((await balance(fee)) - feeBefore).toBe(200_000n);
    expect((await requestView(first.id)).body).toMatchObject({ status: "paid", subStatus: null });
  }, 120_000);

  it("a multicall child whose amount was over-paid without its fee: the plan's amounts say 0 to the payee, as its batch sends", async () => {
    const { fee, one, parent } = await multicallOfTwoPayouts();
    // 11 USDC to the payee for a 10 USDC payout, fee 0: the amount is over-paid, its 0.2 fee missing.
    const first = await db().paymentRequest.findUniqueOrThrow({ where: { id: one.requestIds[0] } });
    await payThroughProxy(first.paymentReference, usdc("11"), 0n, fee);
    expect((await requestView(first.id)).body).toMatchObject({ status: "partially_paid", subStatus: "fee_short" });
    const p = await plan(parent);
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    // First child: its fee alone (0 to the payee); second: 25 and its 0.5 fee.
    expect(p.body.amounts).toEqual(["0", "25"]);
  }, 120_000);

  it("GET /v2/request/{id}/pay of a fee-short payout asks for the fee alone; cross-chain is refused for it", async () => {
    const created = await call(createPayout, "/v2/payouts", {
      method: "POST",
      headers: { "x-api-key": a.apiKey },
      json: {
        payee: devnet.accounts.payee.address,
        amount: "50",
        invoiceCurrency: "USD",
        paymentCurrency: "USDC-sepolia",
        feePercentage: "2",
        feeAddress: devnet.accounts.feeRecipient.address,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { requestId, paymentReference } = created.body as { requestId: string; paymentReference: string };
    await payThroughProxy(paymentReference, usdc("50"), 0n, devnet.accounts.feeRecipient.address);
    expect((await requestView(requestId)).body).toMatchObject({ subStatus: "fee_short", missingFees: [{ amount: "1" }] });
    const rest = await call(payRequest, `/v2/request/${requestId}/pay?wallet=${devnet.accounts.payer.address}`, {
      headers: { "x-api-key": a.apiKey },
      params: { requestId },
    });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(proxyCalls(rest.body.transactions)).toEqual([
      { to: devnet.accounts.payee.address, amount: 0n, fee: 1_000_000n, feeAddress: devnet.accounts.feeRecipient.address },
    ]);
    const crossChain = await call(payRequest, `/v2/request/${requestId}/pay?chain=BASE&token=USDC`, {
      headers: { "x-api-key": a.apiKey },
      params: { requestId },
    });
    expect(crossChain.status).toBe(400);
    expect(crossChain.body.errors).toEqual([
      expect.objectContaining({ field: "chain", message: expect.stringContaining("only the fee is missing") }),
    ]);
  }, 60_000);

  it("a request without a fee is paid by its amount alone, as before", async () => {
    const { token, requests } = await newLink(["10"]);
    const r = requests[0]!;
    expect(r.feeAmount.toFixed()).toBe("0");
    await payThroughProxy(r.paymentReference, usdc("10"), 0n, STRANGER);
    expect((await requestView(r.id)).body).toMatchObject({ status: "paid", subStatus: null, missingFees: null });
    expect((await linkView(token)).body.status).toBe("completed");
    expect((await db().outboxEvent.findMany({ where: { requestId: r.id } })).map((e) => e.type)).toEqual(["payment.confirmed"]);
  }, 60_000);
});
