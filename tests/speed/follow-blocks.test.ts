/**
 * Detection at block speed (issue 33, item 1): the worker's detection job runs when the chain has
 * a new block (anvil's WebSocket on the RPC's port, eth_subscribe newHeads), not on its interval.
 * The interval here is 10 minutes, so only a block can have run the sweep that detects the payment.
 */
import { createPublicClient, createWalletClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { followNewBlocks, wsTwin } from "@/lib/detection/follow";
import { sweepDetection } from "@/lib/detection/sweep";
import { startWorker, type Worker } from "@/lib/jobs/worker";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let devnet: Devnet;
let worker: Worker | undefined;
let a: Awaited<ReturnType<typeof makeIntegrator>>;

beforeAll(async () => {
  await resetDb();
  a = await makeIntegrator();
  devnet = await useDevnet();
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await stopDevnet(devnet);
});

describe("following new blocks", () => {
  it("derives the WebSocket twin of an RPC URL", () => {
    expect(wsTwin("http://127.0.0.1:8545")).toBe("ws://127.0.0.1:8545/");
    expect(wsTwin("https://eth-mainnet.g.alchemy.com/v2/KEY")).toBe("wss://eth-mainnet.g.alchemy.com/v2/KEY");
    expect(wsTwin("wss://node.example/ws")).toBe("wss://node.example/ws");
  });

  it("a payment is detected by the sweep its block wakes, not by the interval", async () => {
    const blocks: string[] = [];
    worker = startWorker([
      {
        name: "payment-detection",
        intervalMs: 600_000,
        run: () => sweepDetection(),
        wakeOn: (wake) =>
          followNewBlocks((network) => {
            blocks.push(network);
            wake();
          }),
      },
    ]);
    const res = await call(createPayout, "/v2/payouts", {
      method: "POST",
      headers: { "x-api-key": a.apiKey },
      json: {
        payee: devnet.accounts.payee.address,
        amount: "7",
        invoiceCurrency: "USDC-sepolia",
        paymentCurrency: "USDC-sepolia",
        payerWallet: devnet.accounts.payer.address,
      },
    });
    expect(res.status).toBe(201);
    const requestId = res.body.requestId as string;
    const paid = async () =>
      (await call(getRequest, `/v2/request/${requestId}`, { headers: { "x-api-key": a.apiKey }, params: { requestId } })).body.hasBeenPaid;
    // The first sweep (at start) ran before the payment: not paid yet.
    expect(await paid()).toBe(false);
    const wallet = createWalletClient({
      account: privateKeyToAccount(devnet.accounts.payer.privateKey),
      chain: devnet.chain,
      transport: http(devnet.rpcUrl),
    });
    const pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) });
    for (const tx of res.body.transactions)
      await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: tx.to, data: tx.data }) });
    // Waiting, an empty block every 2 s (as a live chain makes them): each is a wake-up, so a sweep that
    // failed under load (a transaction timeout on a busy machine) is retried by the next block, never by
    // the 10-minute interval.
    let detected = false;
    for (let i = 0; i < 300 && !detected; i++) {
      detected = await paid();
      if (detected) break;
      await new Promise((r) => setTimeout(r, 100));
      if (i % 20 === 19) await pub.request({ method: "evm_mine" as never, params: [] as never });
    }
    expect(detected).toBe(true);
    expect(blocks).toContain("sepolia");
  }, 120_000);
});
