import fs from "node:fs";
import path from "node:path";
import { encode } from "uqr";
import { describe, expect, it } from "vitest";
import { type InvoiceContext, renderInvoicePdf } from "@/lib/documents/invoice-pdf";
import { renderReceiptPdf } from "@/lib/documents/receipt-pdf";
import { invoiceFixture, MERCHANT, receiptFixture, TX_HASH, VERIFY_URL } from "@/tests/documents/fixtures";
import { grayRegion, linkRects, pageCount, save, squeezed, textOf, toPng } from "@/tests/documents/pdf-tools";

/**
 * The receipt and invoice PDFs, read back by a second implementation (poppler: pdfinfo, pdftotext,
 * pdftoppm): page counts, the text a reader extracts, the QR code's pixels against uqr's matrix of
 * the URL, and PNG renders (e2e/screenshots/pdf-*.png, looked at by hand).
 */

const SHOTS = path.resolve(import.meta.dirname, "../../e2e/screenshots");
const PAY_URL = "https://pay.duebill.example/pay/01JH3Q8Z6X9V2M4N7P5R8T1W3Y";

const request: InvoiceContext["request"] = {
  amount: "137.70",
  invoiceCurrency: "EUR",
  paymentCurrency: "USDC-base",
  payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
  network: "base",
  paymentReference: "0x4a6f8e2c1b3d5e7f",
  status: "pending",
};

/** Reads the QR code at `box` from the rendered page and compares every module with uqr's encoding of `url`. */
function expectQr(file: string, box: { x: number; y: number; w: number; h: number }, url: string) {
  const qr = encode(url, { ecc: "M", border: 0 });
  const dpi = 288;
  const img = grayRegion(file, dpi, box);
  const cell = img.width / qr.size;
  let mismatches = 0;
  for (let r = 0; r < qr.size; r++) {
    for (let c = 0; c < qr.size; c++) {
      const px = img.pixels[Math.floor((r + 0.5) * cell) * img.width + Math.floor((c + 0.5) * cell)]!;
      if (px < 128 !== qr.data[r]![c]) mismatches++;
    }
  }
  expect(Math.abs(img.width - img.height)).toBeLessThanOrEqual(1);
  expect(mismatches).toBe(0);
}

describe("receipt PDF", () => {
  it("prints the amount, the parties, the transfer and a QR code of the verify URL", async () => {
    const bytes = await renderReceiptPdf(receiptFixture(), { name: MERCHANT, logo: null });
    const file = save("receipt.pdf", bytes);
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pageCount(file)).toBe(1);
    const text = textOf(file);
    const flat = squeezed(text);
    for (const s of ["Receipt", "rcp_01JH3Q8Z6X9V2M4N7P5R8T1W3Y", "136.25 USDC", "= 125.50 EUR", "Paid", "27 Nov 2026, 09:12:33 UTC"]) {
      expect(text).toContain(s);
    }
    // Latin, Greek and Cyrillic in DejaVu Sans: extracted as written.
    expect(text).toContain(MERCHANT);
    for (const s of [
      TX_HASH,
      `https://basescan.org/tx/${TX_HASH}`,
      "23456789",
      "0x1B7e0a2C3d4E5f60718293a4B5c6D7e8F9012A3b",
      "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
      "1.3625USDCto0x35d0e078755Cd84D3E0656cAaB417Dee1d7939c7",
      "Logindex7",
      "12whenissued",
      "0x4a6f8e2c1b3d5e7f",
      "ORDER-2026-0042",
      "keyrk_2026-11",
      `Verifyat${VERIFY_URL}`,
    ]) {
      expect(flat).toContain(s);
    }
    // The tx hash and the QR code are links; the QR code's pixels are uqr's matrix of the verify URL.
    const links = linkRects(bytes);
    expect(links.some((l) => l.uri === `https://basescan.org/tx/${TX_HASH}`)).toBe(true);
    const qr = links.find((l) => l.uri === VERIFY_URL && Math.abs(l.w - l.h) < 0.01);
    expect(qr).toBeDefined();
    expectQr(file, qr!, VERIFY_URL);

    fs.mkdirSync(SHOTS, { recursive: true });
    const [png] = toPng(file, 60, path.join(path.dirname(file), "receipt60"));
    expect(fs.readFileSync(png!).subarray(1, 4).toString()).toBe("PNG");
    fs.copyFileSync(toPng(file, 110, path.join(path.dirname(file), "receipt110"))[0]!, path.join(SHOTS, "pdf-receipt.png"));
  });

  it("prints a refund as a refund, with its reference, and the invoice lines of an invoiced request", async () => {
    const refund = save("refund.pdf", await renderReceiptPdf(receiptFixture({ kind: "refund" }), { name: MERCHANT }));
    const text = textOf(refund);
    expect(text).toContain("Refund receipt");
    expect(text).toContain("Amount refunded");
    expect(squeezed(text)).toContain("Refundreference0x7c1d2e3f4a5b6c7d");
    expect(text).not.toContain("Amount paid");

    const invoiced = save("receipt-invoice.pdf", await renderReceiptPdf(receiptFixture({ withInvoice: true }), { name: MERCHANT }));
    const all = textOf(invoiced);
    for (const s of ["INV-000042", "Espresso beans, 1 kg", "Barista course", "Delivery", "5.5%", "20%", "63.30", "125.50"])
      expect(all).toContain(s);
  });

  it("renders characters DejaVu lacks (CJK) without failing: the rest of the name is printed", async () => {
    const file = save("cjk.pdf", await renderReceiptPdf(receiptFixture(), { name: "Café 東京" }));
    const text = textOf(file);
    expect(text).toContain("Café");
    expect(text).not.toContain("東京");
  });

  it("prints the logo when one is given, and the name alone when its bytes do not decode", async () => {
    const logo = fs.readFileSync(path.resolve(import.meta.dirname, "../../public/apple-touch-icon.png"));
    const withLogo = await renderReceiptPdf(receiptFixture(), { name: MERCHANT, logo });
    expect(withLogo.toString("latin1")).toMatch(/\/Subtype \/Image/);
    const broken = Buffer.concat([logo.subarray(0, 16), Buffer.alloc(64)]);
    const file = save("broken-logo.pdf", await renderReceiptPdf(receiptFixture(), { name: MERCHANT, logo: broken }));
    expect(textOf(file)).toContain(MERCHANT);
  });
});

describe("invoice PDF", () => {
  it("3 lines, 2 tax rates: lines, tax per rate, total, customer, notes, how to pay with the pay link's QR code", async () => {
    const bytes = await renderInvoicePdf(invoiceFixture(3), {
      brand: { name: MERCHANT, accentColor: "#0e7490" },
      request,
      payUrl: PAY_URL,
    });
    const file = save("invoice.pdf", bytes);
    expect(pageCount(file)).toBe(1);
    const text = textOf(file);
    for (const s of [
      "Invoice",
      "INV-000042",
      "20 Nov 2026",
      "20 Dec 2026",
      "Ada Lovelace",
      "ada@example.com",
      "Barista course (half day)",
      "Cleaning tablets",
      "Tax 5.5% on 60.00",
      "3.30",
      "Tax 20% on 62.00",
      "12.40",
      "122.00",
      "137.70",
      "Thank you for your order.",
      "HOW TO PAY",
      MERCHANT,
    ]) {
      expect(text).toContain(s);
    }
    expect(squeezed(text)).toContain("Espressobeans,singleoriginEthiopiaYirgacheffe,1kgbag");
    expect(squeezed(text)).toContain(PAY_URL);
    expect(squeezed(text)).toContain("0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7");
    expect(text).not.toContain("PAID");
    const qr = linkRects(bytes).find((l) => l.uri === PAY_URL && Math.abs(l.w - l.h) < 0.01);
    expect(qr).toBeDefined();
    expectQr(file, qr!, PAY_URL);
    fs.mkdirSync(SHOTS, { recursive: true });
    fs.copyFileSync(toPng(file, 110, path.join(path.dirname(file), "invoice110"))[0]!, path.join(SHOTS, "pdf-invoice.png"));
    expect(toPng(file, 60, path.join(path.dirname(file), "invoice60"))).toHaveLength(1);
  });

  it("60 lines continue over pages with the header repeated; a paid invoice is stamped PAID", async () => {
    const invoice = invoiceFixture(60);
    const ctx: InvoiceContext = {
      brand: { name: "Acme" },
      request: { ...request, invoiceCurrency: "USD", amount: invoice.total, status: "paid" },
      receipt: {
        id: "rcp_x",
        url: VERIFY_URL,
        txHash: TX_HASH,
        paidAt: "2026-11-27T09:12:33.000Z",
        explorerUrl: `https://basescan.org/tx/${TX_HASH}`,
      },
    };
    const file = save("invoice-60.pdf", await renderInvoicePdf(invoice, ctx));
    const pages = pageCount(file);
    expect(pages).toBe(3);
    const all = textOf(file);
    // Every line once, in order.
    let at = -1;
    for (let i = 1; i <= 60; i++) {
      const m = new RegExp(`Line item number ${i}\\b`, "g");
      m.lastIndex = at + 1;
      const next = m.exec(all)?.index ?? -1;
      expect(next, `line ${i}`).toBeGreaterThan(at);
      at = next;
    }
    for (let p = 2; p <= pages; p++) {
      const page = textOf(file, p);
      expect(page).toContain("Invoice INV-000060 (continued)");
      expect(page).toContain("DESCRIPTION");
      expect(page).toContain(`Page ${p} of ${pages}`);
    }
    const last = textOf(file, pages);
    expect(last).toContain("PAID");
    expect(last).toContain("660.00");
    expect(squeezed(last)).toContain(TX_HASH);
    expect(last).not.toContain("HOW TO PAY");
    fs.mkdirSync(SHOTS, { recursive: true });
    const [page2] = toPng(file, 110, path.join(path.dirname(file), "invoice60-110"), { first: 2, last: 2 });
    fs.copyFileSync(page2!, path.join(SHOTS, "pdf-invoice-page2.png"));
  });
});
