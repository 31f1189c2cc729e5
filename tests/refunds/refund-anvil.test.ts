/**
 * Issue 28, "Done when" (refunds): on the anvil devnet with the real ERC20FeeProxy bytecode, a
 * request paid from the payer's wallet is refunded in two partial refunds sent from the PAYEE's
 * wallet with the calldata POST /v2/request/{id}/refunds returns; detection records both once (a
 * second sweep over the same blocks adds nothing), the request reads `refunded`, two
 * payment.refunded webhooks are delivered (signed, to a local receiver), a third refund is a 400
 * naming `amount`, and the payer's token balance — read from the chain, outside Duebill — went
 * back up by exactly the refunds.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicClient, createWalletClient, erc20Abi, type PublicClient, http as viemHttp, type WalletClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as payRequest } from "@/app/v2/request/[requestId]/pay/route";
import { POST as markSent } from "@/app/v2/request/[requestId]/refunds/[refundId]/sent/route";
import { POST as createRefund } from "@/app/v2/request/[requestId]/refunds/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { ulid } from "@/lib/ids";
import { CONTRACT_WARNING, EXCHANGE_WARNING } from "@/lib/refunds";
import { deliverDue } from "@/lib/webhooks/deliver";
import { fanOutEvents } from "@/lib/webhooks/fan-out";
import { encryptSecret } from "@/lib/webhooks/secret-box";
import { generateWebhookSecret, verifySignature } from "@/lib/webhooks/sign";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { paymentEventProblems } from "@/tests/helpers/payment-event-fields";

let devnet: Devnet;
let pub: PublicClient;
let payerWallet: WalletClient;
let payeeWallet: WalletClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;

const SECRET = generateWebhookSecret();
const received: { body: string; signed: boolean }[] = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const raw = Buffer.concat(chunks);
    received.push({ body: raw.toString("utf8"), signed: verifySignature(SECRET, raw, req.headers["x-duebill-signature"] as string) });
    res.writeHead(200).end("ok");
  });
});

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) }) as PublicClient;
  const wallet = (key: `0x${string}`) =>
    createWalletClient({ account: privateKeyToAccount(key), chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) });
  payerWallet = wallet(devnet.accounts.payer.privateKey);
  payeeWallet = wallet(devnet.accounts.payee.privateKey);
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
});

type Tx = { to: `0x${string}`; data: `0x${string}`; value: { hex: `0x${string}` } };

/** Sends the returned transactions in order from `wallet`, waiting for each receipt; the hashes. */
async function sendAll(wallet: WalletClient, txs: Tx[]): Promise<`0x${string}`[]> {
  const hashes: `0x${string}`[] = [];
  for (const tx of txs) {
    const hash = await wallet.sendTransaction({
      account: wallet.account!,
      chain: devnet.chain,
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value.hex),
    });
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe("success");
    hashes.push(hash);
  }
  return hashes;
}

const usdc = (owner: string) =>
  pub.readContract({ address: devnet.tokens.USDC, abi: erc20Abi, functionName: "balanceOf", args: [owner as `0x${string}`] });
const headers = () => ({ "x-api-key": a.apiKey });
const sweep = () => sweepDetectionNetwork(evmEventSource("sepolia")!);
const refund = (requestId: string, json: unknown) =>
  call(createRefund, `/v2/request/${requestId}/refunds`, { method: "POST", headers: headers(), params: { requestId }, json });

describe("refunds on anvil", () => {
  it("two partial refunds from the payee's wallet: recorded once each, request refunded, two webhooks, a third refund refused", async () => {
    await db().webhookEndpoint.create({
      data: {
        id: ulid(),
        accountId: a.account.id,
        clientId: null,
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        secretEnc: encryptSecret(SECRET),
      },
    });
    const created = await call(createRequest, "/v2/request", {
      method: "POST",
      headers: headers(),
      json: {
        amount: "10",
        invoiceCurrency: "USDC-sepolia",
        paymentCurrency: "USDC-sepolia",
        payee: devnet.accounts.payee.address,
        feePercentage: "1",
        feeAddress: devnet.accounts.feeRecipient.address,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const requestId = created.body.requestId as string;

    // The payer pays with GET /pay's calldata from its own wallet; detection records it.
    const pay = await call(payRequest, `/v2/request/${requestId}/pay?wallet=${devnet.accounts.payer.address}`, {
      headers: headers(),
      params: { requestId },
    });
    expect(pay.status, JSON.stringify(pay.body)).toBe(200);
    await sendAll(payerWallet, pay.body.transactions);
    expect((await sweep()).recorded).toBe(1);
    const payerBefore = await usdc(devnet.accounts.payer.address);
    const payeeBefore = await usdc(devnet.accounts.payee.address);

    // Refund 1: 4 USDC, the wallet reports its transaction (sent).
    const first = await refund(requestId, { amount: "4" });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.refund).toMatchObject({ amount: "4", toAddress: devnet.accounts.payer.address, status: "prepared", warning: null });
    expect(first.body.metadata).toMatchObject({
      wallet: devnet.accounts.payee.address,
      feeKept: "0.1",
      refundable: "6",
      needsApproval: true,
      hasEnoughBalance: true,
      hasEnoughGas: true,
    });
    const [, firstHash] = await sendAll(payeeWallet, first.body.transactions);
    const reported = await call(markSent, `/v2/request/${requestId}/refunds/${first.body.refund.id}/sent`, {
      method: "POST",
      headers: headers(),
      params: { requestId, refundId: first.body.refund.id },
      json: { txHash: firstHash },
    });
    expect(reported.body).toMatchObject({ status: "sent", txHash: firstHash });

    // Refund 2: the rest (no amount), sent without reporting it: detection finds it by reference and amount.
    const second = await refund(requestId, {});
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body.refund.amount).toBe("6");
    expect(second.body.metadata.refundable).toBe("0");
    const secondHashes = await sendAll(payeeWallet, second.body.transactions);
    const secondHash = secondHashes.at(-1)!;

    expect(await sweep()).toMatchObject({ recorded: 2 });
    // The same blocks again (a re-scan after a restart or inside a reorg window): nothing new.
    await db().chainCursor.deleteMany();
    expect(await sweep()).toMatchObject({ recorded: 0, duplicates: 3 });

    const rows = await db().refund.findMany({ orderBy: { createdAt: "asc" } });
    expect(rows.map((r) => [r.id, r.status, r.amount.toFixed(), r.txHash])).toEqual([
      [first.body.refund.id, "confirmed", "4000000", firstHash],
      [second.body.refund.id, "confirmed", "6000000", secondHash],
    ]);
    const row = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
    expect(row.amountRefunded.toFixed()).toBe("10000000");

    const status = await call(getRequest, `/v2/request/${requestId}`, { headers: headers(), params: { requestId } });
    expect(status.body).toMatchObject({
      status: "paid",
      hasBeenPaid: true,
      refundStatus: "refunded",
      refundedAmount: "10",
      returnedAmount: "0",
      refundableAmount: "0",
    });
    expect(status.body.refunds.map((r: { status: string; amount: string }) => [r.status, r.amount])).toEqual([
      ["confirmed", "4"],
      ["confirmed", "6"],
    ]);

    // Two payment.refunded events, delivered signed.
    const events = await db().outboxEvent.findMany({ where: { type: "payment.refunded" }, orderBy: { createdAt: "asc" } });
    expect(events).toHaveLength(2);
    await fanOutEvents();
    await deliverDue({ allowPrivate: true });
    const hooks = received.map((r) => ({ ...r, json: JSON.parse(r.body) })).filter((r) => r.json.event === "payment.refunded");
    expect(hooks).toHaveLength(2);
    expect(hooks.every((h) => h.signed)).toBe(true);
    const bodies = hooks.map((h) => h.json).sort((x, y) => Number(x.refundedAmount) - Number(y.refundedAmount));
    // The interface's payment event fields, all there with their types (the refund's amount, transaction and time).
    for (const body of bodies) expect(paymentEventProblems(body)).toEqual([]);
    expect(bodies[0]).toMatchObject({
      event: "payment.refunded",
      requestId,
      amount: "4",
      txHash: firstHash,
      refundTxHash: firstHash,
      refundId: first.body.refund.id,
      refundAmount: "4",
      refundedAmount: "4",
      refundStatus: "partially_refunded",
      subStatus: "partially_refunded",
      totalAmountPaid: "10",
      toAddress: devnet.accounts.payer.address,
      reason: "requested",
      sender: "payee",
    });
    expect(bodies[1]).toMatchObject({ refundAmount: "6", refundedAmount: "10", refundStatus: "refunded", txHash: secondHash });

    // A third refund: nothing remains.
    const third = await refund(requestId, { amount: "0.5" });
    expect(third.status).toBe(400);
    expect(third.body.errors[0].field).toBe("amount");

    // From outside Duebill: the payer got exactly the refunds back, from the payee; the fee stayed with the fee address.
    expect((await usdc(devnet.accounts.payer.address)) - payerBefore).toBe(10_000_000n);
    expect(payeeBefore - (await usdc(devnet.accounts.payee.address))).toBe(10_000_000n);
    expect(await usdc(devnet.accounts.feeRecipient.address)).toBeGreaterThanOrEqual(100_000n);
  }, 120_000);

  it("warns about a destination other than the payer, and says when it is a contract (its code read from the chain)", async () => {
    const created = await call(createRequest, "/v2/request", {
      method: "POST",
      headers: headers(),
      json: { amount: "3", invoiceCurrency: "USDC-sepolia", paymentCurrency: "USDC-sepolia", payee: devnet.accounts.payee.address },
    });
    const requestId = created.body.requestId as string;
    const pay = await call(payRequest, `/v2/request/${requestId}/pay?wallet=${devnet.accounts.payer.address}`, {
      headers: headers(),
      params: { requestId },
    });
    await sendAll(payerWallet, pay.body.transactions);
    await sweep();
    const toWallet = await refund(requestId, { amount: "1", to: devnet.accounts.feeRecipient.address });
    expect(toWallet.status, JSON.stringify(toWallet.body)).toBe(201);
    expect(toWallet.body.refund.warning).toBe(EXCHANGE_WARNING);
    // A contract (here the devnet's USDC token itself): both sentences.
    const toContract = await refund(requestId, { amount: "1", to: devnet.tokens.USDC });
    expect(toContract.body.refund.warning).toBe(`${EXCHANGE_WARNING} ${CONTRACT_WARNING}`);
    // The payer by default: no warning.
    expect((await refund(requestId, {})).body.refund).toMatchObject({
      warning: null,
      amount: "1",
      toAddress: devnet.accounts.payer.address,
    });
  }, 60_000);
});
