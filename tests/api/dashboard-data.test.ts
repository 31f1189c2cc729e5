/** The dashboard's data is the signed-in account's only: another account's payments never show. */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ulid } from "@/lib/ids";
import { accountOverview, recentPayments } from "@/lib/requests/account-overview";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";

let a: Awaited<ReturnType<typeof makeIntegrator>>;
let b: Awaited<ReturnType<typeof makeIntegrator>>;

async function paidRequest(accountId: string, currency: string, units: bigint, daysAgo: number) {
  const id = `01${ulid().toLowerCase().padEnd(64, "0")}`;
  await db().paymentRequest.create({
    data: {
      id,
      accountId,
      kind: "request",
      network: "base",
      invoiceCurrency: currency,
      paymentCurrency: currency,
      tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      amount: "1",
      expectedAmount: units.toString(),
      amountPaid: units.toString(),
      payee: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      salt: "00",
      paymentReference: `0x${id.slice(2, 18)}`,
      referenceHash: `0x${id.slice(2)}`,
      status: "paid",
      reference: `R-${accountId}`,
    },
  });
  await db().payment.create({
    data: {
      id: ulid(),
      requestId: id,
      network: "base",
      txHash: `0x${id.slice(2)}`,
      logIndex: 0,
      blockNumber: 1n,
      blockHash: `0x${"0".repeat(64)}`,
      payee: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      amount: units.toString(),
      feeAmount: "0",
      proxyAddress: "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814",
      blockTime: new Date(Date.now() - daysAgo * 86_400_000),
    },
  });
}

beforeAll(async () => {
  await resetDb();
  a = await makeIntegrator();
  b = await makeIntegrator();
  await paidRequest(a.account.id, "USDC-base", 2_500_000n, 0);
  await paidRequest(a.account.id, "USDC-base", 1_000_000n, 3);
  await paidRequest(a.account.id, "USDT-base", 4_000_000n, 40);
  await paidRequest(b.account.id, "USDC-base", 9_000_000n, 0);
});

describe("dashboard overview", () => {
  it("totals per currency and network, never one sum across tokens; days of the last 30 only", async () => {
    const o = await accountOverview(a.account.id);
    expect(o.totals).toEqual([
      { network: "base", currency: "USDC-base", symbol: "USDC", count: 2, amount: "3.5" },
      { network: "base", currency: "USDT-base", symbol: "USDT", count: 1, amount: "4" },
    ]);
    expect(o.days).toHaveLength(30);
    expect(o.days.reduce((s, d) => s + d.count, 0)).toBe(2);
    expect(o.days.at(-1)).toMatchObject({ count: 1, amounts: { "USDC-base": "2.5" } });
    expect(o.requests.paid).toBe(3);
  });

  it("another account's payments never appear", async () => {
    const o = await accountOverview(b.account.id);
    expect(o.totals).toEqual([{ network: "base", currency: "USDC-base", symbol: "USDC", count: 1, amount: "9" }]);
    expect((await recentPayments(b.account.id)).map((p) => p.reference)).toEqual([`R-${b.account.id}`]);
    expect((await recentPayments(a.account.id)).every((p) => p.reference === `R-${a.account.id}`)).toBe(true);
  });
});
