/**
 * Issue 32's "done when", on anvil with the devnet clock, through the API and the worker's own
 * sweep (sweepRecurring: the executor, then the look-ahead): a payer whose balance drops 2 days
 * before a due date gets payment.upcoming_failure (insufficient_balance, the missing amount) at the
 * 1-day lead time; at the due time no transaction is sent (the relayer's nonce is unchanged) and the
 * schedule is past_due; a top-up during grace is paid by the next retry, in order, once; with no
 * top-up the schedule pauses after the grace period with payment.failed. The chain (the contract's
 * PaymentTriggered events, the token balances) is the oracle, read with viem directly.
 */
import { type Address, createPublicClient, erc20Abi, type PublicClient, http as viemHttp } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUT as putPolicy } from "@/app/v2/payouts/recurring/[id]/policy/route";
import { GET as getRecurring } from "@/app/v2/payouts/recurring/[id]/route";
import { db } from "@/lib/db";
import { sweepRecurring } from "@/lib/recurring/run";
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
let usdc: Address;
let startBlock: bigint;

const balanceOf = (who: Address) => pub.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [who] });
const relayerNonce = () => pub.getTransactionCount({ address: devnet.accounts.relayer.address, blockTag: "pending" });
const warpTo = (t: number) => moveDevnetClock(devnet.rpcUrl, { kind: "at", timestamp: t });
const auth = () => ({ "x-api-key": a.apiKey });
const get = async (id: string) => (await call(getRecurring, `/v2/payouts/recurring/${id}`, { headers: auth(), params: { id } })).body;
const events = async (type: string) =>
  (await db().outboxEvent.findMany({ where: { type }, orderBy: { createdAt: "asc" } })).map((e) => JSON.parse(e.payload));
/** The contract's PaymentTriggered indexes since the test began. */
const triggered = () => onAnvil.triggeredIndexes(startBlock);

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: viemHttp(devnet.rpcUrl), pollingInterval: 50 }) as PublicClient;
  usdc = devnet.tokens.USDC;
  await resetDb();
  a = await makeIntegrator();
  onAnvil = recurringAnvil(devnet, pub, auth);
  startBlock = await pub.getBlockNumber();
}, 60_000);

afterAll(async () => {
  await stopDevnet(devnet);
});

describe("dunning on anvil: warn before, retry in grace, then pause", () => {
  it("warns at the 1-day lead time, sends nothing when short, pays a top-up on the next retry once and in order, pauses after grace", async () => {
    const now = await chainTime(devnet.rpcUrl);
    const s = await onAnvil.subscribe(now + 5 * DAY, 100n * USDC);
    const [due1, due2] = s.dueTimes as [number, number];

    // 3 days before: the payer can pay, no warning.
    await warpTo(due1 - 3 * DAY + 60);
    await sweepRecurring();
    expect(await events("payment.upcoming_failure")).toEqual([]);

    // 2 days before, the balance drops to 10 USDC (15 short of the 25 due).
    await warpTo(due1 - 2 * DAY);
    await onAnvil.sendFrom(s.key, usdc, onAnvil.transfer(devnet.accounts.payee.address, 90n * USDC));
    await sweepRecurring();
    expect(await events("payment.upcoming_failure")).toEqual([]);

    // 1 day before: the look-ahead's 1-day check warns, once, with the reason and the missing amount.
    await warpTo(due1 - DAY + 60);
    await sweepRecurring();
    await sweepRecurring();
    const warned = await events("payment.upcoming_failure");
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({
      event: "payment.upcoming_failure",
      recurringPaymentId: s.id,
      paymentIndex: 1,
      reason: "insufficient_balance",
      amountMissing: "15",
      leadTimeSeconds: DAY,
      dueDate: new Date(due1 * 1000).toISOString(),
    });
    expect(warned[0].payerUrl).toMatch(/\/subscriptions\/[A-Za-z0-9_-]{32}$/);
    expect((await get(s.id)).upcomingFailures).toMatchObject([{ paymentIndex: 1, reason: "insufficient_balance", amountMissing: "15" }]);

    // At the due time: no transaction (the relayer's nonce does not move), the schedule is past_due.
    const nonce = await relayerNonce();
    await warpTo(due1);
    await sweepRecurring();
    await sweepRecurring();
    expect(await relayerNonce()).toBe(nonce);
    let view = await get(s.id);
    expect(view.status).toBe("past_due");
    expect(view.processedPayments).toBe(0);
    expect(view.attempts).toMatchObject([{ paymentIndex: 1, attempt: 1, reason: "insufficient_balance", amountMissing: "15" }]);
    expect(Date.parse(view.nextRetryDate)).toBe((due1 + 300) * 1000);
    expect(await events("payment.failed")).toEqual([]);

    // Still short at the first retry: a second attempt, still no transaction.
    await warpTo(due1 + 301);
    await sweepRecurring();
    expect(await relayerNonce()).toBe(nonce);
    view = await get(s.id);
    expect(view.attempts).toHaveLength(2);
    expect(view.status).toBe("past_due");

    // A top-up during grace: the next retry pays payment 1, once; no unpause needed.
    await onAnvil.fundUsdc(s.payer, 15n * USDC);
    await warpTo(Date.parse(view.nextRetryDate) / 1000 + 1);
    await sweepRecurring();
    await sweepRecurring();
    await sweepRecurring();
    view = await get(s.id);
    expect(view.status).toBe("active");
    expect(view.processedPayments).toBe(1);
    expect(view.pastDue).toBeNull();
    expect(await balanceOf(s.payer)).toBe(0n);
    expect(await triggered()).toEqual([1]);

    // Payment 2 with no top-up and a 2-day grace for this schedule: past_due, then paused with payment.failed.
    const policy = await call(putPolicy, `/v2/payouts/recurring/${s.id}/policy`, {
      method: "PUT",
      headers: auth(),
      params: { id: s.id },
      json: { graceSeconds: 2 * DAY, retryIntervals: [3_600, 43_200] },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    await warpTo(due2);
    await sweepRecurring();
    expect((await get(s.id)).status).toBe("past_due");
    for (let t = due2 + 3_601; t < due2 + 2 * DAY + 43_200; t += 43_200) {
      await warpTo(t);
      await sweepRecurring();
    }
    view = await get(s.id);
    expect(view.status).toBe("paused");
    expect(view.failureCode).toBe("insufficient_balance");
    const failed = await events("payment.failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ recurringPaymentId: s.id, paymentIndex: 2, failureCode: "insufficient_balance" });
    // Attempts on the policy: at the due time, +1 h, then every 12 h, the last at the grace's end.
    const second = view.attempts.filter((x: { paymentIndex: number }) => x.paymentIndex === 2);
    expect(second.length).toBeGreaterThanOrEqual(4);
    expect(second[second.length - 1].nextRetryDate).toBeNull();
    expect(await relayerNonce()).toBe(nonce + 1);
    expect(await triggered()).toEqual([1]);
  }, 180_000);
});
