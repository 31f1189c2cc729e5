/**
 * Recurring payouts end to end on anvil, as an integrator uses them: POST /v2/payouts with
 * `recurrence` → the payer sends the returned approval and signs the permit it was given (viem,
 * unchanged) → POST /v2/payouts/recurring/{id} → the devnet clock moves → the relayer's sweep
 * (lib/recurring/run.ts, the worker's job) triggers each due payment through the real
 * DuebillRecurringPayments + ERC20FeeProxy → detection marks each request paid → webhooks reach a
 * local receiver. Then the failure path (drained payer → paused, one payment.failed; refund +
 * unpause → caught up in order), cancel, a calendar-month schedule from Jan 31, and an ERC-1271
 * smart-account payer.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Address,
  createPublicClient,
  createTestClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  type PublicClient,
  parseEventLogs,
  http as viemHttp,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as healthGet } from "@/app/api/health/route";
import { POST as createWebhook } from "@/app/v1/webhook/route";
import { GET as searchPayments } from "@/app/v2/payments/route";
import { POST as activate, GET as getSchedule, PATCH as manage } from "@/app/v2/payouts/recurring/[id]/route";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { GET as getRequest, PATCH as patchRequest } from "@/app/v2/request/[requestId]/route";
import { recurringPaymentsAbi } from "@/contracts/generated/abis.generated";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { reloadEnv } from "@/lib/env";
import type { SchedulePermit } from "@/lib/recurring/permit";
import { sweepRecurring } from "@/lib/recurring/run";
import { verifySignature } from "@/lib/webhooks/sign";
import { sweepWebhooks } from "@/lib/webhooks/sweep";
import type { Devnet } from "@/scripts/devnet";
import { chainTime, moveDevnetClock } from "@/scripts/devnet/time";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { expectInterfacePaymentEvent } from "@/tests/helpers/payment-event-fields";
import { recurringAnvil } from "@/tests/helpers/recurring-anvil";

const DAY = 86_400;
let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let onAnvil: ReturnType<typeof recurringAnvil>;
let usdc: Address;
const events: Record<string, unknown>[] = [];
let closeReceiver: () => Promise<void> = async () => {};

/** A loopback receiver that checks the signature and keeps every event body. */
async function startReceiver(secretRef: { secret: string }): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      if (!verifySignature(secretRef.secret, raw, req.headers["x-duebill-signature"] as string)) return void res.writeHead(401).end();
      events.push(JSON.parse(raw.toString("utf8")));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closeReceiver = () => new Promise((r) => server.close(() => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) }) as PublicClient;
  usdc = devnet.tokens.USDC;
  await resetDb();
  a = await makeIntegrator();
  onAnvil = recurringAnvil(devnet, pub, auth);
  // No grace period (issue 32's dunning off): a short payment pauses at once, as these tests check;
  // retries within a grace period are tests/dunning/*.
  await db().dunningSettings.create({ data: { accountId: a.account.id, retryIntervals: [300], graceSeconds: 0, reminderLeadTimes: [] } });
  const secretRef = { secret: "" };
  const url = await startReceiver(secretRef);
  const hook = await call(createWebhook, "/v1/webhook", { method: "POST", headers: { "x-client-id": a.clientId }, json: { url } });
  expect(hook.status).toBe(201);
  secretRef.secret = hook.body.secret;
}, 60_000);

afterAll(async () => {
  await closeReceiver();
  await stopDevnet(devnet);
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  reloadEnv();
});

const auth = () => ({ "x-client-id": a.clientId });
const send = (key: Hex, tx: { to: string; data: string }) => onAnvil.sendFrom(key, tx.to as Address, tx.data as Hex);

const balance = (who: Address) => pub.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [who] });

async function createSchedule(payer: Address, recurrence: Record<string, unknown>, amount = "10") {
  return call(createPayout, "/v2/payouts", {
    method: "POST",
    headers: auth(),
    json: {
      payee: devnet.accounts.payee.address,
      amount,
      invoiceCurrency: "USDC-sepolia",
      paymentCurrency: "USDC-sepolia",
      recurrence: { payer, ...recurrence },
    },
  });
}

const activateWith = (id: string, permitSignature: string) =>
  call(activate, `/v2/payouts/recurring/${id}`, { method: "POST", headers: auth(), params: { id }, json: { permitSignature } });
const read = (id: string) => call(getSchedule, `/v2/payouts/recurring/${id}`, { headers: auth(), params: { id } });
const act = (id: string, action: string) =>
  call(manage, `/v2/payouts/recurring/${id}`, { method: "PATCH", headers: auth(), params: { id }, json: { action } });

/** What the worker does each tick: trigger due payments, detect them, deliver webhooks. */
async function tick(rounds = 3) {
  for (let i = 0; i < rounds; i++) {
    await sweepRecurring({ leaseMs: 1 });
    await sweepDetectionNetwork(evmEventSource("sepolia")!);
  }
  await sweepWebhooks();
}

const warpTo = (timestamp: number) => moveDevnetClock(devnet.rpcUrl, { kind: "at", timestamp });
const iso = (t: number) => new Date(t * 1000).toISOString();

/** PaymentTriggered events of the contract, in chain order. */
async function triggered(): Promise<{ index: number; reference: string; time: number; key: string }[]> {
  const logs = await pub.getLogs({ address: devnet.contracts.recurringPayments, fromBlock: 0n });
  const parsed = parseEventLogs({ abi: recurringPaymentsAbi, logs, eventName: "PaymentTriggered" });
  const out = [];
  for (const l of parsed) {
    const block = await pub.getBlock({ blockNumber: l.blockNumber });
    out.push({ index: Number(l.args.index), reference: l.args.paymentReference, time: Number(block.timestamp), key: l.args.key });
  }
  return out;
}

type Envelope = { values: Record<string, unknown> & { scheduleId: Hex } };
/** The permit's values as the contract takes them (the envelope carries integers as decimal strings). */
function permitOf(envelope: Envelope): SchedulePermit {
  const v = envelope.values as unknown as SchedulePermit & Record<string, string>;
  return {
    ...v,
    amount: BigInt(v.amount),
    feeAmount: BigInt(v.feeAmount),
    relayerFee: BigInt(v.relayerFee),
    nonce: BigInt(v.nonce),
    deadline: BigInt(v.deadline),
  };
}

/** The contract's isCancelled for a schedule. */
const cancelledOnChain = async (payer: Address, envelope: Envelope) =>
  pub.readContract({
    address: devnet.contracts.recurringPayments,
    abi: recurringPaymentsAbi,
    functionName: "isCancelled",
    args: [await keyOf(payer, envelope)],
  }) as Promise<boolean>;

/** The contract's state key of a schedule (its scheduleKey view, not the app's). */
const keyOf = (payer: Address, envelope: Envelope) =>
  pub.readContract({
    address: devnet.contracts.recurringPayments,
    abi: recurringPaymentsAbi,
    functionName: "scheduleKey",
    args: [payer, envelope.values.scheduleId],
  }) as Promise<Hex>;

/**
 * The relayer's own triggerPayment of payment `index`, as it would send it: first a dry run (the
 * contract's error name), then a real transaction with a fixed gas limit (mined, and reverted).
 */
async function relayerTrigger(envelope: Envelope, signature: Hex, index: number) {
  const relayer = privateKeyToAccount(devnet.accounts.relayer.privateKey);
  const args = [permitOf(envelope), signature, index] as const;
  const dryRun = await pub
    .simulateContract({
      address: devnet.contracts.recurringPayments,
      abi: recurringPaymentsAbi,
      functionName: "triggerPayment",
      args,
      account: relayer,
    })
    .then(() => "ok")
    .catch((err: Error) => err.message);
  const hash = await onAnvil.walletOf(devnet.accounts.relayer.privateKey).writeContract({
    address: devnet.contracts.recurringPayments,
    abi: recurringPaymentsAbi,
    functionName: "triggerPayment",
    args,
    gas: 300_000n,
  });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  return { dryRun, status: receipt.status };
}

describe("recurring payouts on anvil", () => {
  it("create → sign → activate → payments 1, 2, 3 in order, each detected and delivered; drain → paused; unpause catches up", async () => {
    const payer = await onAnvil.newPayer(100_000_000n); // 100 USDC
    const start = (await chainTime(devnet.rpcUrl)) + 600;
    const created = await createSchedule(payer.address, { startDate: iso(start), frequency: "DAILY", totalPayments: 6 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const body = created.body;
    expect(body.status).toBe("pending");
    expect(body.recurringPaymentPermit.domain).toMatchObject({
      name: "DuebillRecurringPayments",
      chainId: devnet.chain.id,
      verifyingContract: devnet.contracts.recurringPayments,
    });
    expect(body.metadata.dueDates).toEqual(Array.from({ length: 6 }, (_, i) => iso(start + i * DAY)));
    expect(body.metadata).toMatchObject({ totalNeededAllowance: "60000000", currentAllowance: "0", additionalAllowanceNeeded: "60000000" });
    expect(body.transactions).toHaveLength(1); // approve(contract, 60 USDC)
    for (const tx of body.transactions) await send(payer.key, tx);
    const id = body.id as string;

    // A signature by another key is refused; the payer's activates; a second activation is a conflict.
    const stranger = generatePrivateKey();
    const bad = await activateWith(id, await onAnvil.signPermit(stranger, body.recurringPaymentPermit));
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("permitSignature");
    const malformed = await activateWith(id, "0xzz");
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].field).toBe("permitSignature");
    const signature = await onAnvil.signPermit(payer.key, body.recurringPaymentPermit);
    const ok = await activateWith(id, signature);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toEqual({ message: "Recurring payment activated successfully", id, status: "active" });
    expect((await activateWith(id, signature)).status).toBe(409);

    // Not due yet: nothing is sent.
    await tick(1);
    expect((await read(id)).body.processedPayments).toBe(0);

    const payeeBefore = await balance(devnet.accounts.payee.address);
    for (const n of [1, 2, 3]) {
      await warpTo(start + (n - 1) * DAY);
      await tick();
      const s = (await read(id)).body;
      expect(s.processedPayments).toBe(n);
      expect(s.status).toBe("active");
      expect(s.nextPaymentDate).toBe(iso(start + n * DAY));
    }
    expect((await balance(devnet.accounts.payee.address)) - payeeBefore).toBe(30_000_000n);
    const view = (await read(id)).body;
    expect(view.payments.map((p: { index: number }) => p.index)).toEqual([1, 2, 3]);
    expect(view.payments[0]).toMatchObject({ amount: "10", txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    // Each payment is its own request, detected as paid on chain.
    for (const r of view.requests.slice(0, 3)) {
      const req = await call(getRequest, `/v2/request/${r.requestId}`, { headers: auth(), params: { requestId: r.requestId } });
      expect(req.body.hasBeenPaid).toBe(true);
    }
    const confirmed = events.filter((e) => e.event === "payment.confirmed" && e.recurringPaymentId === id);
    expect(confirmed.map((e) => e.paymentIndex)).toEqual([1, 2, 3]);
    expect(new Set(confirmed.map((e) => e.requestId)).size).toBe(3);
    for (const e of confirmed) expectInterfacePaymentEvent(e, "payment.confirmed");

    // Each payment records the wallet whose tokens moved (the subscriber), not the relayer that sent
    // the transaction: a search by the subscriber's wallet finds all three, one by the relayer none.
    const search = (wallet: string) => call(searchPayments, `/v2/payments?walletAddress=${wallet}`, { headers: { "x-api-key": a.apiKey } });
    const byPayer = (await search(payer.address)).body;
    const mineIds = new Set(view.requests.map((r: { requestId: string }) => r.requestId));
    const found = byPayer.payments.filter((p: { request: { requestId: string } }) => mineIds.has(p.request.requestId));
    expect(found).toHaveLength(3);
    for (const p of found) expect(p.payer.toLowerCase()).toBe(payer.address.toLowerCase());
    expect((await search(devnet.accounts.relayer.address)).body.pagination.total).toBe(0);

    // The payer's balance is drained: the 4th payment pauses the schedule with one payment.failed.
    await send(payer.key, {
      to: usdc,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: "transfer",
        args: [devnet.accounts.payer.address, await balance(payer.address)],
      }),
    });
    await warpTo(start + 3 * DAY);
    await tick();
    await warpTo(start + 4 * DAY + 60); // a second missed due date while paused
    await tick();
    const paused = (await read(id)).body;
    expect(paused).toMatchObject({ status: "paused", processedPayments: 3, failureCode: "insufficient_balance", failureCount: 1 });
    expect(paused.failureReason).toMatch(/balance/);
    const failed = events.filter((e) => e.event === "payment.failed" && e.recurringPaymentId === id);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ paymentIndex: 4, subStatus: "insufficient_funds", failureCode: "insufficient_balance" });
    expect(failed[0]!.requestId).toBe(view.requests[3].requestId);
    // The interface's payment-event fields, like payment.confirmed: the dry run stopped it, so no
    // transaction (txHash ""), and the explorer shows the payer whose balance fell short.
    expectInterfacePaymentEvent(failed[0]!, "payment.failed");
    expect(failed[0]).toMatchObject({
      txHash: "",
      explorer: `https://sepolia.etherscan.io/address/${payer.address}`,
      amount: "10",
      expectedAmount: "10",
      totalAmountPaid: "0",
      currency: "USDC-sepolia",
      paymentCurrency: "USDC-sepolia",
      network: "sepolia",
      isCryptoToFiat: false,
      paymentProcessor: "request-network",
      fees: [],
      paymentReference: view.requests[3].paymentReference,
    });

    // Refund and unpause: payments 4 and 5 are caught up, in order; 6 waits for its due time.
    await send(devnet.accounts.payer.privateKey, {
      to: usdc,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [payer.address, 50_000_000n] }),
    });
    expect((await act(id, "pause")).status).toBe(400);
    const resumed = await act(id, "unpause");
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ id, status: "active", metadata: { processedPayments: 3, totalPayments: 6 } });
    await tick(4);
    expect((await read(id)).body).toMatchObject({ status: "active", processedPayments: 5 });
    await warpTo(start + 5 * DAY);
    await tick();
    expect((await read(id)).body).toMatchObject({ status: "completed", processedPayments: 6, nextPaymentDate: null });

    // On chain: each index once, in order, never before its due time.
    const key = (await pub.readContract({
      address: devnet.contracts.recurringPayments,
      abi: recurringPaymentsAbi,
      functionName: "scheduleKey",
      args: [payer.address, body.recurringPaymentPermit.values.scheduleId],
    })) as string;
    const mine = (await triggered()).filter((t) => t.key === key);
    expect(mine.map((t) => t.index)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const t of mine) expect(t.time).toBeGreaterThanOrEqual(start + (t.index - 1) * DAY);
    expect(mine.map((t) => t.reference)).toEqual(view.requests.map((r: { paymentReference: string }) => r.paymentReference));
  }, 120_000);

  it("cancel stops every later payment and returns approve(contract, 0); isRecurrenceStopped pauses and resumes", async () => {
    const payer = await onAnvil.newPayer(50_000_000n);
    const start = (await chainTime(devnet.rpcUrl)) + 600;
    const created = await createSchedule(payer.address, { startDate: iso(start), frequency: "WEEKLY", totalPayments: 4 }, "5");
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    for (const tx of created.body.transactions) await send(payer.key, tx);
    expect((await activateWith(id, await onAnvil.signPermit(payer.key, created.body.recurringPaymentPermit))).status).toBe(201);
    await warpTo(start);
    await tick();
    expect((await read(id)).body.processedPayments).toBe(1);

    // The payee's switch on any of the schedule's requests.
    const requestId = (await read(id)).body.requests[1].requestId as string;
    const stop = (stopped: boolean) =>
      call(patchRequest, `/v2/request/${requestId}`, {
        method: "PATCH",
        headers: auth(),
        params: { requestId },
        json: { isRecurrenceStopped: stopped },
      });
    expect((await stop(true)).body).toMatchObject({ recurringPaymentId: id, isRecurrenceStopped: true, status: "paused" });
    await warpTo(start + 7 * DAY);
    await tick();
    expect((await read(id)).body).toMatchObject({ status: "paused", processedPayments: 1, failureCode: "recurrence_stopped" });
    expect((await stop(false)).body.status).toBe("active");
    await tick();
    expect((await read(id)).body.processedPayments).toBe(2);

    expect(await cancelledOnChain(payer.address, created.body.recurringPaymentPermit)).toBe(false);
    const cancelled = await act(id, "cancel");
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      id,
      status: "cancelled",
      metadata: { remainingPayments: 2, remainingAmount: "10", processedPayments: 2, totalPayments: 4 },
    });
    // The relayer cancelled it on the contract too (mined at once on the devnet).
    expect(cancelled.body.onChainCancel).toMatchObject({ status: "confirmed", attempts: 1, lastError: null });
    expect(cancelled.body.onChainCancel.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await cancelledOnChain(payer.address, created.body.recurringPaymentPermit)).toBe(true);
    const cancelTx = await pub.getTransactionReceipt({ hash: cancelled.body.onChainCancel.txHash });
    expect(cancelTx.from.toLowerCase()).toBe(devnet.accounts.relayer.address.toLowerCase());
    expect(parseEventLogs({ abi: recurringPaymentsAbi, logs: cancelTx.logs, eventName: "ScheduleCancelled" })).toHaveLength(1);
    expect(cancelled.body.transactions).toEqual([
      {
        to: usdc,
        data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [devnet.contracts.recurringPayments, 0n] }),
        value: { type: "BigNumber", hex: "0x0" },
      },
    ]);
    await warpTo(start + 21 * DAY);
    // Payment 3 is due and the permit's deadline is weeks away, yet the relayer key itself can no
    // longer take it: its triggerPayment reverts ScheduleIsCancelled (dry run and mined).
    const signature = (await db().recurringSchedule.findUniqueOrThrow({ where: { id } })).permitSignature as Hex;
    const attempt = await relayerTrigger(created.body.recurringPaymentPermit, signature, 3);
    expect(attempt.dryRun).toMatch(/ScheduleIsCancelled/);
    expect(attempt.status).toBe("reverted");
    await tick();
    expect((await read(id)).body).toMatchObject({ status: "cancelled", processedPayments: 2, onChainCancel: { status: "confirmed" } });
    // The reference's words as the message, the field still named.
    const again = await act(id, "cancel");
    expect(again.body).toMatchObject({ message: "Recurring payment is already cancelled", errors: [{ field: "action" }] });
    expect((await act(id, "unpause")).status).toBe(400);
    expect((await act(id, "delete")).body.message).toBe("Invalid action: delete");
  }, 120_000);

  it("a smart-account payer (ERC-1271) subscribes and is paid", async () => {
    const owner = await onAnvil.newPayer(0n);
    const deploy = await onAnvil.walletOf(owner.key).deployContract({
      abi: compiledContracts.TestSmartWallet.abi,
      bytecode: compiledContracts.TestSmartWallet.bytecode as Hex,
      args: [owner.address],
    });
    const wallet = (await pub.waitForTransactionReceipt({ hash: deploy })).contractAddress!;
    await send(devnet.accounts.payer.privateKey, {
      to: usdc,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [wallet, 20_000_000n] }),
    });
    const start = (await chainTime(devnet.rpcUrl)) + 600;
    const created = await createSchedule(wallet, { startDate: iso(start), frequency: "DAILY", totalPayments: 2 });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    // The owner drives the wallet: approve through execute().
    for (const tx of created.body.transactions)
      await send(owner.key, {
        to: wallet,
        data: encodeFunctionData({ abi: compiledContracts.TestSmartWallet.abi, functionName: "execute", args: [tx.to, tx.data] }),
      });
    // The owner's EIP-712 signature is the wallet's (isValidSignature); a stranger's is not.
    expect((await activateWith(id, await onAnvil.signPermit(generatePrivateKey(), created.body.recurringPaymentPermit))).status).toBe(400);
    expect((await activateWith(id, await onAnvil.signPermit(owner.key, created.body.recurringPaymentPermit))).status).toBe(201);
    await warpTo(start + DAY);
    await tick(4);
    expect((await read(id)).body).toMatchObject({ status: "completed", processedPayments: 2 });
    expect(await balance(wallet)).toBe(0n);
  }, 120_000);

  it("a MONTHLY schedule from Jan 31 pays on Feb 28 and Mar 31, not a day early", async () => {
    const payer = await onAnvil.newPayer(30_000_000n);
    const now = await chainTime(devnet.rpcUrl);
    const year = new Date(now * 1000).getUTCFullYear() + 1; // a Jan 31 ahead of both clocks
    const jan31 = Date.UTC(year, 0, 31, 9) / 1000;
    const created = await createSchedule(payer.address, { startDate: iso(jan31), frequency: "MONTHLY", totalPayments: 3 });
    expect(created.status).toBe(201);
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    const feb = Date.UTC(year, 1, leap ? 29 : 28, 9) / 1000;
    const mar31 = Date.UTC(year, 2, 31, 9) / 1000;
    expect(created.body.metadata.dueDates).toEqual([iso(jan31), iso(feb), iso(mar31)]);
    const id = created.body.id as string;
    for (const tx of created.body.transactions) await send(payer.key, tx);
    expect((await activateWith(id, await onAnvil.signPermit(payer.key, created.body.recurringPaymentPermit))).status).toBe(201);
    await warpTo(jan31);
    await tick();
    await warpTo(feb - 60);
    await tick();
    expect((await read(id)).body).toMatchObject({ processedPayments: 1, nextPaymentDate: iso(feb) });
    await warpTo(feb);
    await tick();
    await warpTo(mar31 - 60);
    await tick();
    expect((await read(id)).body.processedPayments).toBe(2);
    await warpTo(mar31);
    await tick();
    expect((await read(id)).body).toMatchObject({ status: "completed", processedPayments: 3 });
    const payments = await db().recurringPayment.findMany({ where: { scheduleId: id }, orderBy: { index: "asc" } });
    expect(payments.map((p) => p.status)).toEqual(["confirmed", "confirmed", "confirmed"]);
  }, 120_000);

  it("a relayer out of gas pauses with relayer_out_of_gas (an operator alert in /api/health), and resumes by itself once funded", async () => {
    const payer = await onAnvil.newPayer(20_000_000n);
    const start = (await chainTime(devnet.rpcUrl)) + 600;
    const created = await createSchedule(payer.address, { startDate: iso(start), frequency: "DAILY", totalPayments: 2 });
    const id = created.body.id as string;
    for (const tx of created.body.transactions) await send(payer.key, tx);
    expect((await activateWith(id, await onAnvil.signPermit(payer.key, created.body.recurringPaymentPermit))).status).toBe(201);
    const relayer = devnet.accounts.relayer.address;
    const funded = await pub.getBalance({ address: relayer });
    const anvil = createTestClient({ mode: "anvil", chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) });
    try {
      await anvil.setBalance({ address: relayer, value: 1000n });
      const health = await (await healthGet()).json();
      expect(health.relayers).toEqual([expect.objectContaining({ network: "sepolia", address: relayer, low: true, empty: true })]);
      expect(health.alerts[0]).toMatch(/low on gas/);
      await warpTo(start);
      await tick();
      expect((await read(id)).body).toMatchObject({ status: "paused", failureCode: "relayer_out_of_gas", processedPayments: 0 });
      const failed = events.filter((e) => e.event === "payment.failed" && e.recurringPaymentId === id);
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ subStatus: "failed", failureCode: "relayer_out_of_gas", paymentIndex: 1 });
    } finally {
      await anvil.setBalance({ address: relayer, value: funded });
    }
    await warpTo(start + DAY);
    await tick(4);
    expect((await read(id)).body).toMatchObject({ status: "completed", processedPayments: 2 });
  }, 120_000);

  it("a transaction stuck in the mempool is replaced with the same nonce, never duplicated", async () => {
    const payer = await onAnvil.newPayer(10_000_000n);
    const start = (await chainTime(devnet.rpcUrl)) + 600;
    const created = await createSchedule(payer.address, { startDate: iso(start), frequency: "DAILY", totalPayments: 2 });
    const id = created.body.id as string;
    for (const tx of created.body.transactions) await send(payer.key, tx);
    expect((await activateWith(id, await onAnvil.signPermit(payer.key, created.body.recurringPaymentPermit))).status).toBe(201);
    await warpTo(start);
    const anvil = createTestClient({ mode: "anvil", chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) });
    const relayer = devnet.accounts.relayer.address;
    await anvil.setAutomine(false);
    try {
      await sweepRecurring({ leaseMs: 1 });
      const first = await db().recurringPayment.findFirstOrThrow({ where: { scheduleId: id, index: 1 } });
      expect(first.status).toBe("sent");
      // Still pending: nothing new is sent before the replacement delay.
      await sweepRecurring({ leaseMs: 1 });
      expect((await db().recurringPayment.findFirstOrThrow({ where: { id: first.id } })).txHash).toBe(first.txHash);
      // Past it: the same nonce goes out again with a higher fee.
      await sweepRecurring({ leaseMs: 1, replaceAfterMs: 0 });
      const replaced = await db().recurringPayment.findFirstOrThrow({ where: { id: first.id } });
      expect(replaced.txNonce).toBe(first.txNonce);
      expect(replaced.txHash).not.toBe(first.txHash);
      const pool = (await anvil.getTxpoolContent()) as { pending: Record<string, Record<string, unknown>> };
      const mine = Object.entries(pool.pending).find(([addr]) => addr.toLowerCase() === relayer.toLowerCase())?.[1] ?? {};
      expect(Object.keys(mine)).toEqual([String(first.txNonce)]);
      await anvil.mine({ blocks: 1 });
    } finally {
      await anvil.setAutomine(true);
    }
    await tick();
    expect((await read(id)).body).toMatchObject({ processedPayments: 1, payments: [{ index: 1, txHash: expect.any(String) }] });
    expect(await pub.getTransactionCount({ address: relayer, blockTag: "pending" })).toBe(
      await pub.getTransactionCount({ address: relayer, blockTag: "latest" }),
    );
  }, 120_000);

  it("a payment mined and reverted: the schedule pauses and payment.failed names that transaction", async () => {
    const payer = await onAnvil.newPayer(10_000_000n);
    const start = (await chainTime(devnet.rpcUrl)) + 600;
    const created = await createSchedule(payer.address, { startDate: iso(start), frequency: "DAILY", totalPayments: 2 }, "5");
    const id = created.body.id as string;
    for (const tx of created.body.transactions) await send(payer.key, tx);
    expect((await activateWith(id, await onAnvil.signPermit(payer.key, created.body.recurringPaymentPermit))).status).toBe(201);
    await warpTo(start);
    const anvil = createTestClient({ mode: "anvil", chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) });
    await anvil.setAutomine(false);
    let txHash: Hex;
    try {
      await sweepRecurring({ leaseMs: 1 });
      const row = await db().recurringPayment.findFirstOrThrow({ where: { scheduleId: id, index: 1 } });
      expect(row.status).toBe("sent");
      txHash = row.txHash as Hex;
      // The payer takes the allowance back with a higher tip: mined first, the trigger then reverts.
      await onAnvil.walletOf(payer.key).sendTransaction({
        to: usdc,
        data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [devnet.contracts.recurringPayments, 0n] }),
        maxPriorityFeePerGas: 10n ** 11n,
        maxFeePerGas: 10n ** 12n,
      });
      await anvil.mine({ blocks: 1 });
    } finally {
      await anvil.setAutomine(true);
    }
    expect((await pub.getTransactionReceipt({ hash: txHash })).status).toBe("reverted");
    await tick();
    expect((await read(id)).body).toMatchObject({ status: "paused", processedPayments: 0, failureCode: "insufficient_allowance" });
    const failed = events.filter((e) => e.event === "payment.failed" && e.recurringPaymentId === id);
    expect(failed).toHaveLength(1);
    expectInterfacePaymentEvent(failed[0]!, "payment.failed");
    expect(failed[0]).toMatchObject({
      txHash,
      explorer: `https://sepolia.etherscan.io/tx/${txHash}`,
      amount: "5",
      subStatus: "insufficient_funds",
      failureCode: "insufficient_allowance",
      paymentIndex: 1,
    });
  }, 120_000);

  it("an on-chain cancel that fails leaves the cancel standing and is retried by the sweep until confirmed", async () => {
    const payer = await onAnvil.newPayer(20_000_000n);
    const start = (await chainTime(devnet.rpcUrl)) + 600;
    const created = await createSchedule(payer.address, { startDate: iso(start), frequency: "DAILY", totalPayments: 2 });
    const id = created.body.id as string;
    for (const tx of created.body.transactions) await send(payer.key, tx);
    const signature = await onAnvil.signPermit(payer.key, created.body.recurringPaymentPermit);
    expect((await activateWith(id, signature)).status).toBe(201);
    const relayer = devnet.accounts.relayer.address;
    const funded = await pub.getBalance({ address: relayer });
    const anvil = createTestClient({ mode: "anvil", chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) });
    await anvil.setBalance({ address: relayer, value: 0n }); // the relayer cannot send anything
    let cancelled: Awaited<ReturnType<typeof act>>;
    try {
      cancelled = await act(id, "cancel");
    } finally {
      await anvil.setBalance({ address: relayer, value: funded });
    }
    // The cancel stands (nothing is sent for it any more), and says the chain half is not done.
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled", onChainCancel: { status: "pending", attempts: 1, txHash: null } });
    expect(cancelled.body.onChainCancel.lastError).toMatch(/funds|balance/i);
    expect((await read(id)).body).toMatchObject({ status: "cancelled", onChainCancel: { status: "pending" } });
    expect(await cancelledOnChain(payer.address, created.body.recurringPaymentPermit)).toBe(false);
    // Due now: the sweep pays nothing, and retries the on-chain cancel (its housekeeping runs at most
    // every 10 s per process: the server clock is moved past that).
    await warpTo(start);
    setClock(() => Date.now() + 3_600_000);
    try {
      await sweepRecurring({ leaseMs: 1 });
    } finally {
      setClock(null);
    }
    const after = (await read(id)).body;
    expect(after).toMatchObject({
      status: "cancelled",
      processedPayments: 0,
      onChainCancel: { status: "confirmed", attempts: 2, lastError: null },
    });
    expect(await cancelledOnChain(payer.address, created.body.recurringPaymentPermit)).toBe(true);
    expect((await relayerTrigger(created.body.recurringPaymentPermit, signature, 1)).dryRun).toMatch(/ScheduleIsCancelled/);
    expect(await db().recurringPayment.count({ where: { scheduleId: id } })).toBe(0);
  }, 120_000);

  it("a pending (never signed) schedule's cancel needs nothing on chain", async () => {
    const payer = await onAnvil.newPayer(0n);
    const created = await createSchedule(payer.address, { startDate: "2030-01-01", frequency: "DAILY", totalPayments: 2 });
    const res = await act(created.body.id, "cancel");
    expect(res.body).toMatchObject({ status: "cancelled", onChainCancel: { status: "not_needed", attempts: 0, txHash: null } });
  });

  it("refuses a schedule on a network where no relayer can trigger it: 400 naming the network", async () => {
    const key = process.env.RELAYER_PRIVATE_KEY;
    delete process.env.RELAYER_PRIVATE_KEY;
    reloadEnv();
    try {
      const before = await db().recurringSchedule.count();
      const res = await createSchedule(devnet.accounts.payer.address, { startDate: "2030-01-01", frequency: "DAILY", totalPayments: 3 });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe("paymentCurrency");
      expect(res.body.errors[0].message).toMatch(/not available on sepolia/);
      expect(res.body.errors[0].message).toMatch(/relayer key/);
      expect(await db().recurringSchedule.count()).toBe(before);
    } finally {
      process.env.RELAYER_PRIVATE_KEY = key;
      reloadEnv();
    }
    expect(
      (await createSchedule(devnet.accounts.payer.address, { startDate: "2030-01-01", frequency: "DAILY", totalPayments: 3 })).status,
    ).toBe(201);
  });

  it.each([
    [{ totalPayments: 1 }, "recurrence.totalPayments"],
    [{ totalPayments: 257 }, "recurrence.totalPayments"],
    [{ startDate: "2020-01-31" }, "recurrence.startDate"],
    [{ frequency: "FORTNIGHTLY" }, "recurrence.frequency"],
    [{ payer: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" }, "recurrence.payer"],
    [{ payer: "0x12" }, "recurrence.payer"],
  ])("refuses %j on a network with the contract, naming %s", async (patch, field) => {
    const res = await createSchedule(devnet.accounts.payer.address, {
      startDate: "2030-01-01",
      frequency: "DAILY",
      totalPayments: 3,
      ...patch,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
  });

  it("unknown and another account's schedules are 404", async () => {
    const other = await makeIntegrator();
    const mine = await db().recurringSchedule.findFirst({ where: { accountId: a.account.id } });
    expect(mine).not.toBeNull();
    const res = await call(getSchedule, `/v2/payouts/recurring/${mine!.id}`, {
      headers: { "x-client-id": other.clientId },
      params: { id: mine!.id },
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Recurring payment not found");
    expect((await read("01JZZZZZZZZZZZZZZZZZZZZZZZ")).status).toBe(404);
  });
});
