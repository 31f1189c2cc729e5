import { beforeEach, describe, expect, it } from "vitest";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { POST as createRequest, GET as listRequests } from "@/app/v2/request/route";
import { db } from "@/lib/db";
import { invoiceViewForRequest } from "@/lib/invoices/view";
import { requestStatusSchema } from "@/lib/operations/requests-schemas";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const PAYEE = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let b: Awaited<ReturnType<typeof makeIntegrator>>;

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  b = await makeIntegrator();
});

const post = (json: unknown, key = a.apiKey, headers: Record<string, string> = {}) =>
  call(createRequest, "/v2/request", { method: "POST", headers: { "x-api-key": key, ...headers }, json });
const get = (id: string, key = a.apiKey) =>
  call(getRequest, `/v2/request/${id}`, { headers: { "x-api-key": key }, params: { requestId: id } });

// Worked by hand (tests/invoices/arithmetic.test.ts has the same lines): subtotal 670.17, tax 131.54, total 801.71.
const LINES = [
  { description: "Consulting", quantity: "3", unitPrice: "149.99", taxRate: "20" },
  { description: "Hosting", quantity: 1, unitPrice: "19.95", taxRate: "7.5" },
  { description: "Setup (hours)", quantity: "2.5", unitPrice: "80.10", taxRate: "20" },
];
const terms = { invoiceCurrency: "USD", paymentCurrency: "USDC-base", payee: PAYEE };
const simple = (amount = "10", invoice: Record<string, unknown> = {}) => ({
  amount,
  ...terms,
  invoice: { lines: [{ description: "Item", quantity: "1", unitPrice: amount }], ...invoice },
});

describe("POST /v2/request with invoice", () => {
  it("3 lines and two tax rates: stored, numbered, served on GET /v2/request/{id} to the cent", async () => {
    const customerInfo = { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", address: { city: "London", country: "GB" } };
    const res = await post({
      amount: "801.71",
      ...terms,
      customerInfo,
      invoice: { issueDate: "2026-11-29", dueDate: "2026-12-29", notes: "Thank you.", lines: LINES },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const got = await get(res.body.requestId);
    expect(got.status).toBe(200);
    expect(requestStatusSchema.strict().safeParse(got.body).error).toBeUndefined();
    expect(got.body.invoice).toMatchObject({
      number: "INV-000001",
      issueDate: "2026-11-29",
      dueDate: "2026-12-29",
      currency: "USD",
      customer: customerInfo,
      notes: "Thank you.",
      subtotal: "670.17",
      taxTotal: "131.54",
      total: "801.71",
      taxes: [
        { rate: "7.5", base: "19.95", tax: "1.50" },
        { rate: "20", base: "650.22", tax: "130.04" },
      ],
    });
    expect(got.body.invoice.lines).toEqual([
      { description: "Consulting", quantity: "3", unitPrice: "149.99", taxRate: "20", net: "449.97", tax: "89.99", total: "539.96" },
      { description: "Hosting", quantity: "1", unitPrice: "19.95", taxRate: "7.5", net: "19.95", tax: "1.50", total: "21.45" },
      { description: "Setup (hours)", quantity: "2.5", unitPrice: "80.10", taxRate: "20", net: "200.25", tax: "40.05", total: "240.30" },
    ]);
    // The request is for the invoice's total.
    expect(got.body.amount).toBe("801.71");
    // The list shows it too; a request without one has null.
    await post({ amount: "5", ...terms });
    const list = await call(listRequests, "/v2/request", { headers: { "x-api-key": a.apiKey } });
    expect(list.body.requests.map((r: { invoice: { number: string } | null }) => r.invoice?.number ?? null)).toEqual([null, "INV-000001"]);
  });

  it("a wrong amount → 400 naming amount with the computed total, and the line that makes the difference", async () => {
    const forgotOneTax = await post({ amount: "800.21", ...terms, invoice: { lines: LINES } });
    expect(forgotOneTax.status).toBe(400);
    expect(forgotOneTax.body.errors[0].field).toBe("amount");
    expect(forgotOneTax.body.errors[0].message).toContain("is 800.21 USD but the invoice total is 801.71 USD");
    expect(forgotOneTax.body.errors[0].message).toContain("invoice.lines.1: 1 × 19.95 = 19.95 + 7.5 % tax 1.50 = 21.45");
    expect(forgotOneTax.body.errors[1]).toEqual({
      field: "invoice.lines.1.taxRate",
      message: "adds 1.50 USD of tax (7.5 % of 19.95): the difference between amount and the total",
    });

    const noTax = await post({ amount: "670.17", ...terms, invoice: { lines: LINES } });
    expect(noTax.body.errors[0].message).toContain("It equals the subtotal: the tax is left out.");
    const missingLine = await post({ amount: "561.41", ...terms, invoice: { lines: LINES } });
    expect(missingLine.body.errors[1].field).toBe("invoice.lines.2");

    const unrepresentable = await post({
      amount: "1",
      ...terms,
      invoice: { lines: [{ description: "Metered", quantity: "3", unitPrice: "0.0125" }] },
    });
    expect(unrepresentable.status).toBe(400);
    expect(unrepresentable.body.errors[0].field).toBe("invoice.lines.0.unitPrice");
    // Nothing was stored or numbered by any refusal.
    expect(await db().invoice.count()).toBe(0);
    expect(await db().paymentRequest.count()).toBe(0);
    expect((await post(simple())).status).toBe(201);
    expect((await db().invoice.findFirstOrThrow()).number).toBe("INV-000001");
  });

  it.each([
    [{ number: "bad number!" }, "invoice.number"],
    [{ issueDate: "2026-02-30" }, "invoice.issueDate"],
    [{ dueDate: "2026-01-01", issueDate: "2026-02-01" }, "invoice.dueDate"],
    [{ lines: [] }, "invoice.lines"],
    [{ extra: 1 }, "invoice.extra"],
  ])("refuses %o naming %s", async (patch, field) => {
    const res = await post(simple("10", patch));
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
  });

  it("refuses invoice with recurrence, by name", async () => {
    const res = await post({ ...simple(), recurrence: { startDate: "2030-01-01", frequency: "MONTHLY" } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("invoice");
  });
});

describe("invoice numbers", () => {
  it("a given number is unique per account (409 naming invoice.number); a refused create takes no number", async () => {
    expect((await post(simple())).status).toBe(201); // sequence 1, INV-000001
    expect((await post(simple("10", { number: "X-7" }))).status).toBe(201); // sequence 2
    const dup = await post(simple("10", { number: "X-7" }));
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([{ field: "invoice.number", message: "X-7 is already used by another invoice of this account" }]);
    expect((await post({ ...simple("10"), amount: "11" })).status).toBe(400);
    // The 409 and the 400 rolled back with their requests: the next invoice is sequence 3.
    expect((await post(simple())).status).toBe(201);
    const rows = await db().invoice.findMany({ orderBy: { sequence: "asc" }, select: { sequence: true, number: true } });
    expect(rows).toEqual([
      { sequence: 1, number: "INV-000001" },
      { sequence: 2, number: "X-7" },
      { sequence: 3, number: "INV-000003" },
    ]);
    expect(await db().paymentRequest.count()).toBe(3);
  });

  it("an automatic number that a given one took is skipped", async () => {
    expect((await post(simple("10", { number: "INV-000002" }))).status).toBe(201); // sequence 1
    expect((await post(simple())).status).toBe(201); // sequence 2 → INV-000002 taken → sequence 3
    const rows = await db().invoice.findMany({ orderBy: { sequence: "asc" }, select: { sequence: true, number: true } });
    expect(rows).toEqual([
      { sequence: 1, number: "INV-000002" },
      { sequence: 3, number: "INV-000003" },
    ]);
  });

  it("20 concurrent creates get 20 distinct consecutive numbers", async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => post(simple())));
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(201);
    const numbers = await Promise.all(results.map(async (r) => (await invoiceViewForRequest(r.body.requestId))!.number));
    expect(new Set(numbers).size).toBe(20);
    expect([...numbers].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `INV-${String(i + 1).padStart(6, "0")}`));
  });

  it("accounts are isolated: own sequences, the same given number, no reads of another's invoice", async () => {
    const mine = await post(simple("10", { number: "A-1" }));
    expect(mine.status).toBe(201);
    expect((await post(simple("10", { number: "A-1" }), b.apiKey)).status).toBe(201);
    const theirs = await post(simple(), b.apiKey);
    expect((await invoiceViewForRequest(theirs.body.requestId))!.number).toBe("INV-000002");
    const peek = await get(mine.body.requestId, b.apiKey);
    expect(peek.status).toBe(404);
    expect(JSON.stringify(peek.body)).not.toContain("A-1");
  });

  it("an Idempotency-Key replay answers the first create and makes no second invoice or number", async () => {
    const key = { "idempotency-key": "inv-replay-1" };
    const first = await post(simple(), a.apiKey, key);
    const again = await post(simple(), a.apiKey, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await db().invoice.count()).toBe(1);
    expect((await invoiceViewForRequest(first.body.requestId))!.number).toBe("INV-000001");
    // A refused request under a key takes no number either.
    expect(
      (await post(simple("11", { lines: [{ description: "x", quantity: "1", unitPrice: "10" }] }), a.apiKey, { "idempotency-key": "k2" }))
        .status,
    ).toBe(400);
    const next = await post(simple(), a.apiKey, { "idempotency-key": "k3" });
    expect((await invoiceViewForRequest(next.body.requestId))!.number).toBe("INV-000002");
  });
});
