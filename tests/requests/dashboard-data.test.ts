/** The dashboard's data is the signed-in account's only: another account's payments never show. */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { insertPayment } from "@/lib/detection/record-payment";
import { accountOverview, recentPayments } from "@/lib/requests/account-overview";
import { resetDb } from "@/tests/helpers/db";
import { insertPaidRequest, makeIntegrator } from "@/tests/helpers/factories";

let a: Awaited<ReturnType<typeof makeIntegrator>>;
let b: Awaited<ReturnType<typeof makeIntegrator>>;

beforeAll(async () => {
  await resetDb();
  a = await makeIntegrator();
  b = await makeIntegrator();
  await insertPaidRequest(a.account.id, "USDC-base", 2_500_000n, 0);
  await insertPaidRequest(a.account.id, "USDC-base", 1_000_000n, 3);
  await insertPaidRequest(a.account.id, "USDT-base", 4_000_000n, 40);
  await insertPaidRequest(b.account.id, "USDC-base", 9_000_000n, 0);
});

describe("dashboard overview", () => {
  it("totals per currency and network, never one sum across tokens; days of the last 30 only", async () => {
    const o = await accountOverview(a.account.id);
    expect(o.incoming).toEqual([
      {
        direction: "incoming",
        network: "base",
        networkName: "Base",
        currency: "USDC-base",
        symbol: "USDC",
        count: 2,
        amount: "3.5",
        gross: "3.5",
        refunded: "0",
        refundCount: 0,
      },
      {
        direction: "incoming",
        network: "base",
        networkName: "Base",
        currency: "USDT-base",
        symbol: "USDT",
        count: 1,
        amount: "4",
        gross: "4",
        refunded: "0",
        refundCount: 0,
      },
    ]);
    expect(o.outgoing).toEqual([]);
    expect(o.days).toHaveLength(30);
    expect(o.days.reduce((s, d) => s + d.incoming.count, 0)).toBe(2);
    expect(o.days.at(-1)?.incoming).toEqual({ count: 1, amounts: { "USDC-base": "2.5" } });
    expect(o.requests.paid).toBe(3);
  });

  it("another account's payments never appear", async () => {
    const o = await accountOverview(b.account.id);
    expect(o.incoming).toEqual([
      {
        direction: "incoming",
        network: "base",
        networkName: "Base",
        currency: "USDC-base",
        symbol: "USDC",
        count: 1,
        amount: "9",
        gross: "9",
        refunded: "0",
        refundCount: 0,
      },
    ]);
    expect((await recentPayments(b.account.id)).map((p) => p.reference)).toEqual([`R-${b.account.id}`]);
    expect((await recentPayments(a.account.id)).every((p) => p.reference === `R-${a.account.id}`)).toBe(true);
  });
});

describe("what the overview reads: Payment.accountId and the PaymentDaily rollup", () => {
  const fromPayments = () =>
    db().$queryRaw`
      SELECT pr."accountId", p."blockTime"::date::text AS day, pr."network", pr."paymentCurrency" AS currency, pr."kind"::text AS kind,
             count(*)::int AS count, sum(p."amount")::text AS amount
      FROM "Payment" p JOIN "PaymentRequest" pr ON pr."id" = p."requestId"
      GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`;
  const rollup = () =>
    db().$queryRaw`
      SELECT "accountId", "day"::text AS day, "network", "currency", "kind"::text AS kind, "count", "amount"::text AS amount
      FROM "PaymentDaily" ORDER BY 1, 2, 3, 4, 5`;

  it("every payment carries its request's account, and the rollup equals the payments' sums per day", async () => {
    const mismatched = await db().$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "Payment" p JOIN "PaymentRequest" pr ON pr."id" = p."requestId" WHERE p."accountId" <> pr."accountId"`;
    expect(mismatched[0]?.n).toBe(0);
    expect(await rollup()).toEqual(await fromPayments());
  });

  it("a payment recorded again (same network, txHash, logIndex) is not counted twice", async () => {
    const p = await db().payment.findFirstOrThrow({ where: { accountId: b.account.id }, include: { request: true } });
    const before = await rollup();
    const { request, requestId: _r, accountId: _a, network: _n, createdAt: _c, ...row } = p;
    const again = await db().$transaction((tx) =>
      insertPayment(tx, request, { ...row, id: `${p.id}X`, amount: p.amount.toFixed(), feeAmount: p.feeAmount.toFixed() }),
    );
    expect(again).toBe(false);
    expect(await rollup()).toEqual(before);
    expect(await db().payment.count({ where: { accountId: b.account.id } })).toBe(1);
  });
});
