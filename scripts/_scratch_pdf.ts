import fs from "node:fs";
import { renderInvoicePdf } from "@/lib/documents/invoice-pdf";
import { renderReceiptPdf } from "@/lib/documents/receipt-pdf";
import { invoiceFixture, receiptFixture } from "@/tests/documents/fixtures";
async function main() {
  for (const kind of ["payment", "refund"] as const) {
    const buf = await renderReceiptPdf(receiptFixture({ kind, withInvoice: kind === "payment" }), { name: "Café Zürich Ωmega Ж", logo: null });
    fs.writeFileSync(`/tmp/pdfproto/receipt-${kind}.pdf`, buf);
  }
  const request = { amount: "137.70", invoiceCurrency: "EUR", paymentCurrency: "USDC-base", payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7", network: "base", paymentReference: "0x4a6f8e2c1b3d5e7f", status: "pending" };
  fs.writeFileSync("/tmp/pdfproto/invoice-3.pdf", await renderInvoicePdf(invoiceFixture(3), { brand: { name: "Café Zürich Ωmega Ж" }, request, payUrl: "https://pay.duebill.example/pay/01JH3Q8Z6X9V2M4N7P5R8T1W3Y" }));
  fs.writeFileSync("/tmp/pdfproto/invoice-60.pdf", await renderInvoicePdf(invoiceFixture(60), { brand: { name: "Acme" , accentColor: "#0e7490"}, request: { ...request, invoiceCurrency: "USD", amount: "660.00", status: "paid" }, receipt: { id: "rcp_x", url: "https://pay.duebill.example/receipts/rcp_x", txHash: "0x9f2c4b7e1d3a5f6081b2c3d4e5f60718293a4b5c6d7e8f9012a3b4c5d6e7f801", paidAt: "2026-11-27T09:12:33.000Z" } }));
}
main();
