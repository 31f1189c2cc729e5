/**
 * Detection survives a chain that changes under its cursor: a devnet restarted from block 0
 * (`npm run dev` after Ctrl-C) and a reorg deeper than the confirmation depth (an anvil snapshot
 * revert). In both, the stored cursor points at a block the chain no longer has (or has another
 * of), and a payment made on the new chain must still be detected.
 */
import { createPublicClient, createTestClient, createWalletClient, http, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let devnet: Devnet | undefined;
let a: Awaited<ReturnType<typeof makeIntegrator>>;

beforeAll(async () => {
  await resetDb();
  a = await makeIntegrator();
}, 60_000);
afterAll(() => stopDevnet(devnet));

async function payOnce(d: Devnet): Promise<string> {
  const res = await call(createPayout, "/v2/payouts", {
    method: "POST",
    headers: { "x-api-key": a.apiKey },
    json: {
      payee: d.accounts.payee.address,
      amount: "3",
      invoiceCurrency: "USDC-sepolia",
      paymentCurrency: "USDC-sepolia",
      payerWallet: d.accounts.payer.address,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const wallet = createWalletClient({
    account: privateKeyToAccount(d.accounts.payer.privateKey),
    chain: d.chain,
    transport: http(d.rpcUrl),
  });
  const pub = createPublicClient({ chain: d.chain, transport: http(d.rpcUrl) }) as PublicClient;
  for (const tx of res.body.transactions)
    await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: tx.to, data: tx.data }) });
  return res.body.requestId as string;
}

const sweep = () => sweepDetectionNetwork(evmEventSource("sepolia")!);
const paid = async (requestId: string) =>
  (await call(getRequest, `/v2/request/${requestId}`, { headers: { "x-api-key": a.apiKey }, params: { requestId } })).body.hasBeenPaid;

describe("detection when the chain changes under the cursor", () => {
  it("a devnet restarted from block 0: the next payment is detected", async () => {
    devnet = await useDevnet();
    // Several payments move the cursor well past where the fresh chain's first payment lands.
    for (let i = 0; i < 3; i++) await payOnce(devnet);
    await sweep();
    const before = await db().chainCursor.findUniqueOrThrow({ where: { network: "sepolia" } });
    expect(before.lastBlockHash).toMatch(/^0x[0-9a-f]{64}$/);

    await stopDevnet(devnet);
    devnet = await useDevnet();
    const fresh = await payOnce(devnet);
    const head = await createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }).getBlockNumber();
    expect(head).toBeLessThan(before.lastBlock); // the new payment lies below the old cursor
    await sweep();
    expect(await paid(fresh)).toBe(true);
  }, 120_000);

  it("a reorg deeper than the confirmations (snapshot revert): a payment on the new branch is detected", async () => {
    devnet ??= await useDevnet();
    const anvil = createTestClient({ mode: "anvil", chain: devnet.chain, transport: http(devnet.rpcUrl) });
    const snapshot = await anvil.snapshot();
    const orphan = await payOnce(devnet);
    await sweep();
    expect(await paid(orphan)).toBe(true);
    await anvil.revert({ id: snapshot });
    // The new branch: the same heights, other blocks.
    const replacement = await payOnce(devnet);
    await sweep();
    expect(await paid(replacement)).toBe(true);
    const cursor = await db().chainCursor.findUniqueOrThrow({ where: { network: "sepolia" } });
    const onChain = await createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }).getBlock({
      blockNumber: cursor.lastBlock,
    });
    expect(cursor.lastBlockHash).toBe(onChain.hash);
  }, 120_000);
});
