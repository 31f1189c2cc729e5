/**
 * GET /v2/request/{id} reads everything in one statement (lib/requests/read-request.ts): the objects
 * it decodes from the statement's JSON must be exactly what Prisma's own reads return (every column,
 * Decimal to the last digit, BigInt, timestamps to the millisecond, JSON columns), or the response
 * would drift. Compared here against Prisma's findFirst/findMany on rows that fill every column.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ulid } from "@/lib/ids";
import { readRequestBundle } from "@/lib/requests/read-request";
import { resetDb } from "@/tests/helpers/db";
import { insertPaidRequest, makeIntegrator } from "@/tests/helpers/factories";

const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
// 78 digits: more than a JS number (or a double in JSON) can carry.
const HUGE = "123456789012345678901234567890123456789012345678901234567890123456789012345678";
let a: Awaited<ReturnType<typeof makeIntegrator>>;

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
});

async function fullRequest(): Promise<string> {
  const id = await insertPaidRequest(a.account.id, "USDC-base", 5_000_000n, 2, { feeAmount: 10n, hexId: true, payer: USDC });
  const t = (ms: number) => new Date(Date.UTC(2026, 10, 27, 12, 0, 0, ms));
  await db().paymentRequest.update({
    where: { id },
    data: { customerInfo: { email: "x@example.com", nested: { n: 1 } }, feeLegs: [{ address: USDC, amount: "7" }], subStatus: "fee" },
  });
  await db().payment.create({
    data: {
      id: ulid(),
      requestId: id,
      accountId: a.account.id,
      network: "base",
      txHash: `0x${"cd".repeat(32)}`,
      logIndex: 7,
      blockNumber: 9_007_199_254_740_993n,
      blockHash: `0x${"ef".repeat(32)}`,
      payer: USDC,
      payerEoa: USDC,
      payee: USDC,
      tokenAddress: USDC,
      amount: HUGE,
      feeAmount: "1",
      feeAddress: USDC,
      proxyAddress: USDC,
      invoiceAmount: HUGE,
      invoiceFeeAmount: "3",
      conversionRate: "1.000000000000000001",
      amountInUsd: "12345678901234567890123456789012.12345678",
      depositAddress: USDC,
      blockTime: t(1),
      createdAt: t(120),
    },
  });
  for (const [status, sender, ms] of [
    ["confirmed", "relayer", 0],
    ["cancelled", "relayer", 10],
    ["prepared", "payee", 999],
  ] as const) {
    await db().refund.create({
      data: {
        id: `rfd_${ulid()}`,
        requestId: id,
        accountId: a.account.id,
        network: "base",
        tokenAddress: USDC,
        toAddress: USDC,
        amount: "42",
        refundReference: `0x${ulid()}`,
        referenceHash: `0x${ulid()}`,
        reason: "late",
        sender,
        status,
        warning: status === "prepared" ? "check" : null,
        txHash: status === "confirmed" ? `0x${"12".repeat(32)}` : null,
        logIndex: status === "confirmed" ? 3 : null,
        blockNumber: status === "confirmed" ? 77n : null,
        blockHash: status === "confirmed" ? `0x${"34".repeat(32)}` : null,
        blockTime: status === "confirmed" ? t(5) : null,
        sentAt: status === "confirmed" ? t(6) : null,
        confirmedAt: status === "confirmed" ? t(7) : null,
        cancelledAt: status === "cancelled" ? t(8) : null,
        createdAt: t(ms),
      },
    });
  }
  await db().invoice.create({
    data: {
      id: ulid(),
      accountId: a.account.id,
      sequence: 1,
      number: "INV-000001",
      requestId: id,
      currency: "USD",
      issueDate: t(0),
      dueDate: t(500),
      customer: { name: "Café Ωmega", address: ["a", "b"] },
      notes: "thanks",
      lines: [{ description: "x", quantity: "1", unitPrice: "12.5", net: "12.5", tax: "0", taxRate: null }],
      subtotal: "12.5",
      taxTotal: "0",
      total: "12.5",
    },
  });
  await db().depositAddress.create({
    data: { requestId: id, network: "base", tokenAddress: USDC, factoryAddress: USDC, lateAmount: HUGE },
  });
  return id;
}

describe("readRequestBundle (GET /v2/request/{id}'s one statement)", () => {
  it("decodes every column of the request, its payments, refunds, invoice and deposit as Prisma reads them", async () => {
    const id = await fullRequest();
    const b = await readRequestBundle(a.account.id, id);
    expect(b.row).toStrictEqual(await db().paymentRequest.findFirstOrThrow({ where: { id } }));
    const byId = <T extends { id: string }>(xs: T[]) => [...xs].sort((x, y) => x.id.localeCompare(y.id));
    expect(byId(b.payments)).toStrictEqual(byId(await db().payment.findMany({ where: { requestId: id } })));
    expect(b.payments).toHaveLength(2);
    expect(b.payments.find((p) => p.logIndex === 7)!.amount.toFixed()).toBe(HUGE);
    expect(byId(b.refunds)).toStrictEqual(byId(await db().refund.findMany({ where: { requestId: id } })));
    expect(b.refunds).toHaveLength(3);
    expect(b.invoice).toStrictEqual(await db().invoice.findUnique({ where: { requestId: id } }));
    expect(b.depositLate.toFixed()).toBe(HUGE);
    expect(b.link).toBeNull();
    expect(b.recurrence).toBeNull();
  });

  it("reads a link's invoice and token when the request has no invoice of its own", async () => {
    const id = await insertPaidRequest(a.account.id, "USDC-base", 1n, 0, { hexId: true });
    const token = ulid();
    const expiresAt = new Date(Date.UTC(2027, 0, 2, 3, 4, 5, 6));
    await db().securePayment.create({
      data: {
        token,
        accountId: a.account.id,
        direction: "incoming",
        paymentType: "single",
        network: "base",
        currency: "USDC-base",
        identityMode: "manual_dashboard",
        expiresAt,
      },
    });
    await db().securePaymentRequest.create({ data: { securePaymentToken: token, requestId: id, position: 0 } });
    const invoice = await db().invoice.create({
      data: {
        id: ulid(),
        accountId: a.account.id,
        sequence: 2,
        number: "INV-000002",
        securePaymentToken: token,
        currency: "USD",
        issueDate: new Date(),
        lines: [],
        subtotal: "1",
        taxTotal: "0",
        total: "1",
      },
    });
    const b = await readRequestBundle(a.account.id, id);
    expect(b.link).toStrictEqual({ token, status: "pending", expiresAt });
    expect(b.invoice).toStrictEqual(invoice);
    expect(b.depositLate.toFixed()).toBe("0");
  });

  it("answers another account's request as a missing one (404)", async () => {
    const id = await insertPaidRequest(a.account.id, "USDC-base", 1n, 0, { hexId: true });
    const other = await makeIntegrator();
    await expect(readRequestBundle(other.account.id, id)).rejects.toMatchObject({ status: 404 });
    await expect(readRequestBundle(a.account.id, `01${"0".repeat(64)}`)).rejects.toMatchObject({ status: 404 });
  });
});
