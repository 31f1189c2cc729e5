/**
 * Dunning for recurring requests (issue 32 item 5) on the anvil devnet, as a merchant tries it: a
 * WEEKLY recurring request naming its payer, the account's dunning policy (reminder lead times 3 days
 * and 1 day, a 2-day grace), the worker's tick (the recurring job, detection, webhook delivery) and a
 * loopback receiver that checks every delivery's signature. The oracle is outside the code under test:
 * the payer's balance is set with real ERC-20 transfers, the periods are paid with the calldata
 * GET /v2/request/{id}/pay gives, and the due dates come from the request's own calendar.
 * - period 1 (the original) unpaid when its 2-day grace ends → one request.past_due (unpaid, 10
 *   missing, its payment link), not a second one however often the job runs;
 * - period 2's reminders: at 3 days with the payer 6 short → request.upcoming insufficient_balance
 *   "6"; after a top-up, at 1 day → period_upcoming "0"; once per lead time;
 * - period 2 paid within its grace → no request.past_due for it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type Address, createPublicClient, type Hex, type PublicClient, http as viemHttp } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createWebhook } from "@/app/v1/webhook/route";
import { PUT as putAccountPolicy } from "@/app/v2/payouts/recurring-policy/route";
import { GET as payRequest } from "@/app/v2/request/[requestId]/pay/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { reloadEnv } from "@/lib/env";
import { sampleEvent } from "@/lib/events/samples";
import { sweepRequestDunning } from "@/lib/recurring/request-dunning";
import { runRecurringJobs } from "@/lib/recurring/run";
import { dueDateAt } from "@/lib/recurring/schedule";
import { verifySignature } from "@/lib/webhooks/sign";
import { sweepWebhooks } from "@/lib/webhooks/sweep";
import type { Devnet } from "@/scripts/devnet";
import { chainTime, moveDevnetClock } from "@/scripts/devnet/time";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { recurringAnvil } from "@/tests/helpers/recurring-anvil";

const DAY = 86_400;
const USDC = 1_000_000n;
let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let onAnvil: ReturnType<typeof recurringAnvil>;
const received: Record<string, unknown>[] = [];
let rejected = 0;
let closeReceiver: () => Promise<void> = async () => {};

async function startReceiver(secretRef: { secret: string }): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      if (!verifySignature(secretRef.secret, raw, req.headers["x-duebill-signature"] as string)) {
        rejected++;
        return void res.writeHead(401).end();
      }
      received.push(JSON.parse(raw.toString("utf8")));
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
  pub = createPublicClient({ chain: devnet.chain, transport: viemHttp(devnet.rpcUrl), pollingInterval: 50 }) as PublicClient;
  await resetDb();
  a = await makeIntegrator();
  onAnvil = recurringAnvil(devnet, pub, key);
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

const key = () => ({ "x-api-key": a.apiKey });
const warpTo = (timestamp: number) => moveDevnetClock(devnet.rpcUrl, { kind: "at", timestamp });
async function tick() {
  await runRecurringJobs();
  await sweepDetectionNetwork(evmEventSource("sepolia")!);
  await sweepWebhooks();
}
const of = (type: string) => received.filter((e) => e.event === type);

describe("recurring requests: reminders before a period, past due after its grace", () => {
  it("request.upcoming at each lead time (insufficient_balance, then period_upcoming), request.past_due once for the unpaid period, none for the paid", async () => {
    const policy = await call(putAccountPolicy, "/v2/payouts/recurring-policy", {
      method: "PUT",
      headers: key(),
      json: { graceSeconds: 2 * DAY, reminderLeadTimes: [3 * DAY, DAY] },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    const { key: payerKey, address: payer } = await onAnvil.newPayer(4n * USDC);

    const start = (await chainTime(devnet.rpcUrl)) + 120;
    const created = await call(createRequest, "/v2/request", {
      method: "POST",
      headers: key(),
      json: {
        amount: "10",
        invoiceCurrency: "USDC-sepolia",
        paymentCurrency: "USDC-sepolia",
        payee: devnet.accounts.payee.address,
        payer,
        reference: "SUB-7",
        recurrence: { startDate: new Date(start * 1000).toISOString(), frequency: "WEEKLY" },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const originalId = created.body.requestId as string;
    const seriesId = (await db().paymentRequest.findUniqueOrThrow({ where: { id: originalId } })).recurrenceId!;
    const due = (n: number) => dueDateAt(new Date(start * 1000), "WEEKLY", n - 1).getTime() / 1000;

    // Period 1 (the original) is due at the start; its grace ends 2 days later: nothing before then.
    await warpTo(due(1) + 2 * DAY - 60);
    await tick();
    expect(of("request.past_due")).toEqual([]);
    await warpTo(due(1) + 2 * DAY);
    await tick();
    await sweepRequestDunning({ force: true });
    await tick();
    const pastDue = of("request.past_due");
    expect(pastDue).toHaveLength(1);
    expect(Object.keys(pastDue[0]!)).toEqual(Object.keys(sampleEvent("request.past_due")));
    expect(pastDue[0]).toMatchObject({
      requestId: originalId,
      requestID: originalId,
      paymentReference: created.body.paymentReference,
      originalRequestId: originalId,
      recurringPaymentId: seriesId,
      paymentIndex: 1,
      reason: "unpaid",
      amount: "10",
      amountMissing: "10",
      paymentCurrency: "USDC-sepolia",
      network: "sepolia",
      dueDate: new Date(due(1) * 1000).toISOString(),
      gracePeriodEndsAt: new Date((due(1) + 2 * DAY) * 1000).toISOString(),
    });
    expect(String(pastDue[0]!.payer).toLowerCase()).toBe(payer.toLowerCase());
    expect(pastDue[0]!.paymentUrl).toMatch(/^https?:\/\/.+/);

    // Period 2's 3-day reminder: the payer holds 4 of the 10 → insufficient_balance, 6 missing.
    await warpTo(due(2) - 3 * DAY + 60);
    await tick();
    await sweepRequestDunning({ force: true });
    await tick();
    let upcoming = of("request.upcoming");
    expect(upcoming).toHaveLength(1);
    expect(Object.keys(upcoming[0]!)).toEqual(Object.keys(sampleEvent("request.upcoming")));
    expect(upcoming[0]).toMatchObject({
      recurringPaymentId: seriesId,
      paymentIndex: 2,
      originalRequestId: originalId,
      reason: "insufficient_balance",
      amountMissing: "6",
      amount: "10",
      leadTimeSeconds: 3 * DAY,
      dueDate: new Date(due(2) * 1000).toISOString(),
    });

    // Topped up; the 1-day reminder says the period is coming, nothing missing.
    await onAnvil.fundUsdc(payer, 6n * USDC);
    await warpTo(due(2) - DAY + 60);
    await tick();
    await sweepRequestDunning({ force: true });
    await tick();
    upcoming = of("request.upcoming");
    expect(upcoming.map((e) => [e.paymentIndex, e.leadTimeSeconds, e.reason, e.amountMissing])).toEqual([
      [2, 3 * DAY, "insufficient_balance", "6"],
      [2, DAY, "period_upcoming", "0"],
    ]);

    // Period 2 is issued at its date and paid within its grace: no past_due for it, and still one for period 1.
    await warpTo(due(2));
    await tick();
    const second = await db().paymentRequest.findFirstOrThrow({ where: { recurrenceId: seriesId, recurrenceIndex: 2 } });
    const plan = await call(payRequest, `/v2/request/${second.id}/pay?wallet=${payer}`, {
      headers: key(),
      params: { requestId: second.id },
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    for (const tx of plan.body.transactions as { to: Address; data: Hex }[]) await onAnvil.sendFrom(payerKey, tx.to, tx.data);
    await tick();
    expect((await db().paymentRequest.findUniqueOrThrow({ where: { id: second.id } })).status).toBe("paid");
    await warpTo(due(2) + 2 * DAY + 60);
    await tick();
    await sweepRequestDunning({ force: true });
    await tick();
    expect(of("request.past_due").map((e) => e.paymentIndex)).toEqual([1]);
    // Period 3's reminders come on their own lead times later, not yet.
    expect(of("request.upcoming")).toHaveLength(2);
    expect(rejected).toBe(0);
  }, 180_000);
});
