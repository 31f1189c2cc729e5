// PLACEHOLDER for the mail lane: replaced at merge by the rcpt/pdf lanes' file.
import PDFDocument from "pdfkit";
import type { SignedReceipt } from "@/lib/receipts/types";

/** A one-page receipt PDF: the merchant, the amount and the transaction hash (the pdf lane's version brands it, with a QR code). */
export async function renderReceiptPdf(
  signed: SignedReceipt,
  brand: { name: string; logo?: Buffer | null; accentColor?: string },
): Promise<Buffer> {
  const r = signed.receipt;
  const doc = new PDFDocument({ size: "A4", margin: 50, info: { Title: `Receipt ${r.id}` } });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.fontSize(20).text(brand.name);
  doc.moveDown().fontSize(14).text(`Receipt ${r.id}`);
  doc.moveDown().fontSize(12).text(`Amount: ${r.transfer.amountDecimal} ${r.transfer.token.symbol}`);
  doc.text(`Transaction: ${r.transfer.txHash}`);
  doc.end();
  return done;
}
