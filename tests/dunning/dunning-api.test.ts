/**
 * The dunning policy routes (issue 32): PUT/GET /v2/payouts/recurring-policy and PUT
 * /v2/payouts/recurring/{id}/policy — a bad value is a 400 naming the field, an unknown field is
 * refused, another account's schedule is a 404, and the policy in force shows on GET
 * /v2/payouts/recurring/{id} with the past-due state the executor writes. The retry calendar is
 * checked against times written out by hand from the documented default.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { PUT as putSchedulePolicy } from "@/app/v2/payouts/recurring/[id]/policy/route";
import { GET as getRecurring } from "@/app/v2/payouts/recurring/[id]/route";
import { GET as getPolicy, PUT as putPolicy } from "@/app/v2/payouts/recurring-policy/route";
import { db } from "@/lib/db";
import { ulid } from "@/lib/ids";
import { DEFAULT_POLICY, nextRetryAt } from "@/lib/recurring/dunning-policy";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let a: Awaited<ReturnType<typeof makeIntegrator>>;
let other: Awaited<ReturnType<typeof makeIntegrator>>;
const DAY = 86_400;

async function schedule(accountId: string) {
  const id = ulid();
  const t = Math.floor(Date.UTC(2027, 0, 1) / 1000);
  await db().recurringSchedule.create({
    data: {
      id,
      accountId,
      network: "base",
      chainId: 8453,
      contract: "0x0000000000000000000000000000000000000001",
      token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      invoiceCurrency: "USDC-base",
      paymentCurrency: "USDC-base",
      frequency: "MONTHLY",
      startDate: new Date(t * 1000),
      payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      payee: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      amount: "25000000",
      totalPayments: 3,
      dueTimes: [t, t + 31 * DAY, t + 59 * DAY],
      deadline: t + 90 * DAY,
      nonce: "1",
      scheduleId: `0x${"ab".repeat(32)}`,
      status: "active",
      nextDueAt: new Date((t + 300) * 1000),
      pastDueIndex: 1,
      pastDueSince: new Date(t * 1000),
      failureCode: "insufficient_balance",
    },
  });
  await db().recurringAttempt.create({
    data: {
      id: ulid(),
      scheduleId: id,
      index: 1,
      attempt: 1,
      at: new Date(t * 1000),
      reason: "insufficient_balance",
      missing: "15000000",
      nextRetryAt: new Date((t + 300) * 1000),
    },
  });
  return id;
}

const put = (json: unknown, key = a.apiKey) =>
  call(putPolicy, "/v2/payouts/recurring-policy", { method: "PUT", headers: { "x-api-key": key }, json });
const putFor = (id: string, json: unknown, key = a.apiKey) =>
  call(putSchedulePolicy, `/v2/payouts/recurring/${id}/policy`, { method: "PUT", headers: { "x-api-key": key }, params: { id }, json });
const fields = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((e) => e.field);

beforeAll(async () => {
  await resetDb();
  a = await makeIntegrator();
  other = await makeIntegrator();
});

describe("dunning policy API", () => {
  it("shows the default, then the account's; refuses bad values naming the field", async () => {
    const initial = await call(getPolicy, "/v2/payouts/recurring-policy", { headers: { "x-api-key": a.apiKey } });
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({
      retryIntervals: [300, 900, 1800, 3600, 7200, 14400, 28800, 43200, 86400],
      graceSeconds: 604800,
      reminderLeadTimes: [259200, 86400],
    });
    const cases: [unknown, string][] = [
      [{ graceSeconds: -1 }, "graceSeconds"],
      [{ graceSeconds: 40 * DAY }, "graceSeconds"],
      [{ graceSeconds: "7d" }, "graceSeconds"],
      [{ retryIntervals: [] }, "retryIntervals"],
      [{ retryIntervals: [10] }, "retryIntervals"],
      [{ retryIntervals: [3600, 600] }, "retryIntervals"],
      [{ reminderLeadTimes: [DAY, DAY] }, "reminderLeadTimes"],
      [{ reminderLeadTimes: [60 * DAY] }, "reminderLeadTimes"],
    ];
    for (const [json, field] of cases) {
      const res = await put(json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(
        fields(res.body).some((f) => f.startsWith(field)),
        `${JSON.stringify(json)} → ${JSON.stringify(res.body)}`,
      ).toBe(true);
    }
    const unknown = await put({ graceDays: 3 });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain("graceDays");
    const ok = await put({ graceSeconds: 3 * DAY, reminderLeadTimes: [] });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ...DEFAULT_POLICY, graceSeconds: 3 * DAY, reminderLeadTimes: [] });
    expect((await call(getPolicy, "/v2/payouts/recurring-policy", { headers: { "x-api-key": a.apiKey } })).body.graceSeconds).toBe(3 * DAY);
  });

  it("sets a schedule's own policy; another account's schedule is a 404; GET shows past_due and the attempts", async () => {
    const id = await schedule(a.account.id);
    expect((await putFor(id, { graceSeconds: 0 }, other.apiKey)).status).toBe(404);
    expect((await putFor(ulid(), { graceSeconds: 0 })).status).toBe(404);
    const bad = await putFor(id, { retryIntervals: [0] });
    expect(bad.status).toBe(400);
    expect(fields(bad.body).some((f) => f.startsWith("retryIntervals"))).toBe(true);
    const set = await putFor(id, { retryIntervals: [600, 3600] });
    expect(set.status).toBe(200);
    // The schedule's part wins; the rest is the account's (3 days, no reminders).
    expect(set.body.dunningPolicy).toEqual({ retryIntervals: [600, 3600], graceSeconds: 3 * DAY, reminderLeadTimes: [] });
    const view = await call(getRecurring, `/v2/payouts/recurring/${id}`, { headers: { "x-api-key": a.apiKey }, params: { id } });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      status: "past_due",
      pastDue: { paymentIndex: 1, since: "2027-01-01T00:00:00.000Z", gracePeriodEndsAt: "2027-01-04T00:00:00.000Z" },
      nextRetryDate: "2027-01-01T00:05:00.000Z",
      attempts: [
        { paymentIndex: 1, attempt: 1, reason: "insufficient_balance", amountMissing: "15", nextRetryDate: "2027-01-01T00:05:00.000Z" },
      ],
      dunningPolicy: { retryIntervals: [600, 3600], graceSeconds: 3 * DAY },
    });
    expect(
      (await call(getRecurring, `/v2/payouts/recurring/${id}`, { headers: { "x-api-key": other.apiKey }, params: { id } })).status,
    ).toBe(404);
  });

  it("retry times follow the default calendar: 5 min, 15, 30, 1 h, 2 h, 4 h, 8 h, 12 h, then daily, capped at the grace's end", () => {
    // Cumulative offsets of the default from the first failed attempt, written out by hand.
    const expected = [300, 1200, 3000, 6600, 13800, 28200, 57000, 100200, 186600, 273000, 359400, 445800, 532200, 604800];
    const got: number[] = [];
    for (let at = 0, next = nextRetryAt(DEFAULT_POLICY, 0, 0); next !== null; next = nextRetryAt(DEFAULT_POLICY, 0, at)) {
      got.push(next);
      at = next;
    }
    expect(got).toEqual(expected);
    expect(nextRetryAt(DEFAULT_POLICY, 0, 7 * DAY)).toBeNull();
    expect(nextRetryAt({ ...DEFAULT_POLICY, graceSeconds: 0 }, 0, 0)).toBeNull();
  });
});
