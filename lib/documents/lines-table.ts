import { FONT } from "@/lib/documents/fonts";
import { amountText, groupDecimal, percent } from "@/lib/documents/format";
import { COLOR, type Sheet } from "@/lib/documents/pdf-doc";

/**
 * An invoice's lines as a table (description, quantity, unit price, tax rate, line total) that
 * continues on the next page with its header repeated, and the totals under it. Shared by the
 * invoice and the receipt of an invoiced request.
 */

export interface PrintedLine {
  description: string;
  quantity: string;
  unitPrice: string;
  taxRate: string | null;
  total: string;
}

const COLS = { qty: 48, unit: 86, tax: 52, total: 96 };
const PAD = 6;

function columns(s: Sheet) {
  const total = s.right - COLS.total;
  const tax = total - COLS.tax;
  const unit = tax - COLS.unit;
  const qty = unit - COLS.qty;
  return { desc: s.left, descWidth: qty - s.left - 8, qty, unit, tax, total };
}

function headerRow(s: Sheet, currency: string): void {
  const c = columns(s);
  s.doc.save().rect(s.left, s.y, s.width, 20).fill(COLOR.panel).restore();
  s.font(FONT.bold, 8, COLOR.muted);
  const y = s.y + 6.5;
  s.text("DESCRIPTION", c.desc + PAD, y, c.descWidth - PAD, { characterSpacing: 0.4 });
  s.text("QTY", c.qty, y, COLS.qty - PAD, { align: "right", characterSpacing: 0.4 });
  s.text(`UNIT PRICE`, c.unit, y, COLS.unit - PAD, { align: "right", characterSpacing: 0.4 });
  s.text("TAX", c.tax, y, COLS.tax - PAD, { align: "right", characterSpacing: 0.4 });
  s.text(`AMOUNT (${currency})`, c.total, y, COLS.total - PAD, { align: "right", characterSpacing: 0.4 });
  s.y += 24;
}

/** `continued` heads the table's later pages (e.g. "Invoice INV-000042 (continued)"). */
export function linesTable(s: Sheet, lines: readonly PrintedLine[], currency: string, continued: string): void {
  const c = columns(s);
  s.ensure(60);
  headerRow(s, currency);
  const previous = s.onNewPage;
  s.onNewPage = () => {
    s.font(FONT.regular, 8, COLOR.muted);
    s.text(continued, s.left, s.y, s.width);
    s.y += 14;
    headerRow(s, currency);
  };
  for (const line of lines) {
    const h = Math.max(12, s.measure(line.description, FONT.regular, 9.5, c.descWidth - PAD));
    s.ensure(h + 12);
    const y = s.y + 2;
    s.font(FONT.regular, 9.5);
    s.text(line.description, c.desc + PAD, y, c.descWidth - PAD);
    s.text(groupDecimal(line.quantity), c.qty, y, COLS.qty - PAD, { align: "right" });
    s.text(amountText(line.unitPrice), c.unit, y, COLS.unit - PAD, { align: "right" });
    s.font(FONT.regular, 9.5, line.taxRate === null ? COLOR.faint : COLOR.ink);
    s.text(percent(line.taxRate), c.tax, y, COLS.tax - PAD, { align: "right" });
    s.font(FONT.regular, 9.5);
    s.text(amountText(line.total), c.total, y, COLS.total - PAD, { align: "right" });
    s.y += h + 8;
    s.rule(s.y - 2);
    s.y += 2;
  }
  s.onNewPage = previous;
}

export interface TotalRow {
  label: string;
  value: string;
  strong?: boolean;
}

/** Right-aligned totals (label, amount); a strong row gets a rule above it and bold type. */
export function totals(s: Sheet, items: readonly TotalRow[]): void {
  const width = 260;
  const x = s.right - width;
  s.ensure(items.length * 18 + 16);
  s.y += 6;
  for (const item of items) {
    if (item.strong) {
      s.rule(s.y, COLOR.ink, x, s.right);
      s.y += 6;
    }
    const size = item.strong ? 11 : 9.5;
    const font = item.strong ? FONT.bold : FONT.regular;
    s.font(font, size, item.strong ? COLOR.ink : COLOR.muted);
    const h = s.text(item.label, x, s.y, width - 110);
    s.font(font, size);
    s.text(item.value, s.right - 110, s.y, 110 - PAD, { align: "right" });
    s.y += Math.max(h, 12) + 6;
  }
}
