/**
 * The dashboard's money once refunds exist (issue 28, item 4): the overview's "Received" totals are
 * net of the payee's confirmed refunds (deposit-relayer returns never were received, prepared, sent
 * and cancelled refunds move nothing yet), per currency and network; the payments list's badges say
 * what each request refunded. As a property (fast-check, fixed seed): for random payments in and
 * out and random refunds in every state, recorded through the real functions, the totals equal the
 * sums of the recorded transfers read back from the tables.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { PaymentRequest } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";
import { insertRefund, recordRefundTransfer } from "@/lib/refunds";
import { accountOverview } from "@/lib/requests/account-overview";
import { refundBadgesOf } from "@/lib/requests/payment-refunds";
import { resetDb } from "@/tests/helpers/db";
import { insertPaidRequest, makeIntegrator } from "@/tests/helpers/factories";

const PAYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const SEED = Number(process.env.FUZZ_SEED ?? 0x2804);
let n = 0;

type RefundState = "prepared" | "sent" | "confirmed" | "cancelled" | "returned";

/** A refund of `units` of the request in `state`, each through lib/refunds as the API and detection write them. */
async function refund(request: PaymentRequest, units: bigint, state: RefundState) {
  n += 1;
  const txHash = `0x${(n + 0x1000).toString(16).padStart(64, "0")}`;
  const relayer = state === "returned";
  const row = await db().$transaction((tx) =>
    insertRefund(tx, request, {
      to: PAYER,
      amount: units,
      reason: relayer ? "excess" : "requested",
      sender: relayer ? "relayer" : "payee",
      txHash: state === "prepared" || state === "cancelled" ? null : txHash,
    }),
  );
  if (state === "cancelled") await db().refund.update({ where: { id: row.id }, data: { status: "cancelled", cancelledAt: new Date() } });
  if (state === "confirmed" || state === "returned") {
    const out = await recordRefundTransfer(request, {
      txHash,
      logIndex: 0,
      blockNumber: BigInt(1000 + n),
      blockHash: `0x${"c".repeat(60)}${(n % 65536).toString(16).padStart(4, "0")}`,
      blockTime: new Date(),
      tokenAddress: request.tokenAddress,
      to: row.toAddress,
      amount: units,
      referenceHash: row.referenceHash,
      from: request.payee,
    });
    expect(out).toBe("recorded");
  }
  return row;
}

const requestOf = (id: string) => db().paymentRequest.findUniqueOrThrow({ where: { id } });

beforeAll(async () => {
  await resetDb();
});

describe("overview totals net of refunds", () => {
  it("Received is net of the payee's confirmed refunds only, shown apart; payouts and other states are untouched", async () => {
    const a = await makeIntegrator();
    const paid = await requestOf(await insertPaidRequest(a.account.id, "USDC-base", 10_000_000n, 0, { payer: PAYER }));
    const other = await requestOf(await insertPaidRequest(a.account.id, "USDC-base", 5_000_000n, 1, { payer: PAYER }));
    await insertPaidRequest(a.account.id, "USDT-base", 2_000_000n, 0, { payer: PAYER });
    await insertPaidRequest(a.account.id, "USDC-base", 3_000_000n, 0, { kind: "payout" });
    await refund(paid, 4_000_000n, "confirmed");
    await refund(paid, 1_000_000n, "sent");
    await refund(other, 2_000_000n, "prepared");
    await refund(other, 500_000n, "cancelled");
    await refund(other, 250_000n, "returned");

    const o = await accountOverview(a.account.id);
    expect(o.incoming).toEqual([
      {
        direction: "incoming",
        network: "base",
        networkName: "Base",
        currency: "USDC-base",
        symbol: "USDC",
        count: 2,
        amount: "11",
        gross: "15",
        refunded: "4",
        refundCount: 1,
      },
      {
        direction: "incoming",
        network: "base",
        networkName: "Base",
        currency: "USDT-base",
        symbol: "USDT",
        count: 1,
        amount: "2",
        gross: "2",
        refunded: "0",
        refundCount: 0,
      },
    ]);
    expect(o.outgoing).toEqual([
      {
        direction: "outgoing",
        network: "base",
        networkName: "Base",
        currency: "USDC-base",
        symbol: "USDC",
        count: 1,
        amount: "3",
        gross: "3",
        refunded: "0",
        refundCount: 0,
      },
    ]);

    // The payments list's badges: this page's requests only, each with its own refunds.
    const badges = await refundBadgesOf(a.account.id, [paid.id, other.id, paid.id]);
    expect(badges.get(paid.id)).toEqual({ refundStatus: "partially_refunded", refunded: "4", sending: "1", returned: "0" });
    expect(badges.get(other.id)).toEqual({ refundStatus: "none", refunded: "0", sending: "0", returned: "0.25" });
    expect(await refundBadgesOf(a.account.id, [])).toEqual(new Map());

    // A full refund reads "refunded".
    await refund(paid, 6_000_000n, "confirmed");
    expect((await refundBadgesOf(a.account.id, [paid.id])).get(paid.id)).toMatchObject({ refundStatus: "refunded", refunded: "10" });
    expect((await accountOverview(a.account.id)).incoming[0]).toMatchObject({ amount: "5", gross: "15", refunded: "10", refundCount: 2 });
  });

  it("another account's refunds change nothing of this account's totals or badges", async () => {
    const a = await makeIntegrator();
    const b = await makeIntegrator();
    const mine = await requestOf(await insertPaidRequest(a.account.id, "USDC-base", 8_000_000n, 0, { payer: PAYER }));
    const theirs = await requestOf(await insertPaidRequest(b.account.id, "USDC-base", 8_000_000n, 0, { payer: PAYER }));
    await refund(theirs, 8_000_000n, "confirmed");
    expect((await accountOverview(a.account.id)).incoming[0]).toMatchObject({ amount: "8", refunded: "0" });
    expect((await accountOverview(b.account.id)).incoming[0]).toMatchObject({ amount: "0", refunded: "8" });
    // A's page asking for B's request id learns nothing.
    expect(await refundBadgesOf(a.account.id, [theirs.id, mine.id])).toEqual(new Map());
  });

  it("property: the totals equal the recorded transfers' sums, for any payments and refunds", async () => {
    const currencies = ["USDC-base", "USDT-base"] as const;
    const states: RefundState[] = ["prepared", "sent", "confirmed", "cancelled", "returned"];
    const arb = fc.array(
      fc.record({
        currency: fc.constantFrom(...currencies),
        kind: fc.constantFrom("request" as const, "payout" as const),
        units: fc.integer({ min: 1, max: 50 }).map((u) => BigInt(u) * 100_000n),
        refunds: fc.array(fc.record({ share: fc.integer({ min: 1, max: 30 }), state: fc.constantFrom(...states) }), { maxLength: 3 }),
      }),
      { minLength: 1, maxLength: 5 },
    );
    await fc.assert(
      fc.asyncProperty(arb, async (requests) => {
        const a = await makeIntegrator();
        for (const r of requests) {
          const row = await requestOf(await insertPaidRequest(a.account.id, r.currency, r.units, 0, { payer: PAYER, kind: r.kind }));
          if (r.kind !== "request") continue;
          // Each refund a share of the payment (at most 90 % in all: a refund is capped by what was received).
          let left = (r.units * 9n) / 10n;
          for (const f of r.refunds) {
            const units = (r.units * BigInt(f.share)) / 100n;
            if (units === 0n || units > left) continue;
            left -= units;
            await refund(row, units, f.state);
          }
        }
        const o = await accountOverview(a.account.id);
        const truth = await db().$queryRaw<{ kind: string; currency: string; paid: string; refunded: string }[]>`
          SELECT pr."kind"::text AS kind, pr."paymentCurrency" AS currency,
                 (SELECT coalesce(sum(p."amount"), 0) FROM "Payment" p JOIN "PaymentRequest" q ON q."id" = p."requestId"
                   WHERE p."accountId" = ${a.account.id} AND q."kind" = pr."kind" AND q."paymentCurrency" = pr."paymentCurrency")::text AS paid,
                 (SELECT coalesce(sum(f."amount"), 0) FROM "Refund" f JOIN "PaymentRequest" q ON q."id" = f."requestId"
                   WHERE f."accountId" = ${a.account.id} AND f."status" = 'confirmed' AND f."sender" = 'payee'
                     AND q."kind" = pr."kind" AND q."paymentCurrency" = pr."paymentCurrency")::text AS refunded
          FROM (SELECT DISTINCT "kind", "paymentCurrency" FROM "PaymentRequest" WHERE "accountId" = ${a.account.id}) pr`;
        for (const t of truth) {
          const direction = t.kind === "request" ? "incoming" : "outgoing";
          const shown = o[direction].find((x) => x.currency === t.currency);
          const refunded = t.kind === "request" ? BigInt(t.refunded) : 0n;
          expect(shown).toMatchObject({
            gross: formatAmount(BigInt(t.paid), 6),
            refunded: formatAmount(refunded, 6),
            amount: formatAmount(BigInt(t.paid) - refunded, 6),
          });
          // Net is never below 0 while refunds stay within what was received.
          expect(BigInt(t.paid) - refunded >= 0n).toBe(true);
        }
        // amountRefunded (what the badges read) equals the confirmed payee refunds, request by request.
        const rows = await db().paymentRequest.findMany({ where: { accountId: a.account.id }, select: { id: true, amountRefunded: true } });
        const badges = await refundBadgesOf(
          a.account.id,
          rows.map((r) => r.id),
        );
        for (const r of rows) {
          const confirmed = await db().refund.aggregate({
            where: { requestId: r.id, status: "confirmed", sender: "payee" },
            _sum: { amount: true },
          });
          expect(r.amountRefunded.toFixed()).toBe(confirmed._sum.amount?.toFixed() ?? "0");
          if (badges.has(r.id)) expect(badges.get(r.id)!.refunded).toBe(formatAmount(BigInt(r.amountRefunded.toFixed()), 6));
        }
      }),
      { seed: SEED, numRuns: Number(process.env.FUZZ_RUNS ?? 12) },
    );
  });
});
