/**
 * Issue 32: renewing a subscription's permit from the payer's side. The oracle is the recurring
 * contract itself: after the first permit's deadline has passed, it refuses the old (permit,
 * signature) pair (SignatureExpired, so the executor pauses with deadline_passed) and accepts the
 * payer's re-signed permit, which continues the same schedule — payments 1..3 each triggered once,
 * in order (its PaymentTriggered events, read with viem). Bad renewals are 400s naming the field.
 */
import { createPublicClient, type Hex, type PublicClient, http as viemHttp } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATCH as manage } from "@/app/v2/payouts/recurring/[id]/route";
import { GET as getRenewal, POST as postRenewal } from "@/app/v2/subscriptions/[token]/permit/route";
import { db } from "@/lib/db";
import { getPayerSchedulePage } from "@/lib/recurring/payer-page";
import { type JsonTypedData, typedDataToSign } from "@/lib/recurring/permit-signing";
import { sweepRecurring } from "@/lib/recurring/run";
import type { Devnet } from "@/scripts/devnet";
import { chainTime, moveDevnetClock } from "@/scripts/devnet/time";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { recurringAnvil } from "@/tests/helpers/recurring-anvil";

const USDC = 1_000_000n;

let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let onAnvil: ReturnType<typeof recurringAnvil>;
let startBlock: bigint;

const auth = () => ({ "x-api-key": a.apiKey });
const triggeredIndexes = () => onAnvil.triggeredIndexes(startBlock);

/** Signs the typed data the API returned, as the payer page does (uint values come as decimal strings). */
const signRenewal = (key: Hex, typed: JsonTypedData) => privateKeyToAccount(key).signTypedData(typedDataToSign(typed));

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: viemHttp(devnet.rpcUrl), pollingInterval: 50 }) as PublicClient;
  await resetDb();
  a = await makeIntegrator();
  onAnvil = recurringAnvil(devnet, pub, auth);
  startBlock = await pub.getBlockNumber();
}, 60_000);

afterAll(async () => {
  await stopDevnet(devnet);
});

describe("renewing a subscription's permit", () => {
  it("a schedule stopped by its permit's deadline is renewed by the payer's signature and continues in order, once", async () => {
    // A payer with gas and 100 USDC; 3 weekly payments of 25 USDC from 1 hour ahead, approved and signed.
    const { id, key, payer } = await onAnvil.subscribe((await chainTime(devnet.rpcUrl)) + 3600, 100n * USDC);
    const row = await db().recurringSchedule.findUniqueOrThrow({ where: { id } });
    const token = row.payerToken!;
    const url = `/v2/subscriptions/${token}/permit`;

    // Nothing ran until after the permit's deadline (30 days past the last due time): the executor pauses it.
    await moveDevnetClock(devnet.rpcUrl, { kind: "at", timestamp: row.deadline + 60 });
    await sweepRecurring();
    let s = await db().recurringSchedule.findUniqueOrThrow({ where: { id } });
    expect(s.status).toBe("paused");
    expect(s.failureCode).toBe("deadline_passed");
    expect(await triggeredIndexes()).toEqual([]);
    expect((await getPayerSchedulePage(token))?.permit).toMatchObject({ renew: true });
    // The merchant cannot unpause it: only the payer's new signature can extend the permit.
    const unpause = await call(manage, `/v2/payouts/recurring/${id}`, {
      method: "PATCH",
      headers: auth(),
      params: { id },
      json: { action: "unpause" },
    });
    expect(unpause.status).toBe(400);
    expect(unpause.body.message).toMatch(/renew it on the subscription page/);

    // The renewal the page offers: the same permit with a later deadline.
    const plan = await call(getRenewal, url, { params: { token } });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    expect(Number(plan.body.deadline)).toBeGreaterThan(row.deadline);
    expect(plan.body.typedData.message).toMatchObject({ subscriber: payer, nonce: row.nonce, scheduleId: row.scheduleId });

    // Refused by name: another key's signature; a deadline not later than the current one.
    const stranger = await signRenewal(generatePrivateKey(), plan.body.typedData);
    const bad = await call(postRenewal, url, {
      method: "POST",
      params: { token },
      json: { deadline: plan.body.deadline, signature: stranger },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: "signature" })]);
    const early = await call(postRenewal, url, {
      method: "POST",
      params: { token },
      json: { deadline: String(row.deadline), signature: stranger },
    });
    expect(early.status).toBe(400);
    expect(early.body.errors).toEqual([expect.objectContaining({ field: "deadline" })]);

    // The payer's signature: renewed, active again.
    const signature = await signRenewal(key, plan.body.typedData);
    const ok = await call(postRenewal, url, { method: "POST", params: { token }, json: { deadline: plan.body.deadline, signature } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.status).toBe("active");
    expect((await getPayerSchedulePage(token))?.permit).toMatchObject({ renew: false });
    // The same renewal again: its deadline is no longer later than the stored one.
    const again = await call(postRenewal, url, { method: "POST", params: { token }, json: { deadline: plan.body.deadline, signature } });
    expect(again.status).toBe(400);

    // The contract accepts the renewed permit after the old deadline: the three payments, in order, once each.
    for (let i = 0; i < 8 && (await db().recurringSchedule.findUniqueOrThrow({ where: { id } })).processedPayments < 3; i++)
      await sweepRecurring();
    s = await db().recurringSchedule.findUniqueOrThrow({ where: { id } });
    expect(s.processedPayments).toBe(3);
    expect(s.status).toBe("completed");
    expect(await triggeredIndexes()).toEqual([1, 2, 3]);
    // A completed schedule has nothing to renew.
    expect((await call(getRenewal, url, { params: { token } })).status).toBe(409);
  }, 120_000);
});
