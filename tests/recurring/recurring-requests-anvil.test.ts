/**
 * A DAILY recurring request on the anvil devnet, as the "done when" tries it: the calendar
 * runs on the network's clock (the latest block's time, as recurring payouts), so warping the
 * devnet 3 days makes the recurring job (lib/recurring/run.ts, the worker's and the cron's) create
 * exactly periods 2, 3 and 4, in order, each delivered as a signed request.recurring to a loopback
 * receiver; a period is paid with the calldata GET /v2/request/{id}/pay gives, through the real
 * ERC20FeeProxy, and detection marks it paid; PATCH /v1/request/{paymentReference}/stop-recurrence
 * stops the series: another warp creates nothing.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicClient, createWalletClient, type Hex, type PublicClient, http as viemHttp } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATCH as stopV1 } from "@/app/v1/request/[paymentReference]/stop-recurrence/route";
import { POST as createWebhook } from "@/app/v1/webhook/route";
import { GET as payRequest } from "@/app/v2/request/[requestId]/pay/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { reloadEnv } from "@/lib/env";
import { sampleEvent } from "@/lib/events/samples";
import { runRecurringJobs } from "@/lib/recurring/run";
import { verifySignature } from "@/lib/webhooks/sign";
import { sweepWebhooks } from "@/lib/webhooks/sweep";
import type { Devnet } from "@/scripts/devnet";
import { chainTime, moveDevnetClock } from "@/scripts/devnet/time";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const DAY = 86_400;
let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
const events: Record<string, unknown>[] = [];
let closeReceiver: () => Promise<void> = async () => {};

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
  await resetDb();
  a = await makeIntegrator();
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
const get = (requestId: string) => call(getRequest, `/v2/request/${requestId}`, { headers: key(), params: { requestId } });
const warpTo = (timestamp: number) => moveDevnetClock(devnet.rpcUrl, { kind: "at", timestamp });
/** What the worker does each tick: the recurring job, detection, webhook delivery. */
async function tick() {
  await runRecurringJobs();
  await sweepDetectionNetwork(evmEventSource("sepolia")!);
  await sweepWebhooks();
}
const periods = (recurrenceId: string) => db().paymentRequest.findMany({ where: { recurrenceId }, orderBy: { recurrenceIndex: "asc" } });
const recurring = () => events.filter((e) => e.event === "request.recurring");

describe("recurring requests on anvil", () => {
  it("DAILY: +3 days on the devnet → exactly 3 periods in order, delivered; one paid by calldata; v1 stop → no more", async () => {
    const start = (await chainTime(devnet.rpcUrl)) + 120;
    const created = await call(createRequest, "/v2/request", {
      method: "POST",
      headers: key(),
      json: {
        amount: "10",
        invoiceCurrency: "USDC-sepolia",
        paymentCurrency: "USDC-sepolia",
        payee: devnet.accounts.payee.address,
        reference: "SUB-42",
        recurrence: { startDate: new Date(start * 1000).toISOString(), frequency: "DAILY" },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const originalId = created.body.requestId as string;
    const recurrenceId = (await db().paymentRequest.findUniqueOrThrow({ where: { id: originalId } })).recurrenceId!;

    // A second before period 2's date on chain: nothing, however often the job runs.
    await warpTo(start + DAY - 1);
    await tick();
    await tick();
    expect((await periods(recurrenceId)).map((p) => p.recurrenceIndex)).toEqual([1]);
    expect(recurring()).toHaveLength(0);

    await warpTo(start + 3 * DAY);
    await Promise.all([tick(), tick()]);
    await tick();
    const made = await periods(recurrenceId);
    expect(made.map((p) => p.recurrenceIndex)).toEqual([1, 2, 3, 4]);
    // Once each (deliveries carry no order guarantee: two workers deliver side by side).
    const delivered = recurring().sort((x, y) => Number(x.paymentIndex) - Number(y.paymentIndex));
    expect(delivered.map((e) => e.paymentIndex)).toEqual([2, 3, 4]);
    for (const [i, e] of delivered.entries()) {
      expect(Object.keys(e)).toEqual(Object.keys(sampleEvent("request.recurring")));
      expect(e).toMatchObject({
        requestId: made[i + 1]!.id,
        paymentReference: made[i + 1]!.paymentReference,
        originalRequestId: originalId,
        recurringPaymentId: recurrenceId,
        amount: "10",
        paymentCurrency: "USDC-sepolia",
        network: "sepolia",
      });
    }

    // Period 3 paid like any request: its calldata from the payer's wallet, then detection.
    const third = made[2]!;
    const payer = privateKeyToAccount(devnet.accounts.payer.privateKey);
    const plan = await call(payRequest, `/v2/request/${third.id}/pay?wallet=${payer.address}`, {
      headers: key(),
      params: { requestId: third.id },
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const wallet = createWalletClient({ account: payer, chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) });
    for (const tx of plan.body.transactions as { to: Hex; data: Hex }[])
      expect((await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: tx.to, data: tx.data }) })).status).toBe(
        "success",
      );
    await tick();
    const paid = (await get(third.id)).body;
    expect(paid).toMatchObject({
      hasBeenPaid: true,
      status: "paid",
      totalAmountPaid: "10",
      paymentIndex: 3,
      originalRequestId: originalId,
    });
    expect(paid.payments[0].payer.toLowerCase()).toBe(payer.address.toLowerCase());
    for (const other of [made[0]!, made[1]!, made[3]!]) expect((await get(other.id)).body.status).toBe("pending");
    expect(events.filter((e) => e.event === "payment.confirmed").map((e) => e.requestId)).toEqual([third.id]);

    // Stop with the original's payment reference, as the reference's TypeScript client does (no body, empty 200).
    const res = await stopV1(
      new Request(`http://localhost:3000/v1/request/${created.body.paymentReference}/stop-recurrence`, { method: "PATCH", headers: key() }),
      { params: Promise.resolve({ paymentReference: created.body.paymentReference }) },
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
    for (const p of made) expect((await get(p.id)).body.isRecurrenceStopped).toBe(true);
    await warpTo(start + 8 * DAY);
    await tick();
    await tick();
    expect((await periods(recurrenceId)).map((p) => p.recurrenceIndex)).toEqual([1, 2, 3, 4]);
    expect(recurring()).toHaveLength(3);
  }, 180_000);
});
