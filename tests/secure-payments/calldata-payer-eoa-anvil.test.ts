/**
 * Issue 29 item 5, on anvil: POST /v2/secure-payments/{token}/calldata answers what GET /{token}/pay
 * answers for the same inputs (the reference documents the operation in prose only: its body is
 * GET /pay's query); `payerAddress` and `payerEoaAddress` in the secure payment's status and in
 * payment.confirmed are the same wallet for a plain key, and for a smart account (the repository's
 * TestSmartWallet, a contract its owner drives through execute(), standing in for a Safe) the
 * contract and the owner who sent the transaction.
 */
import { createPublicClient, createWalletClient, encodeFunctionData, erc20Abi, getAddress, type Hex, http, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { POST as calldata } from "@/app/v2/secure-payments/[token]/calldata/route";
import { GET as payLink } from "@/app/v2/secure-payments/[token]/pay/route";
import { POST as createLink, GET as securePaymentByRequest } from "@/app/v2/secure-payments/route";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { createSession } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { prefixedId } from "@/lib/ids";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let session: string;

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
  const user = await db().user.create({
    data: { id: prefixedId("usr_"), accountId: a.account.id, email: `${prefixedId("u")}@example.com` },
  });
  session = (await createSession(user, "email")).token;
});

const walletOf = (key: Hex) =>
  createWalletClient({ account: privateKeyToAccount(key), chain: devnet.chain, transport: http(devnet.rpcUrl) });

async function send(key: Hex, tx: { to: `0x${string}`; data: `0x${string}` }) {
  const receipt = await pub.waitForTransactionReceipt({ hash: await walletOf(key).sendTransaction(tx) });
  expect(receipt.status).toBe("success");
}

async function newLink(amount = "10") {
  const res = await call(createLink, "/v2/secure-payments", {
    method: "POST",
    headers: { "x-client-id": a.clientId },
    json: { requests: [{ amount }] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { token: res.body.token as string, requestId: res.body.requestIds[0] as string };
}

const postCalldata = (token: string, json: unknown) =>
  call(calldata, `/v2/secure-payments/${token}/calldata`, { method: "POST", json, params: { token } });
const getPay = (token: string, query: string) => call(payLink, `/v2/secure-payments/${token}/pay?${query}`, { params: { token } });
const status = (requestId: string) =>
  call(securePaymentByRequest, `/v2/secure-payments?requestId=${requestId}`, { headers: { authorization: `Bearer ${session}` } });
const confirmedEvent = async (requestId: string) =>
  JSON.parse((await db().outboxEvent.findFirstOrThrow({ where: { type: "payment.confirmed", requestId } })).payload);

describe("POST /v2/secure-payments/{token}/calldata", () => {
  it("answers GET /{token}/pay's plan for the same inputs, errors included", async () => {
    const { token } = await newLink();
    const wallet = devnet.accounts.payer.address;
    const viaGet = await getPay(token, `wallet=${wallet}`);
    const viaPost = await postCalldata(token, { wallet });
    expect(viaPost.status).toBe(200);
    expect(viaPost.body).toEqual(viaGet.body);
    expect(viaPost.body).toMatchObject({ paymentType: "single", metadata: { needsApproval: true } });
    // `isSafe: false` as a boolean is the query's "false".
    expect((await postCalldata(token, { wallet, isSafe: false })).body).toEqual(viaGet.body);
    // The same refusals, naming the same fields.
    for (const [body, query] of [
      [{ wallet: "0x123" }, "wallet=0x123"],
      [{ wallet, chain: "BASE" }, `wallet=${wallet}&chain=BASE`],
      [{ wallet, eoaWallet: devnet.accounts.payee.address }, `wallet=${wallet}&eoaWallet=${devnet.accounts.payee.address}`],
    ] as const) {
      const post = await postCalldata(token, body);
      const get = await getPay(token, query);
      expect(post.status, JSON.stringify(body)).toBe(get.status);
      expect(post.body.errors, JSON.stringify(body)).toEqual(get.body.errors);
    }
    // Body shape: wallet required, unknown fields refused, an unknown token is 404.
    expect((await postCalldata(token, {})).body.errors[0].field).toBe("wallet");
    expect((await postCalldata(token, { wallet, amount: "1" })).status).toBe(400);
    expect((await postCalldata("01JZZZZZZZZZZZZZZZZZZZZZZZ", { wallet })).status).toBe(404);
  });

  it("a plain wallet pays through the POST plan: payerAddress and payerEoaAddress are that wallet", async () => {
    const { token, requestId } = await newLink();
    const plan = await postCalldata(token, { wallet: devnet.accounts.payer.address });
    for (const tx of plan.body.transactions) await send(devnet.accounts.payer.privateKey, { to: tx.to, data: tx.data });
    await sweepDetectionNetwork(evmEventSource("sepolia")!);
    const s = await status(requestId);
    expect(s.body).toMatchObject({
      status: "completed",
      payerAddress: devnet.accounts.payer.address,
      payerEoaAddress: devnet.accounts.payer.address,
    });
    expect(await confirmedEvent(requestId)).toMatchObject({
      payerAddress: devnet.accounts.payer.address,
      payerEoaAddress: devnet.accounts.payer.address,
    });
  });

  it("a smart account pays: payerAddress is the contract, payerEoaAddress the owner that sent the transaction", async () => {
    const ownerKey = generatePrivateKey();
    const owner = privateKeyToAccount(ownerKey).address;
    // Gas for the owner, tokens for the wallet.
    await pub.waitForTransactionReceipt({
      hash: await walletOf(devnet.accounts.payer.privateKey).sendTransaction({ to: owner, value: 10n ** 18n }),
    });
    const deployed = await pub.waitForTransactionReceipt({
      hash: await walletOf(ownerKey).deployContract({
        abi: compiledContracts.TestSmartWallet.abi,
        bytecode: compiledContracts.TestSmartWallet.bytecode as Hex,
        args: [owner],
      }),
    });
    const smart = getAddress(deployed.contractAddress!);
    await send(devnet.accounts.payer.privateKey, {
      to: devnet.tokens.USDC,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [smart, 10_000_000n] }),
    });
    const { token, requestId } = await newLink();
    const plan = await postCalldata(token, { wallet: smart });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    // The owner has the wallet run each transaction (approve, then the fee-proxy payment).
    for (const tx of plan.body.transactions)
      await send(ownerKey, {
        to: smart,
        data: encodeFunctionData({ abi: compiledContracts.TestSmartWallet.abi, functionName: "execute", args: [tx.to, tx.data] }),
      });
    expect(await pub.readContract({ address: devnet.tokens.USDC, abi: erc20Abi, functionName: "balanceOf", args: [smart] })).toBe(0n);
    await sweepDetectionNetwork(evmEventSource("sepolia")!);
    const payment = await db().payment.findFirstOrThrow({ where: { requestId } });
    expect({ payer: payment.payer, payerEoa: payment.payerEoa }).toEqual({ payer: smart, payerEoa: owner });
    expect((await status(requestId)).body).toMatchObject({ status: "completed", payerAddress: smart, payerEoaAddress: owner });
    expect(await confirmedEvent(requestId)).toMatchObject({ event: "payment.confirmed", payerAddress: smart, payerEoaAddress: owner });
  });
});
