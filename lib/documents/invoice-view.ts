import type { Invoice } from "@/lib/generated/prisma/client";
import type { InvoiceLineView, InvoiceTaxView, InvoiceView } from "@/lib/invoices/types";

/**
 * The InvoiceView of a stored Invoice row, for the PDF. lib/invoices/view.ts (the invoices lane)
 * builds the same view for the API; this mapper reads only what the row holds, as computed at
 * issue, and recomputes nothing but the per-rate summary (sums of the lines' stored net and tax).
 */

const str = (v: unknown): string | null => (typeof v === "string" ? v : typeof v === "number" ? String(v) : null);

function linesOf(value: unknown): InvoiceLineView[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v: Record<string, unknown>) => {
    const description = str(v?.description);
    const quantity = str(v?.quantity);
    const unitPrice = str(v?.unitPrice);
    const net = str(v?.net);
    const tax = str(v?.tax) ?? "0";
    const total = str(v?.total);
    if (description === null || quantity === null || unitPrice === null || net === null || total === null) return [];
    return [{ description, quantity, unitPrice, taxRate: str(v?.taxRate), net, tax, total }];
  });
}

/** Exact sum of decimal strings ("0.1" + "0.2" = "0.3"), at the largest scale among them. */
export function sumDecimals(values: readonly string[]): string {
  const scale = Math.max(0, ...values.map((v) => v.split(".")[1]?.length ?? 0));
  const units = values.reduce((acc, v) => {
    const negative = v.trim().startsWith("-");
    const [w = "0", f = ""] = v.trim().replace(/^-/, "").split(".");
    const n = BigInt(`${w || "0"}${f.padEnd(scale, "0")}`);
    return acc + (negative ? -n : n);
  }, 0n);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  const frac = scale > 0 ? `.${digits.slice(digits.length - scale)}` : "";
  return `${negative ? "-" : ""}${whole}${frac}`;
}

/** One row per tax rate (in the order the rates first appear): the base it applies to and its tax. */
export function taxesOf(lines: readonly InvoiceLineView[]): InvoiceTaxView[] {
  const byRate = new Map<string, InvoiceLineView[]>();
  for (const line of lines) {
    if (line.taxRate === null) continue;
    byRate.set(line.taxRate, [...(byRate.get(line.taxRate) ?? []), line]);
  }
  return [...byRate].map(([rate, ls]) => ({ rate, base: sumDecimals(ls.map((l) => l.net)), tax: sumDecimals(ls.map((l) => l.tax)) }));
}

type Customer = InvoiceView["customer"];

function customerOf(value: unknown): Customer {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const c = value as Record<string, unknown>;
  const a = c.address && typeof c.address === "object" ? (c.address as Record<string, unknown>) : null;
  const pick = <K extends string>(o: Record<string, unknown>, keys: readonly K[]) =>
    Object.fromEntries(keys.flatMap((k) => (typeof o[k] === "string" ? [[k, o[k] as string]] : []))) as Partial<Record<K, string>>;
  const address = a ? pick(a, ["street", "city", "state", "postalCode", "country"] as const) : undefined;
  return { ...pick(c, ["firstName", "lastName", "email"] as const), ...(address && Object.keys(address).length > 0 ? { address } : {}) };
}

export function invoiceViewOf(row: Invoice): InvoiceView {
  const lines = linesOf(row.lines);
  return {
    id: row.id,
    number: row.number,
    issueDate: row.issueDate.toISOString(),
    dueDate: row.dueDate ? row.dueDate.toISOString() : null,
    currency: row.currency,
    customer: customerOf(row.customer),
    notes: row.notes,
    lines,
    taxes: taxesOf(lines),
    subtotal: row.subtotal,
    taxTotal: row.taxTotal,
    total: row.total,
  };
}
