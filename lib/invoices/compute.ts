import { AppError, type FieldError } from "@/lib/errors";
import { divHalfUp, formatMoney, formatPlain, parseScaled, type Scaled, significantDecimals, toScale } from "@/lib/invoices/decimal";
import type { InvoiceLineInput, InvoiceLineView, InvoiceTaxView } from "@/lib/invoices/types";

/**
 * The invoice arithmetic (docs/guides/invoices.md "Arithmetic"), exact, in BigInt units of the
 * invoice currency's minor unit (`decimals`: 2 for USD/EUR/GBP/CNY, 0 for JPY, a token's own for a token):
 *
 *   net   = quantity × unitPrice                         exact; must be a whole number of minor units
 *   tax   = net × taxRate / 100, rounded ROUND_HALF_UP   per line, to the minor unit (0.005 → 0.01)
 *   total = net + tax                                    per line
 *   subtotal = Σ net, taxTotal = Σ tax (the rounded line taxes), total = subtotal + taxTotal
 *   taxes[rate] = {base: Σ net, tax: Σ tax} of the lines at that rate (the line taxes summed, not re-rounded)
 *
 * Tax is rounded per line, then summed: the total is the sum of what each line says, so the lines
 * printed on the invoice always add up to it.
 */

export const INVOICE_LIMITS = {
  lines: 100,
  description: 500,
  quantityDecimals: 6,
  taxRateDecimals: 4,
  /** Digits before the point of a unit price or a quantity (as an amount: lib/operations/secure-payments-schemas.ts). */
  wholeDigits: 18,
  /** Decimals of a unit price (a price per unit may be finer than the currency: 0.0125 × 1000). */
  unitPriceDecimals: 18,
} as const;

export interface ComputedLine extends InvoiceLineView {
  netUnits: bigint;
  taxUnits: bigint;
}

export interface ComputedInvoice {
  lines: ComputedLine[];
  taxes: InvoiceTaxView[];
  subtotal: string;
  taxTotal: string;
  total: string;
  subtotalUnits: bigint;
  taxTotalUnits: bigint;
  totalUnits: bigint;
  decimals: number;
}

/** Where the lines and a line's field are named in errors: `invoice.lines.2.unitPrice`, or a link's `lineItems.2.unitAmount`. */
export interface FieldNamer {
  lines: string;
  line: (index: number, field: "description" | "quantity" | "unitPrice" | "taxRate") => string;
}

export const invoiceFieldNamer: FieldNamer = { lines: "invoice.lines", line: (i, f) => `invoice.lines.${i}.${f}` };

const bad = (errors: FieldError[]) => new AppError("validation_failed", "Validation failed", { errors });

function parseQuantity(value: string | number, field: string): Scaled {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value;
  const q = parseScaled(text);
  if (!q) throw bad([{ field, message: 'must be a positive decimal such as "2" or "1.5"' }]);
  if (significantDecimals(q) > INVOICE_LIMITS.quantityDecimals)
    throw bad([{ field, message: `has more than ${INVOICE_LIMITS.quantityDecimals} decimal places` }]);
  if (text.split(".")[0]!.replace(/^0+(?=\d)/, "").length > INVOICE_LIMITS.wholeDigits) throw bad([{ field, message: "is too large" }]);
  if (q.units === 0n) throw bad([{ field, message: "must be greater than 0" }]);
  return q;
}

function parseUnitPrice(value: string, field: string): Scaled {
  const p = typeof value === "string" ? parseScaled(value) : null;
  if (!p) throw bad([{ field, message: 'must be a decimal string such as "12.50" (0 or more)' }]);
  const [whole = ""] = value.split(".");
  if (whole.replace(/^0+(?=\d)/, "").length > INVOICE_LIMITS.wholeDigits || p.scale > INVOICE_LIMITS.unitPriceDecimals)
    throw bad([
      {
        field,
        message: `must have at most ${INVOICE_LIMITS.wholeDigits} digits before the point and ${INVOICE_LIMITS.unitPriceDecimals} after`,
      },
    ]);
  return p;
}

/** A tax rate in percent ("20", "7.25", "0"): 0..100 with at most 4 decimals, or null for none. Returns percent × 10^4. */
function parseTaxRate(value: string | null | undefined, field: string): { e4: bigint; text: string } | null {
  if (value === null || value === undefined) return null;
  const r = typeof value === "string" ? parseScaled(value) : null;
  if (!r) throw bad([{ field, message: 'must be a percentage such as "20" or "7.25" (or null for no tax)' }]);
  if (significantDecimals(r) > INVOICE_LIMITS.taxRateDecimals)
    throw bad([{ field, message: `has more than ${INVOICE_LIMITS.taxRateDecimals} decimal places` }]);
  const e4 = toScale(r, INVOICE_LIMITS.taxRateDecimals)!;
  if (e4 > 100n * 10_000n) throw bad([{ field, message: "must be at most 100" }]);
  return { e4, text: formatPlain(r) };
}

/**
 * One line: net exact at `decimals` (else a 400 naming the field that brings the extra decimals:
 * the unit price when it alone is finer than the currency, else the quantity), tax rounded half up.
 */
function computeLine(line: InvoiceLineInput, i: number, decimals: number, currency: string, namer: FieldNamer): ComputedLine {
  const name = namer.line;
  if (typeof line.description !== "string" || line.description.trim() === "")
    throw bad([{ field: name(i, "description"), message: "is required" }]);
  if (line.description.length > INVOICE_LIMITS.description)
    throw bad([{ field: name(i, "description"), message: `must be at most ${INVOICE_LIMITS.description} characters` }]);
  const q = parseQuantity(line.quantity, name(i, "quantity"));
  const p = parseUnitPrice(line.unitPrice, name(i, "unitPrice"));
  const rate = parseTaxRate(line.taxRate, name(i, "taxRate"));
  // quantity × unitPrice = (q.units × p.units) / 10^(q.scale + p.scale): exact.
  const product: Scaled = { units: q.units * p.units, scale: q.scale + p.scale };
  const netUnits = toScale(product, decimals);
  if (netUnits === null) {
    const priceFiner = significantDecimals(p) > decimals;
    throw bad([
      {
        field: name(i, priceFiner ? "unitPrice" : "quantity"),
        message:
          `makes the line's net ${formatPlain(q)} × ${formatPlain(p)} = ${formatPlain(product)}, which has more than ${decimals} ` +
          `decimal place${decimals === 1 ? "" : "s"} (${currency}'s smallest unit): a line's net must be a whole number of ${currency}'s smallest unit`,
      },
    ]);
  }
  // tax = net × rate / 100, rate = e4 / 10^4: net × e4 / 10^6, rounded half up to the minor unit.
  const taxUnits = rate ? divHalfUp(netUnits * rate.e4, 100n * 10_000n) : 0n;
  return {
    description: line.description,
    quantity: formatPlain(q),
    unitPrice: significantDecimals(p) > decimals ? formatPlain(p) : formatMoney(toScale(p, decimals)!, decimals),
    taxRate: rate?.text ?? null,
    net: formatMoney(netUnits, decimals),
    tax: formatMoney(taxUnits, decimals),
    total: formatMoney(netUnits + taxUnits, decimals),
    netUnits,
    taxUnits,
  };
}

/** The invoice's lines and totals; 400 naming `invoice.lines.N.<field>` (by `name`) for the first line at fault. */
export function computeInvoice(
  lines: readonly InvoiceLineInput[],
  decimals: number,
  currency: string,
  name: FieldNamer = invoiceFieldNamer,
): ComputedInvoice {
  if (lines.length === 0) throw bad([{ field: name.lines, message: "must have at least 1 line" }]);
  if (lines.length > INVOICE_LIMITS.lines) throw bad([{ field: name.lines, message: `must have at most ${INVOICE_LIMITS.lines} lines` }]);
  const computed = lines.map((l, i) => computeLine(l, i, decimals, currency, name));
  const subtotalUnits = computed.reduce((s, l) => s + l.netUnits, 0n);
  const taxTotalUnits = computed.reduce((s, l) => s + l.taxUnits, 0n);
  const byRate = new Map<string, { e4: bigint; base: bigint; tax: bigint }>();
  for (const l of computed) {
    if (l.taxRate === null) continue;
    const entry = byRate.get(l.taxRate) ?? { e4: toScale(parseScaled(l.taxRate)!, 4)!, base: 0n, tax: 0n };
    entry.base += l.netUnits;
    entry.tax += l.taxUnits;
    byRate.set(l.taxRate, entry);
  }
  const taxes = [...byRate.entries()]
    .sort(([, a], [, b]) => (a.e4 < b.e4 ? -1 : a.e4 > b.e4 ? 1 : 0))
    .map(([rate, e]) => ({ rate, base: formatMoney(e.base, decimals), tax: formatMoney(e.tax, decimals) }));
  const totalUnits = subtotalUnits + taxTotalUnits;
  return {
    lines: computed,
    taxes,
    subtotal: formatMoney(subtotalUnits, decimals),
    taxTotal: formatMoney(taxTotalUnits, decimals),
    total: formatMoney(totalUnits, decimals),
    subtotalUnits,
    taxTotalUnits,
    totalUnits,
    decimals,
  };
}

/** The stored/served line (the view's fields, no BigInts). */
export function lineView(l: ComputedLine): InvoiceLineView {
  return {
    description: l.description,
    quantity: l.quantity,
    unitPrice: l.unitPrice,
    taxRate: l.taxRate,
    net: l.net,
    tax: l.tax,
    total: l.total,
  };
}

/** The tax of a net of `netUnits` at `rate` percent ("7.25"), rounded half up to the minor unit; 0 for a rate that does not parse. */
export function lineTaxUnits(netUnits: bigint, rate: string): bigint {
  const r = parseScaled(rate);
  const e4 = r ? toScale(r, INVOICE_LIMITS.taxRateDecimals) : null;
  return e4 === null ? 0n : divHalfUp(netUnits * e4, 100n * 10_000n);
}
