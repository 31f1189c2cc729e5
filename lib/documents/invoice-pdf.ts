import { networkName } from "@/lib/chain/networks";
import { header, qrCode, rows, section } from "@/lib/documents/blocks";
import { FONT } from "@/lib/documents/fonts";
import { amountText, dateOnly, dateTime, money, percent, symbolOf } from "@/lib/documents/format";
import { linesTable, type TotalRow, totals } from "@/lib/documents/lines-table";
import { COLOR, type DocumentBrand, Sheet } from "@/lib/documents/pdf-doc";
import type { InvoiceView } from "@/lib/invoices/types";

export type { DocumentBrand } from "@/lib/documents/pdf-doc";

/** What the invoice is paid through: the request it is on (and its hosted link, and its receipt once paid). */
export interface InvoiceContext {
  brand: DocumentBrand;
  request: {
    /** The request's amount, in its invoice currency (equal to the invoice's total: lib/invoices checks it). */
    amount: string;
    invoiceCurrency: string;
    paymentCurrency: string;
    payee: string;
    network: string;
    paymentReference: string | null;
    /** The request's status (`paid` prints the PAID stamp). */
    status: string;
  };
  /** The hosted payment page (a secure payment link); printed as a link and a QR code while unpaid. */
  payUrl?: string | null;
  /** The receipt of the payment, once there is one. */
  receipt?: { id: string; url: string; txHash: string; paidAt: string; explorerUrl?: string | null } | null;
}

/**
 * The PDF of an invoice (#30): who bills whom, the lines with quantity, unit price and tax rate,
 * the subtotal, the tax of each rate and the total, the notes, and how to pay (network, token,
 * payee, payment reference, the pay link as a QR code) — or, once paid, a PAID stamp and the receipt.
 * Long invoices continue on further pages with the table header repeated.
 */
export async function renderInvoicePdf(invoice: InvoiceView, ctx: InvoiceContext): Promise<Buffer> {
  const paid = ctx.request.status === "paid";
  const currency = symbolOf(invoice.currency);
  const s = new Sheet({
    title: `Invoice ${invoice.number}`,
    author: ctx.brand.name,
    subject: `Invoice ${invoice.number}: ${invoice.total} ${currency}`,
  });
  header(s, ctx.brand, "Invoice", invoice.number);
  parties(s, invoice, ctx, paid);

  linesTable(s, invoice.lines, currency, `Invoice ${invoice.number} (continued)`);
  const taxRows: TotalRow[] = invoice.taxes.map((t) => ({
    label: `Tax ${percent(t.rate)} on ${amountText(t.base)}`,
    value: amountText(t.tax),
  }));
  // The totals stay together; the stamp sits in the free space left of them.
  s.ensure((taxRows.length || 1) * 18 + 90);
  if (paid) stamp(s, s.left + 40, s.y + 18);
  totals(s, [
    { label: "Subtotal", value: amountText(invoice.subtotal) },
    ...(taxRows.length > 0 ? taxRows : [{ label: "Tax", value: amountText(invoice.taxTotal) }]),
    { label: `Total (${currency})`, value: amountText(invoice.total), strong: true },
    { label: paid ? "Amount paid" : "Amount due", value: money(paid ? invoice.total : ctx.request.amount, invoice.currency) },
  ]);
  s.y += 12;

  if (invoice.notes) {
    section(s, "Notes");
    s.font(FONT.regular, 9.5);
    const h = s.measure(invoice.notes, FONT.regular, 9.5, s.width);
    s.ensure(h);
    s.font(FONT.regular, 9.5);
    s.y += s.text(invoice.notes, s.left, s.y, s.width) + 14;
  }

  if (paid) paidWith(s, ctx);
  else howToPay(s, ctx);
  s.footer(`${ctx.brand.name} · Invoice ${invoice.number} · issued ${dateOnly(invoice.issueDate)}`);
  return s.finish();
}

function customerLines(c: InvoiceView["customer"]): string[] {
  if (!c) return [];
  const name = [c.firstName, c.lastName].filter(Boolean).join(" ");
  const a = c.address ?? {};
  const cityLine = [a.postalCode, a.city].filter(Boolean).join(" ");
  return [name, c.email, a.street, cityLine, a.state, a.country].filter((v): v is string => Boolean(v?.trim()));
}

/** "Bill to" on the left, the invoice's dates and status on the right. */
function parties(s: Sheet, invoice: InvoiceView, ctx: InvoiceContext, paid: boolean): void {
  const half = (s.width - 30) / 2;
  const top = s.y;
  s.font(FONT.regular, 9, COLOR.muted);
  let left = top + s.text("Bill to", s.left, top, half) + 3;
  const lines = customerLines(invoice.customer);
  if (lines.length === 0) {
    s.font(FONT.regular, 10, COLOR.faint);
    left += s.text("—", s.left, left, half);
  }
  lines.forEach((line, i) => {
    s.font(i === 0 ? FONT.bold : FONT.regular, i === 0 ? 10.5 : 9.5);
    left += s.text(line, s.left, left, half) + 1;
  });

  const x = s.left + half + 30;
  const details: [string, string][] = [
    ["Invoice number", invoice.number],
    ["Issue date", dateOnly(invoice.issueDate)],
    ["Due date", invoice.dueDate ? dateOnly(invoice.dueDate) : "On receipt"],
    ["Status", paid ? "Paid" : ctx.request.status === "pending" ? "Open" : capitalize(ctx.request.status)],
  ];
  let right = top;
  for (const [label, value] of details) {
    s.font(FONT.regular, 9, COLOR.muted);
    s.text(label, x, right, 95);
    s.font(FONT.regular, 9.5);
    right += Math.max(12, s.text(value, x + 95, right, half - 95)) + 4;
  }
  s.y = Math.max(left, right) + 22;
}

const capitalize = (v: string) => v.charAt(0).toUpperCase() + v.slice(1).replace(/_/g, " ");

/** A rotated "PAID" stamp, outlined in green. */
function stamp(s: Sheet, x: number, y: number): void {
  const { doc } = s;
  doc.save();
  doc.rotate(-12, { origin: [x + 60, y + 22] });
  doc.roundedRect(x, y, 120, 44, 6).lineWidth(2.5).strokeColor(COLOR.paid).opacity(0.85).stroke();
  doc.font(FONT.bold).fontSize(28).fillColor(COLOR.paid);
  // No letter spacing: text extractors (pdftotext, screen readers) then read "PAID" as one word.
  doc.text("PAID", x, y + 6, { width: 120, align: "center", lineBreak: false });
  doc.restore();
}

/** Where to send the money; the pay link as a QR code beside it. */
function howToPay(s: Sheet, ctx: InvoiceContext): void {
  const r = ctx.request;
  const qr = ctx.payUrl ? 92 : 0;
  section(s, "How to pay");
  s.ensure(qr + 10);
  const top = s.y;
  const token = symbolOf(r.paymentCurrency);
  const payWith = r.paymentCurrency === r.invoiceCurrency ? token : `${token} (converted from ${symbolOf(r.invoiceCurrency)} at payment)`;
  const width = s.width - (qr ? qr + 24 : 0);
  const items: [string, string | null, { mono?: boolean; link?: string | null }?][] = [
    ["Network", networkName(r.network)],
    ["Pay with", payWith],
    ["Pay to", r.payee, { mono: true }],
    ["Payment reference", r.paymentReference, { mono: true }],
    ["Pay online", ctx.payUrl ?? null, { link: ctx.payUrl ?? null }],
  ];
  // The rows sit left of the QR code: drawn in a narrower column.
  const savedRight = s.right;
  s.right = s.left + width;
  rows(s, items);
  s.right = savedRight;
  if (ctx.payUrl) {
    qrCode(s, ctx.payUrl, s.right - qr, top, qr);
    s.font(FONT.regular, 7.5, COLOR.muted);
    s.text("Scan to pay", s.right - qr - 10, top + qr + 4, qr + 20, { align: "center" });
  }
  s.y = Math.max(s.y, top + qr + 16) + 8;
  s.font(FONT.regular, 8, COLOR.muted);
  s.ensure(24);
  s.y +=
    s.text(
      "Pay through the link (or the request's calldata): the payment reference ties the transfer to this invoice. A plain token transfer to the address above is not matched automatically.",
      s.left,
      s.y,
      s.width,
    ) + 8;
}

/** Once paid: when, the transaction, and the receipt. */
function paidWith(s: Sheet, ctx: InvoiceContext): void {
  section(s, "Payment");
  const receipt = ctx.receipt;
  rows(s, [
    ["Network", networkName(ctx.request.network)],
    ["Paid to", ctx.request.payee, { mono: true }],
    ["Payment reference", ctx.request.paymentReference, { mono: true }],
    ["Paid on", receipt ? dateTime(receipt.paidAt) : null],
    ["Transaction hash", receipt?.txHash, { mono: true, link: receipt?.explorerUrl ?? null }],
    ["Receipt", receipt?.url, { link: receipt?.url ?? null }],
  ]);
  s.y += 6;
}
