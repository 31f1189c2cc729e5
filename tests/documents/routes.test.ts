import { beforeAll, describe, expect, it } from "vitest";
import { GET as receiptPdfRoute } from "@/app/v2/receipts/[receiptId]/pdf/route";
import { GET as requestInvoicePdfRoute } from "@/app/v2/request/[requestId]/invoice/pdf/route";
import { GET as linkInvoicePdfRoute } from "@/app/v2/secure-payments/[token]/invoice/pdf/route";
import { db } from "@/lib/db";
import type { RouteHandler } from "@/lib/http/handler";
import { ulid } from "@/lib/ids";
import { invoiceFixture, receiptFixture, TX_HASH } from "@/tests/documents/fixtures";
import { save, squeezed, textOf } from "@/tests/documents/pdf-tools";
import { resetDb } from "@/tests/helpers/db";
import { insertPaidRequest, makeIntegrator } from "@/tests/helpers/factories";

/**
 * The PDF routes: headers, the file, 404 for what is absent and for another account's request
 * (never a 403 that would confirm it exists), 401 without credentials on the API-key route.
 */

type Integrator = Awaited<ReturnType<typeof makeIntegrator>>;
let a: Integrator;
let b: Integrator;
let paidRequestId: string;
let bareRequestId: string;
let receiptId: string;
let linkToken: string;

async function get(handler: RouteHandler, url: string, params: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await handler(new Request(new URL(url, "http://localhost:3000"), { headers }), { params: Promise.resolve(params) });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

function invoiceRow(accountId: string, sequence: number, target: { requestId: string } | { securePaymentToken: string }) {
  const v = invoiceFixture(3);
  return db().invoice.create({
    data: {
      id: `inv_${ulid()}`,
      accountId,
      sequence,
      number: `INV-${String(sequence).padStart(6, "0")}`,
      ...target,
      currency: "EUR",
      issueDate: new Date(v.issueDate),
      dueDate: v.dueDate ? new Date(v.dueDate) : null,
      customer: v.customer ?? undefined,
      notes: v.notes,
      lines: v.lines.map((l) => ({ ...l })),
      subtotal: v.subtotal,
      taxTotal: v.taxTotal,
      total: v.total,
    },
  });
}

async function pendingRequest(accountId: string): Promise<string> {
  const id = `01${ulid()
    .toLowerCase()
    .padEnd(64, "0")
    .replace(/[^0-9a-f]/g, "a")}`;
  await db().paymentRequest.create({
    data: {
      id,
      accountId,
      kind: "request",
      network: "base",
      invoiceCurrency: "EUR",
      paymentCurrency: "USDC-base",
      tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      amount: "137.70",
      expectedAmount: "13770000000",
      isConversion: true,
      payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
      salt: "01",
      paymentReference: `0x${id.slice(2, 18)}`,
      referenceHash: `0x${id.slice(2)}`,
    },
  });
  return id;
}

beforeAll(async () => {
  await resetDb();
  a = await makeIntegrator();
  b = await makeIntegrator();
  await db().account.update({
    where: { id: a.account.id },
    data: { name: "Café Zürich Ωmega Ж", logoUrl: "https://logo.invalid/logo.png" },
  });

  paidRequestId = await insertPaidRequest(a.account.id, "USDC-base", 136_250_000n, 0, { hexId: true });
  const payment = await db().payment.findFirstOrThrow({ where: { requestId: paidRequestId } });
  await invoiceRow(a.account.id, 1, { requestId: paidRequestId });
  const signed = receiptFixture();
  receiptId = `rcp_${ulid()}`;
  signed.receipt.id = receiptId;
  await db().receipt.create({
    data: {
      id: receiptId,
      accountId: a.account.id,
      paymentId: payment.id,
      keyId: signed.signature.keyId,
      payload: JSON.stringify(signed.receipt),
      signature: signed.signature.value,
    },
  });

  bareRequestId = await pendingRequest(a.account.id);

  linkToken = ulid();
  const linkRequestId = await pendingRequest(a.account.id);
  await db().securePayment.create({
    data: {
      token: linkToken,
      accountId: a.account.id,
      direction: "incoming",
      paymentType: "single",
      network: "base",
      currency: "USDC-base",
      identityMode: "manual_dashboard",
      expiresAt: new Date(Date.now() + 86_400_000),
      branding: { displayName: "Orchestrated Brand", logoUrl: "https://logo.invalid/brand.png", accentColor: "#0e7490" },
    },
  });
  await db().securePaymentRequest.create({ data: { securePaymentToken: linkToken, requestId: linkRequestId, position: 0 } });
  await invoiceRow(a.account.id, 2, { securePaymentToken: linkToken });
});

describe("GET /v2/receipts/{receiptId}/pdf", () => {
  it("answers the stored receipt as a PDF download, branded with the account's name (its logo URL failing does not fail it)", async () => {
    const res = await get(receiptPdfRoute, `/v2/receipts/${receiptId}/pdf`, { receiptId });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="receipt-${receiptId}.pdf"`);
    expect(res.bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const text = textOf(save("route-receipt.pdf", res.bytes));
    expect(text).toContain("Café Zürich Ωmega Ж");
    expect(text).toContain(receiptId);
    expect(squeezed(text)).toContain(TX_HASH);
  });

  it("404 for an unknown or malformed ID", async () => {
    for (const id of [`rcp_${ulid()}`, "..%2Fetc", "x".repeat(200)]) {
      const res = await get(receiptPdfRoute, `/v2/receipts/${id}/pdf`, { receiptId: id });
      expect([400, 404]).toContain(res.status);
      expect(res.headers.get("content-type")).toBe("application/json");
    }
    const res = await get(receiptPdfRoute, `/v2/receipts/rcp_nope/pdf`, { receiptId: "rcp_nope" });
    expect(res.status).toBe(404);
  });
});

describe("GET /v2/request/{requestId}/invoice/pdf", () => {
  const url = (id: string) => `/v2/request/${id}/invoice/pdf`;

  it("the account's invoice: lines, totals, PAID and the receipt of the payment", async () => {
    const res = await get(requestInvoicePdfRoute, url(paidRequestId), { requestId: paidRequestId }, { "x-api-key": a.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="invoice-INV-000001.pdf"');
    const text = textOf(save("route-invoice.pdf", res.bytes));
    for (const s of [
      "INV-000001",
      "Barista course (half day)",
      "Tax 5.5% on 60.00",
      "Tax 20% on 62.00",
      "137.70",
      "PAID",
      "Ada Lovelace",
    ]) {
      expect(text).toContain(s);
    }
    expect(squeezed(text)).toContain(receiptFixture().receipt.issuer.verifyUrl);
  });

  it("401 without credentials; 404 for another account's request and for a request without an invoice", async () => {
    expect((await get(requestInvoicePdfRoute, url(paidRequestId), { requestId: paidRequestId })).status).toBe(401);
    const other = await get(requestInvoicePdfRoute, url(paidRequestId), { requestId: paidRequestId }, { "x-api-key": b.apiKey });
    expect(other.status).toBe(404);
    expect(other.bytes.toString()).not.toContain("%PDF");
    const bare = await get(requestInvoicePdfRoute, url(bareRequestId), { requestId: bareRequestId }, { "x-api-key": a.apiKey });
    expect(bare.status).toBe(404);
    const unknown = `01${"ab".repeat(32)}`;
    expect((await get(requestInvoicePdfRoute, url(unknown), { requestId: unknown }, { "x-api-key": a.apiKey })).status).toBe(404);
  });
});

describe("GET /v2/secure-payments/{token}/invoice/pdf", () => {
  it("the link's invoice by its token, with the orchestrator's branding and the pay link", async () => {
    const res = await get(linkInvoicePdfRoute, `/v2/secure-payments/${linkToken}/invoice/pdf`, { token: linkToken });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="invoice-INV-000002.pdf"');
    const text = textOf(save("route-link-invoice.pdf", res.bytes));
    expect(text).toContain("Orchestrated Brand");
    expect(text).toContain("INV-000002");
    expect(text).toContain("HOW TO PAY");
    expect(squeezed(text)).toContain(`/pay/${linkToken}`);
    expect(text).not.toContain("PAID");
  });

  it("404 for an unknown token", async () => {
    const token = ulid();
    expect((await get(linkInvoicePdfRoute, `/v2/secure-payments/${token}/invoice/pdf`, { token })).status).toBe(404);
  });
});
