/**
 * A deposit address's automatic return (policy `return`) after a crash of the sweep, on anvil: the
 * relayer's Refund row is written before the return is sent, so detection knows its reference whatever
 * block it reaches first; a return found on chain by the next sweep is recorded from its receipt even when
 * detection's cursor already passed its block; a row whose send never happened is cancelled, not left blocking.
 */
import { type Address, createPublicClient, createWalletClient, erc20Abi, type Hex, http, type PublicClient, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { POST as depositAddress } from "@/app/v2/secure-payments/[token]/deposit-address/route";
import { POST as createLink } from "@/app/v2/secure-payments/route";
import { db } from "@/lib/db";
import { sweepDeposits } from "@/lib/deposits/sweep";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { EXCHANGE_WARNING } from "@/lib/refunds";
import { insertRefund } from "@/lib/refunds/store";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl), pollingInterval: 20 }) as PublicClient;
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

const payer = () => devnet.accounts.payer.address;
const detect = () => sweepDetectionNetwork(evmEventSource("sepolia")!);
const refundsOf = (requestId: string) => db().refund.findMany({ where: { requestId }, orderBy: { createdAt: "asc" } });
const refundedEvents = (requestId: string) => db().outboxEvent.findMany({ where: { type: "payment.refunded", requestId } });

/** A `return` link of 10 USDC paid 12 through its deposit address (not swept yet). */
async function overpaidLink() {
  const created = await call(createLink, "/v2/secure-payments", {
    method: "POST",
    headers: { "x-client-id": a.clientId },
    json: { requests: [{ amount: "10" }], excessPolicy: "return" },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const token = created.body.token as string;
  const dep = await call(depositAddress, `/v2/secure-payments/${token}/deposit-address`, { method: "POST", params: { token } });
  expect(dep.status, JSON.stringify(dep.body)).toBe(200);
  const wallet = createWalletClient({
    account: privateKeyToAccount(devnet.accounts.payer.privateKey as Hex),
    chain: devnet.chain,
    transport: http(devnet.rpcUrl),
    pollingInterval: 20,
  });
  const hash = await wallet.writeContract({
    address: devnet.tokens.USDC,
    abi: erc20Abi,
    functionName: "transfer",
    args: [dep.body.address as Address, parseUnits("12", 6)],
  });
  expect((await pub.waitForTransactionReceipt({ hash })).status).toBe("success");
  return { requestId: created.body.requestIds[0] as string };
}

describe("a deposit return and a crash of the sweep", () => {
  it("crash after the send, before the hash was written: detection passes the block and confirms the prepared row", async () => {
    const { requestId } = await overpaidLink();
    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 1, returned: 1 });
    const [sent] = await refundsOf(requestId);
    expect(sent).toMatchObject({ sender: "relayer", status: "sent", warning: EXCHANGE_WARNING });
    // As if the process died right after writeContract: the row is still prepared, without its hash.
    await db().refund.update({ where: { id: sent!.id }, data: { status: "prepared", txHash: null, sentAt: null } });
    await db().depositAddress.update({ where: { requestId }, data: { pendingReturn: "excess" } });

    await detect();
    const [row, ...more] = await refundsOf(requestId);
    expect(more).toHaveLength(0);
    expect(row).toMatchObject({ status: "confirmed", txHash: sent!.txHash });
    expect(await refundedEvents(requestId)).toHaveLength(1);
    // The next sweep finds the return on chain, sends nothing more and clears the mark.
    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 0, returned: 0 });
    expect((await db().depositAddress.findUniqueOrThrow({ where: { requestId } })).pendingReturn).toBeNull();
    expect(await refundsOf(requestId)).toHaveLength(1);
  }, 90_000);

  it("a return detection passed before its row existed is recorded from its receipt by the next sweep", async () => {
    const { requestId } = await overpaidLink();
    expect((await sweepDeposits()).sepolia).toMatchObject({ returned: 1 });
    const [sent] = await refundsOf(requestId);
    // No row (a return sent before rows were written first, and a crash): detection cannot know the reference.
    await db().refund.deleteMany({ where: { requestId } });
    await db().depositAddress.update({ where: { requestId }, data: { pendingReturn: "excess" } });
    await detect();
    expect(await refundsOf(requestId)).toHaveLength(0);

    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 0, returned: 0 });
    const [row, ...more] = await refundsOf(requestId);
    expect(more).toHaveLength(0);
    expect(row).toMatchObject({
      sender: "relayer",
      reason: "excess",
      status: "confirmed",
      txHash: sent!.txHash,
      warning: EXCHANGE_WARNING,
    });
    expect(row!.amount.toFixed()).toBe("2000000");
    const events = await refundedEvents(requestId);
    expect(events).toHaveLength(1);
    // Detection seeing it again (a rescan) records nothing twice.
    await db().chainCursor.deleteMany({});
    await detect();
    expect(await refundedEvents(requestId)).toHaveLength(1);
    expect(await refundsOf(requestId)).toHaveLength(1);
  }, 90_000);

  it("crash after the row was written, before anything was sent: the row is cancelled and the return sent once", async () => {
    const { requestId } = await overpaidLink();
    const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
    const stale = await db().$transaction((tx) =>
      insertRefund(tx, request, { to: payer(), amount: 2_000_000n, reason: "excess", sender: "relayer", warning: EXCHANGE_WARNING }),
    );
    await db().depositAddress.update({ where: { requestId }, data: { pendingReturn: "excess" } });

    expect((await sweepDeposits()).sepolia).toEqual({ checked: 1, forwarded: 1, returned: 1 });
    const rows = await refundsOf(requestId);
    expect(rows.map((r) => [r.id === stale.id, r.status])).toEqual([
      [true, "cancelled"],
      [false, "sent"],
    ]);
    await detect();
    expect((await refundsOf(requestId)).map((r) => r.status)).toEqual(["cancelled", "confirmed"]);
    expect(await refundedEvents(requestId)).toHaveLength(1);
  }, 90_000);
});
