/**
 * GET /v2/payments at scale (issue 33's search curve): the counts of the network, currency and direction
 * filters come from the per-day rollup, and wallet / transaction searches go through the lower() indexes
 * (lib/requests/search-prefilter.ts). Both must give what the plain filters give: every total here is
 * checked against the payments the search itself lists (all on one page) and against SQL over Payment.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as search } from "@/app/v2/payments/route";
import { db } from "@/lib/db";
import { CANDIDATES, candidateIdsOf } from "@/lib/requests/search-prefilter";
import { resetDb } from "@/tests/helpers/db";
import { insertPaidRequest, makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let a: Awaited<ReturnType<typeof makeIntegrator>>;
let b: Awaited<ReturnType<typeof makeIntegrator>>;
const PAYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

beforeAll(async () => {
  await resetDb();
  [a, b] = await Promise.all([makeIntegrator(), makeIntegrator()]);
  const currencies = ["USDC-base", "USDT-base", "USDC-base", "USDC-base", "USDT-base", "USDC-base"];
  for (const [i, c] of currencies.entries())
    await insertPaidRequest(a.account.id, c, BigInt((i + 1) * 1_000_000), i, { payer: i % 3 === 0 ? PAYER.toLowerCase() : undefined });
  await insertPaidRequest(b.account.id, "USDT-base", 7_000_000n, 1, { payer: PAYER });
});

const get = (query: string) => call(search, `/v2/payments${query}`, { headers: { "x-api-key": a.apiKey } });

describe("GET /v2/payments at scale", () => {
  it("the rollup counts agree with the payments listed and with SQL over Payment", async () => {
    const sql = async (currencyPrefix: string | null) => {
      const rows = await db().$queryRaw<{ n: bigint }[]>`
        SELECT count(*) AS n FROM "Payment" p JOIN "PaymentRequest" r ON r."id" = p."requestId"
        WHERE p."accountId" = ${a.account.id} AND (${currencyPrefix}::text IS NULL OR r."paymentCurrency" ILIKE ${`${currencyPrefix ?? ""}%`})`;
      return Number(rows[0]!.n);
    };
    const cases: [string, number][] = [
      ["?network=base", await sql(null)],
      ["?paymentCurrency=USDT", await sql("USDT")],
      ["?paymentCurrency=usdc", await sql("USDC")],
      ["?paymentCurrency=USDC-base&network=base&direction=incoming", await sql("USDC-base")],
      ["?direction=outgoing", 0],
      ["?network=mainnet", 0],
    ];
    for (const [q, expected] of cases) {
      const r = await get(`${q}${q.includes("?") ? "&" : "?"}limit=100`);
      expect(r.status, q).toBe(200);
      expect(r.body.pagination.total, q).toBe(expected);
      expect(r.body.payments.length, q).toBe(expected);
    }
    expect(await sql("USDT")).toBe(2);
    expect(await sql("USDC")).toBe(4);
  });

  it("a wallet or a transaction is found in any case, only in the caller's account, and the candidates are a superset", async () => {
    const byWallet = await get(`?walletAddress=${PAYER}`);
    expect(byWallet.body.pagination.total).toBe(2);
    expect(byWallet.body.payments.map((p: { payer: string }) => p.payer)).toEqual([PAYER.toLowerCase(), PAYER.toLowerCase()]);
    const tx = byWallet.body.payments[0].sourceTxHash as string;
    const byTx = await get(`?txHash=${tx.toUpperCase().replace("0X", "0x")}`);
    expect(byTx.body.payments.map((p: { sourceTxHash: string }) => p.sourceTxHash)).toEqual([tx]);
    expect(await candidateIdsOf(a.account.id, { walletAddress: PAYER.toUpperCase().replace("0X", "0x") })).toHaveLength(2);
    expect(await candidateIdsOf(b.account.id, { walletAddress: PAYER })).toHaveLength(1);
    // LIKE's wildcards are never looked up through the index: the search runs its own filter.
    expect(await candidateIdsOf(a.account.id, { txHash: "0x%" })).toBeNull();
    // …so it answers exactly what the plain filter (Prisma's ILIKE) answers, here every payment of the account.
    expect((await get("?txHash=0x%25")).body.pagination.total).toBe((await get("")).body.pagination.total);
    expect(CANDIDATES).toBeGreaterThan(0);
  });
});
