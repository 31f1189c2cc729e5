import { beforeEach, describe, expect, it } from "vitest";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { GET as pageView } from "@/app/v2/secure-payments/[token]/route";
import { POST as createLink } from "@/app/v2/secure-payments/route";
import { db } from "@/lib/db";
import { ulid } from "@/lib/ids";
import { invoiceViewForLink } from "@/lib/invoices/view";
import { checkoutSchema } from "@/lib/operations/checkout-schemas";
import { publicLinkSchema } from "@/lib/operations/secure-payment-view-schemas";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

/** Invoices and taxed line items on POST /v2/secure-payments (a Base USDC destination: 6 decimals). */
let a: Awaited<ReturnType<typeof makeIntegrator>>;

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  await db().payeeDestination.create({
    data: {
      id: `dest-${ulid()}`,
      accountId: a.account.id,
      walletAddress: "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65",
      network: "base",
      chainId: 8453,
      tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      tokenSymbol: "USDC",
    },
  });
});

const link = (json: unknown) => call(createLink, "/v2/secure-payments", { method: "POST", headers: { "x-api-key": a.apiKey }, json });
const view = (token: string) => call(pageView, `/v2/secure-payments/${token}`, { params: { token } });

describe("POST /v2/secure-payments with invoice", () => {
  it("stores a numbered invoice in the link's token; the page view and the request show it", async () => {
    // By hand, at USDC's 6 decimals: 2 × 45 = 90, 19 % = 17.1 → 107.10; 1 × 12.5 = 12.5, 7 % = 0.875 → 13.375. Total 120.475.
    const res = await link({
      requests: [{ amount: "120.475" }],
      invoice: {
        number: "2026-0042",
        dueDate: "2030-01-31",
        lines: [
          { description: "Design work", quantity: "2", unitPrice: "45", taxRate: "19" },
          { description: "Stock photo", quantity: "1", unitPrice: "12.5", taxRate: "7" },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const page = await view(res.body.token);
    expect(page.status).toBe(200);
    expect(publicLinkSchema.safeParse(page.body).error).toBeUndefined();
    expect(checkoutSchema.strict().safeParse(page.body.checkout).error).toBeUndefined();
    expect(page.body.checkout.invoice).toMatchObject({
      number: "2026-0042",
      currency: "USDC-base",
      dueDate: "2030-01-31",
      subtotal: "102.50",
      taxTotal: "17.975",
      total: "120.475",
      taxes: [
        { rate: "7", base: "12.50", tax: "0.875" },
        { rate: "19", base: "90.00", tax: "17.10" },
      ],
    });
    // GET /v2/request/{id} of the link's request shows the link's invoice.
    const req = await call(getRequest, `/v2/request/${res.body.requestIds[0]}`, {
      headers: { "x-api-key": a.apiKey },
      params: { requestId: res.body.requestIds[0] },
    });
    expect(req.body.invoice.number).toBe("2026-0042");
  });

  it("the amounts must be the invoice total (400 naming requests.0.amount, or requests for several); not with lineItems", async () => {
    const lines = [{ description: "A", quantity: "1", unitPrice: "10", taxRate: "10" }];
    const one = await link({ requests: [{ amount: "10" }], invoice: { lines } });
    expect(one.status).toBe(400);
    expect(one.body.errors[0].field).toBe("requests.0.amount");
    expect(one.body.errors[0].message).toContain("the invoice total is 11.00 USDC-base");
    expect(one.body.errors[1].field).toBe("invoice.lines.0.taxRate");
    const two = await link({ requests: [{ amount: "5" }, { amount: "5" }], invoice: { lines } });
    expect(two.body.errors[0].field).toBe("requests");
    const split = await link({ requests: [{ amount: "5.5" }, { amount: "5.5" }], invoice: { lines } });
    expect(split.status, JSON.stringify(split.body)).toBe(201);
    const both = await link({
      requests: [{ amount: "11" }],
      invoice: { lines },
      lineItems: [{ description: "A", unitAmount: "11" }],
    });
    expect(both.status).toBe(400);
    expect(both.body.errors[0].field).toBe("invoice");
    expect(await db().invoice.count()).toBe(1);
    expect((await invoiceViewForLink(split.body.token))!.number).toBe("INV-000001");
  });
});

describe("lineItems", () => {
  it("without taxRate: unchanged (quantity × unitAmount adds up to the amount; tax 0 on the page)", async () => {
    const res = await link({ requests: [{ amount: "50" }], lineItems: [{ description: "Widget", quantity: 2, unitAmount: "25" }] });
    expect(res.status).toBe(201);
    expect((await view(res.body.token)).body.checkout.lineItems).toEqual([
      { description: "Widget", quantity: 2, unitAmount: "25", taxRate: null, tax: "0", total: "50" },
    ]);
    const wrong = await link({ requests: [{ amount: "10" }], lineItems: [{ description: "A", unitAmount: "3", quantity: 3 }] });
    expect(wrong.body.errors).toEqual([{ field: "lineItems", message: "add up to 9, but the requests' amounts add up to 10" }]);
  });

  it("with taxRate: net + tax (half up per item at the token's decimals) adds up to the amount", async () => {
    // By hand: 3 × 9.99 = 29.97, 8.875 % = 2.6598375 → 2.659838 (6 decimals); total 32.629838.
    const res = await link({
      requests: [{ amount: "32.629838" }],
      lineItems: [{ description: "Mug", quantity: 3, unitAmount: "9.99", taxRate: "8.875" }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await view(res.body.token)).body.checkout.lineItems).toEqual([
      { description: "Mug", quantity: 3, unitAmount: "9.99", taxRate: "8.875", tax: "2.659838", total: "32.629838" },
    ]);
    const wrong = await link({
      requests: [{ amount: "29.97" }],
      lineItems: [{ description: "Mug", quantity: 3, unitAmount: "9.99", taxRate: "8.875" }],
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0]).toEqual({
      field: "lineItems",
      message: "add up to 32.629838 (net 29.97 + tax 2.659838, tax rounded half up per line), but the requests' amounts add up to 29.97",
    });
    const badRate = await link({ requests: [{ amount: "1" }], lineItems: [{ description: "x", unitAmount: "1", taxRate: "101" }] });
    expect(badRate.body.errors[0].field).toBe("lineItems.0.taxRate");
  });
});
