/**
 * Issue 31, "Done when" (escrow), through the API on anvil: authorize 100 (the payer signs EIP-3009 typed
 * data, Duebill's relayer submits) → capture 60 (through the fee proxy: detection records 60 paid) → void
 * 40 → refund 10 (from the payee's wallet with the refund calldata), the payer's and payee's token balances
 * read from the chain at each step; a second payment: capture after the deadline refused by name and the
 * contract reverts, the payer reclaims; webhooks of every state delivered, signed, to a real HTTP receiver;
 * another account's capture → 404.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicClient, createWalletClient, erc20Abi, type Hex, type PublicClient, http as viemHttp } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as authorize } from "@/app/v2/commerce-payments/[requestId]/authorize/route";
import { POST as captureCalldata } from "@/app/v2/commerce-payments/[requestId]/capture/calldata/route";
import { POST as capture } from "@/app/v2/commerce-payments/[requestId]/capture/route";
import { POST as refundCalldata } from "@/app/v2/commerce-payments/[requestId]/refund/calldata/route";
import { GET as status } from "@/app/v2/commerce-payments/[requestId]/status/route";
import { POST as voidPayment } from "@/app/v2/commerce-payments/[requestId]/void/route";
import { POST as prepare } from "@/app/v2/commerce-payments/authorize/calldata/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { commerceEscrowAbi } from "@/contracts/generated/abis.generated";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { ulid } from "@/lib/ids";
import { deliverDue } from "@/lib/webhooks/deliver";
import { fanOutEvents } from "@/lib/webhooks/fan-out";
import { encryptSecret } from "@/lib/webhooks/secret-box";
import { generateWebhookSecret, verifySignature } from "@/lib/webhooks/sign";
import type { Devnet } from "@/scripts/devnet";
import { chainTime, moveDevnetClock } from "@/scripts/devnet/time";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
const SECRET = generateWebhookSecret();
const received: { json: Record<string, string>; signed: boolean }[] = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const raw = Buffer.concat(chunks);
    received.push({
      json: JSON.parse(raw.toString("utf8")),
      signed: verifySignature(SECRET, raw, req.headers["x-duebill-signature"] as string),
    });
    res.writeHead(200).end("ok");
  });
});

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) }) as PublicClient;
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
}, 60_000);
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await stopDevnet(devnet);
});
beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  received.length = 0;
  await db().webhookEndpoint.create({
    data: {
      id: ulid(),
      accountId: a.account.id,
      clientId: null,
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      secretEnc: encryptSecret(SECRET),
    },
  });
});

const USDC = (n: bigint) => n * 1_000_000n;
const usdc = (owner: string) =>
  pub.readContract({ address: devnet.tokens.USDC, abi: erc20Abi, functionName: "balanceOf", args: [owner as Hex] });
const headers = () => ({ "x-api-key": a.apiKey });
const post = (handler: Parameters<typeof call>[0], path: string, requestId: string, json?: unknown, key = a.apiKey) =>
  call(handler, path, { method: "POST", headers: { "x-api-key": key }, params: { requestId }, json });
const wallet = (key: Hex) =>
  createWalletClient({ account: privateKeyToAccount(key), chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) });

async function sendAll(key: Hex, txs: { to: Hex; data: Hex }[]) {
  const w = wallet(key);
  for (const tx of txs) {
    const hash = await w.sendTransaction({ to: tx.to, data: tx.data });
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe("success");
  }
}

async function newRequest(amount: string) {
  const created = await call(createRequest, "/v2/request", {
    method: "POST",
    headers: headers(),
    json: { amount, invoiceCurrency: "USDC-sepolia", paymentCurrency: "USDC-sepolia", payee: devnet.accounts.payee.address },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.requestId as string;
}

/** authorize/calldata, the payer signs the typed data it returned, POST /authorize. */
async function authorizeBySignature(requestId: string, extra: Record<string, string> = {}) {
  const prepared = await call(prepare, "/v2/commerce-payments/authorize/calldata", {
    method: "POST",
    headers: headers(),
    json: { requestId, payerAddress: devnet.accounts.payer.address, ...extra },
  });
  expect(prepared.status, JSON.stringify(prepared.body)).toBe(201);
  const td = prepared.body.typedData;
  expect(td.domain).toMatchObject({ name: "Test USD Coin", version: "2", chainId: devnet.chainId, verifyingContract: devnet.tokens.USDC });
  const m = td.message;
  const signature = await privateKeyToAccount(devnet.accounts.payer.privateKey).signTypedData({
    domain: td.domain,
    types: td.types,
    primaryType: "ReceiveWithAuthorization",
    message: { ...m, value: BigInt(m.value), validAfter: BigInt(m.validAfter), validBefore: BigInt(m.validBefore) },
  });
  return post(authorize, `/v2/commerce-payments/${requestId}/authorize`, requestId, { signature });
}

async function hooks() {
  await fanOutEvents();
  await deliverDue({ allowPrivate: true });
  return received.map((r) => ({ ...r.json, signed: r.signed }) as Record<string, string> & { signed: boolean });
}

describe("commerce payments through the API on anvil", () => {
  it("authorize 100 → capture 60 → void 40 → refund 10: balances at each step, detection, webhooks, 404 for another account", async () => {
    const { payer, payee } = devnet.accounts;
    const requestId = await newRequest("100");
    const b0 = { payer: await usdc(payer.address), payee: await usdc(payee.address) };

    const auth = await authorizeBySignature(requestId);
    expect(auth.status, JSON.stringify(auth.body)).toBe(200);
    expect(auth.body).toMatchObject({ status: "authorized", authorizedAmount: "100", capturableAmount: "100", capturedAmount: "0" });
    expect(await usdc(payer.address)).toBe(b0.payer - USDC(100n));
    expect(await usdc(payee.address)).toBe(b0.payee);

    // Another account: the request is not theirs.
    const other = await makeIntegrator();
    const foreign = await post(capture, `/v2/commerce-payments/${requestId}/capture`, requestId, { amount: "1" }, other.apiKey);
    expect(foreign.status).toBe(404);
    expect(await usdc(payee.address)).toBe(b0.payee);

    const over = await post(capture, `/v2/commerce-payments/${requestId}/capture`, requestId, { amount: "100.000001" });
    expect(over.status).toBe(400);
    expect(over.body.errors[0].field).toBe("amount");

    const cap = await post(capture, `/v2/commerce-payments/${requestId}/capture`, requestId, { amount: "60" });
    expect(cap.status, JSON.stringify(cap.body)).toBe(200);
    expect(cap.body).toMatchObject({ status: "partially_captured", capturedAmount: "60", capturableAmount: "40" });
    expect(await usdc(payee.address)).toBe(b0.payee + USDC(60n));
    expect(await usdc(payer.address)).toBe(b0.payer - USDC(100n));
    // The capture went through the fee proxy with the request's reference: detection records it as a payment.
    expect((await sweepDetectionNetwork(evmEventSource("sepolia")!)).recorded).toBe(1);
    const req = await call(getRequest, `/v2/request/${requestId}`, { headers: headers(), params: { requestId } });
    expect(req.body.status).toBe("partially_paid");

    const voided = await post(voidPayment, `/v2/commerce-payments/${requestId}/void`, requestId);
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expect(voided.body).toMatchObject({ status: "captured", voidedAmount: "40", capturableAmount: "0" });
    expect(await usdc(payer.address)).toBe(b0.payer - USDC(60n));

    const tooMuch = await post(refundCalldata, `/v2/commerce-payments/${requestId}/refund/calldata`, requestId, { amount: "60.5" });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.errors[0].field).toBe("amount");
    const refund = await post(refundCalldata, `/v2/commerce-payments/${requestId}/refund/calldata`, requestId, { amount: "10" });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect(refund.body.from).toBe(payee.address);
    await sendAll(payee.privateKey, refund.body.transactions);
    expect(await usdc(payer.address)).toBe(b0.payer - USDC(50n));
    expect(await usdc(payee.address)).toBe(b0.payee + USDC(50n));
    const after = await call(status, `/v2/commerce-payments/${requestId}/status`, { headers: headers(), params: { requestId } });
    expect(after.body).toMatchObject({ status: "partially_refunded", refundedAmount: "10", refundableAmount: "50", capturedAmount: "60" });
    // A second read (and the sweep) applies nothing twice.
    await call(status, `/v2/commerce-payments/${requestId}/status`, { headers: headers(), params: { requestId } });

    // Deliveries run concurrently: order them by the lifecycle.
    const order = ["payment.authorized", "payment.captured", "payment.voided", "payment.capture_refunded"];
    const got = (await hooks()).sort((x, y) => order.indexOf(x.event as string) - order.indexOf(y.event as string));
    expect(got.map((h) => [h.event, h.amount, h.status, h.signed])).toEqual([
      ["payment.authorized", "100", "authorized", true],
      ["payment.captured", "60", "partially_captured", true],
      ["payment.voided", "40", "captured", true],
      ["payment.capture_refunded", "10", "partially_refunded", true],
    ]);
    expect(got.every((h) => h.requestId === requestId)).toBe(true);
  });

  it("capture after the deadline is refused by name and reverts on chain; the payer reclaims; payment.reclaimed", async () => {
    const requestId = await newRequest("25");
    const now = await chainTime(devnet.rpcUrl);
    const deadline = new Date((now + 2 * 3_600) * 1000).toISOString();
    const auth = await authorizeBySignature(requestId, { authorizationExpiry: deadline });
    expect(auth.status, JSON.stringify(auth.body)).toBe(200);
    const before = await usdc(devnet.accounts.payer.address);
    // The operator's own-wallet variant, prepared before the deadline…
    const tx = await post(captureCalldata, `/v2/commerce-payments/${requestId}/capture/calldata`, requestId, { amount: "5" });
    expect(tx.status, JSON.stringify(tx.body)).toBe(200);
    await moveDevnetClock(devnet.rpcUrl, { kind: "shift", seconds: 2 * 3_600 + 60 });
    const late = await post(capture, `/v2/commerce-payments/${requestId}/capture`, requestId, { amount: "5" });
    expect(late.status).toBe(400);
    expect(late.body.errors[0].field).toBe("authorizationExpiry");
    // …reverts on chain after it (sent by the operator, the relayer here).
    await expect(
      wallet(devnet.accounts.signatureRelayer.privateKey).sendTransaction({
        to: tx.body.transactions[0].to,
        data: tx.body.transactions[0].data,
      }),
    ).rejects.toThrow(/AuthorizationExpired|0x0f05f5bf/);
    const st = await call(status, `/v2/commerce-payments/${requestId}/status`, { headers: headers(), params: { requestId } });
    expect(st.body).toMatchObject({ reclaimableAmount: "25", capturableAmount: "0", captureDeadlinePassed: true });

    // The payer reclaims with its own transaction (the contract's reclaim; no API call needed).
    const info = st.body.paymentInfo;
    const p = { ...info, maxAmount: BigInt(info.maxAmount), salt: BigInt(info.salt) };
    const hash = await wallet(devnet.accounts.payer.privateKey).writeContract({
      address: st.body.escrowAddress,
      abi: commerceEscrowAbi,
      functionName: "reclaim",
      args: [p],
    });
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await usdc(devnet.accounts.payer.address)).toBe(before + USDC(25n));
    const done = await call(status, `/v2/commerce-payments/${requestId}/status`, { headers: headers(), params: { requestId } });
    expect(done.body).toMatchObject({ status: "reclaimed", reclaimedAmount: "25", reclaimableAmount: "0" });
    const got = await hooks();
    expect(got.map((h) => h.event).sort()).toEqual(["payment.authorized", "payment.reclaimed"]);
  });
});
