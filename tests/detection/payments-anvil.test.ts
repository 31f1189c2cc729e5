import { createPublicClient, createWalletClient, erc20Abi, http, type PublicClient, type WalletClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createBatch } from "@/app/v2/payouts/batch/route";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { GET as payRequest } from "@/app/v2/request/[requestId]/pay/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let devnet: Devnet;
let payer: WalletClient;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;

beforeAll(async () => {
  devnet = await useDevnet();
  payer = createWalletClient({
    account: privateKeyToAccount(devnet.accounts.payer.privateKey),
    chain: devnet.chain,
    transport: http(devnet.rpcUrl),
  });
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }) as PublicClient;
}, 60_000);

afterAll(() => stopDevnet(devnet));

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
});

type Tx = { to: `0x${string}`; data: `0x${string}`; value: { hex: `0x${string}` } | number };

/** Sends the returned transactions in order from the payer's wallet, waiting for each receipt. */
async function sendAll(txs: Tx[]): Promise<`0x${string}`[]> {
  const hashes: `0x${string}`[] = [];
  for (const tx of txs) {
    const hash = await payer.sendTransaction({
      account: payer.account!,
      chain: devnet.chain,
      to: tx.to,
      data: tx.data,
      // Batch approvals carry the number 0 (the reference's shape); other transactions the BigNumber object.
      value: typeof tx.value === "number" ? BigInt(tx.value) : BigInt(tx.value.hex),
    });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    hashes.push(hash);
  }
  return hashes;
}

const sweep = () => sweepDetectionNetwork(evmEventSource("sepolia")!);
const status = (id: string) => call(getRequest, `/v2/request/${id}`, { headers: { "x-api-key": a.apiKey }, params: { requestId: id } });
const payout = (json: Record<string, unknown>) =>
  call(createPayout, "/v2/payouts", { method: "POST", headers: { "x-api-key": a.apiKey }, json });

describe("payouts paid on anvil", () => {
  it("HTTP payout → wallet sends → detection marks it paid with one payment.confirmed", async () => {
    const res = await payout({
      payee: devnet.accounts.payee.address,
      amount: "125.5",
      invoiceCurrency: "USD",
      paymentCurrency: "USDC-sepolia",
      payerWallet: devnet.accounts.payer.address,
      feePercentage: "1",
      feeAddress: devnet.accounts.feeRecipient.address,
    });
    expect(res.status).toBe(201);
    expect(res.body.metadata).toMatchObject({ needsApproval: true, stepsRequired: 2, hasEnoughBalance: true, hasEnoughGas: true });
    const before = await pub.readContract({
      address: devnet.tokens.USDC,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [devnet.accounts.payee.address],
    });
    const [, payHash] = await sendAll(res.body.transactions);
    const after = await pub.readContract({
      address: devnet.tokens.USDC,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [devnet.accounts.payee.address],
    });
    expect(after - before).toBe(125_500_000n);

    const swept = await sweep();
    expect(swept.recorded).toBe(1);
    const s = await status(res.body.requestId);
    expect(s.body).toMatchObject({
      hasBeenPaid: true,
      status: "paid",
      txHash: payHash,
      totalAmountPaid: "125.5",
      payer: devnet.accounts.payer.address,
    });
    expect(s.body.fees).toEqual([{ type: "platform", provider: "duebill", amount: "1.255", currency: "USDC" }]);
    const events = await db().outboxEvent.findMany({ where: { type: "payment.confirmed" } });
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.payload)).toMatchObject({ requestId: res.body.requestId, txHash: payHash, amount: "125.5" });

    // A second sweep over the same blocks changes nothing; paying again is refused.
    await db().chainCursor.deleteMany();
    expect((await sweep()).duplicates).toBe(1);
    expect(await db().outboxEvent.count()).toBe(1);
    const again = await call(payRequest, `/v2/request/${res.body.requestId}/pay`, {
      headers: { "x-api-key": a.apiKey },
      params: { requestId: res.body.requestId },
    });
    expect(again.status).toBe(409);
  });

  it("skips the approval when the allowance already covers the payment", async () => {
    const first = await payout({
      payee: devnet.accounts.payee.address,
      amount: "1",
      invoiceCurrency: "FAU-sepolia",
      paymentCurrency: "FAU-sepolia",
      payerWallet: devnet.accounts.payer.address,
    });
    await sendAll([{ ...first.body.transactions[0], data: first.body.transactions[0].data.slice(0, 74).padEnd(138, "f") }]); // approve max
    const res = await payout({
      payee: devnet.accounts.payee.address,
      amount: "2",
      invoiceCurrency: "FAU-sepolia",
      paymentCurrency: "FAU-sepolia",
      payerWallet: devnet.accounts.payer.address,
    });
    expect(res.body.metadata).toMatchObject({
      needsApproval: false,
      stepsRequired: 1,
      approvalTransactionIndex: null,
      paymentTransactionIndex: 0,
    });
    await sendAll(res.body.transactions);
    await sweep();
    expect((await status(res.body.requestId)).body.hasBeenPaid).toBe(true);
  });

  it("pays a USDT-like token: approve(0) before raising a non-zero allowance", async () => {
    const small = await payout({
      payee: devnet.accounts.payee.address,
      amount: "1",
      invoiceCurrency: "USDT-sepolia",
      paymentCurrency: "USDT-sepolia",
      payerWallet: devnet.accounts.payer.address,
    });
    await sendAll([small.body.transactions[0]]); // leaves a 1 USDT allowance without paying
    const res = await payout({
      payee: devnet.accounts.payee.address,
      amount: "50",
      invoiceCurrency: "USDT-sepolia",
      paymentCurrency: "USDT-sepolia",
      payerWallet: devnet.accounts.payer.address,
    });
    expect(res.body.metadata).toMatchObject({
      needsApproval: true,
      stepsRequired: 3,
      approvalTransactionIndex: 1,
      paymentTransactionIndex: 2,
    });
    expect(BigInt(`0x${res.body.transactions[0].data.slice(74)}`)).toBe(0n);
    await sendAll(res.body.transactions);
    await sweep();
    expect((await status(res.body.requestId)).body).toMatchObject({ hasBeenPaid: true, totalAmountPaid: "50" });
  });

  it("pays a batch of two tokens in one transaction", async () => {
    const res = await call(createBatch, "/v2/payouts/batch", {
      method: "POST",
      headers: { "x-api-key": a.apiKey },
      json: {
        payer: devnet.accounts.payer.address,
        requests: [
          { payee: devnet.accounts.payee.address, amount: "10", invoiceCurrency: "USDC-sepolia", paymentCurrency: "USDC-sepolia" },
          { payee: devnet.accounts.feeRecipient.address, amount: "20", invoiceCurrency: "USD", paymentCurrency: "USDT-sepolia" },
        ],
      },
    });
    expect(res.status).toBe(201);
    await sendAll([...res.body.ERC20ApprovalTransactions, res.body.ERC20BatchPaymentTransaction]);
    const swept = await sweep();
    expect(swept.recorded).toBe(2);
    for (const id of res.body.requestIds) expect((await status(id)).body.hasBeenPaid).toBe(true);
    expect(await db().outboxEvent.count()).toBe(2);
  });

  it("reports an underfunded payer", async () => {
    const res = await payout({
      payee: devnet.accounts.payee.address,
      amount: "5000000",
      invoiceCurrency: "USDC-sepolia",
      paymentCurrency: "USDC-sepolia",
      payerWallet: devnet.accounts.payee.address,
    });
    expect(res.body.metadata.hasEnoughBalance).toBe(false);
  });
});
