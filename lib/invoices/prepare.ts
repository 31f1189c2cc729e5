import { now } from "@/lib/clock";
import { findCurrency } from "@/lib/currencies/registry";
import { AppError, type FieldError, invalidField } from "@/lib/errors";
import { type ComputedInvoice, computeInvoice, type FieldNamer, invoiceFieldNamer } from "@/lib/invoices/compute";
import { formatMoney } from "@/lib/invoices/decimal";
import type { InvoiceLineInput, InvoiceView } from "@/lib/invoices/types";

/** The `invoice` object of POST /v2/request and POST /v2/secure-payments (docs/guides/invoices.md). */
export interface InvoiceInput {
  number?: string;
  issueDate?: string;
  dueDate?: string;
  notes?: string;
  lines: InvoiceLineInput[];
}

/** An invoice validated and computed, not yet numbered or stored (storeInvoice does both in the caller's transaction). */
export interface PreparedInvoice {
  number: string | null;
  issueDate: Date;
  dueDate: Date | null;
  notes: string | null;
  currency: string;
  customer: InvoiceView["customer"];
  computed: ComputedInvoice;
}

/** The minor unit of an invoice currency: a fiat's (USD 2, JPY 0), a token's decimals; undefined when unknown. */
export function currencyDecimals(currency: string): number | undefined {
  const c = findCurrency(currency);
  return c ? (c.kind === "fiat" ? c.fiat.decimals : c.token.decimals) : undefined;
}

export const INVOICE_NUMBER = /^[A-Za-z0-9][A-Za-z0-9._/#-]{0,63}$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-12-01" → that day at 00:00 UTC; 400 naming `field` otherwise (a calendar day, not a time). */
function parseDay(value: string, field: string): Date {
  const m = DAY.exec(value);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!d || d.toISOString().slice(0, 10) !== value) throw invalidField(field, "must be a calendar date YYYY-MM-DD");
  return d;
}

const today = () => new Date(`${now().toISOString().slice(0, 10)}T00:00:00.000Z`);

export interface InvoiceContext {
  /** The invoice currency (the request's invoiceCurrency; a link's token currency). */
  currency: string;
  /** What the payer is asked for, in units of the currency's minor unit, and the field it came in. */
  amountUnits: bigint;
  amountField: string;
  /** Where a field of the lines is named in errors (default `invoice.lines.N.<field>`). */
  name?: FieldNamer;
  customer?: InvoiceView["customer"];
}

/**
 * Validates and computes `input` for a request or link of `ctx.amountUnits`: every 400 names the
 * field at fault (`invoice.lines.N.<field>`, `invoice.dueDate`, ...), and an amount other than the
 * computed total is a 400 naming `ctx.amountField` with the total it should be (plus the line, when one line explains the difference).
 */
export function prepareInvoice(input: InvoiceInput, ctx: InvoiceContext): PreparedInvoice {
  const decimals = currencyDecimals(ctx.currency);
  if (decimals === undefined) throw new AppError("internal_error", `invoice currency ${ctx.currency} has no known minor unit`);
  if (input.number !== undefined && !INVOICE_NUMBER.test(input.number))
    throw invalidField("invoice.number", "must be 1–64 characters: letters, digits and . _ / # - (starting with a letter or digit)");
  const issueDate = input.issueDate === undefined ? today() : parseDay(input.issueDate, "invoice.issueDate");
  const dueDate = input.dueDate === undefined ? null : parseDay(input.dueDate, "invoice.dueDate");
  if (dueDate && dueDate < issueDate) throw invalidField("invoice.dueDate", `must be on or after the issue date (${isoDay(issueDate)})`);
  const computed = computeInvoice(input.lines, decimals, ctx.currency, ctx.name ?? invoiceFieldNamer);
  assertAmountIsTotal(computed, ctx.amountUnits, ctx.amountField, ctx.name ?? invoiceFieldNamer, ctx.currency);
  return {
    number: input.number ?? null,
    issueDate,
    dueDate,
    notes: input.notes ?? null,
    currency: ctx.currency,
    customer: ctx.customer ?? null,
    computed,
  };
}

export const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The amount must be the computed total, to the minor unit. The 400 names the amount's field and says
 * the total (with its subtotal and tax) and what each line comes to; when the difference is exactly one
 * line's tax or one line's total, a second entry names that line (`invoice.lines.N.taxRate` / `invoice.lines.N`).
 */
export function assertAmountIsTotal(c: ComputedInvoice, amountUnits: bigint, amountField: string, name: FieldNamer, currency: string) {
  if (amountUnits === c.totalUnits) return;
  const m = (u: bigint) => formatMoney(u, c.decimals);
  const shown = c.lines.slice(0, 10).map((l, i) => {
    const tax = l.taxRate === null ? "no tax" : `${l.taxRate} % tax ${l.tax}`;
    return `${name.lines}.${i}: ${l.quantity} × ${l.unitPrice} = ${l.net} + ${tax} = ${l.total}`;
  });
  const more = c.lines.length > 10 ? `; … ${c.lines.length - 10} more` : "";
  const leftOutTax = amountUnits === c.subtotalUnits && c.taxTotalUnits > 0n ? " It equals the subtotal: the tax is left out." : "";
  const errors: FieldError[] = [
    {
      field: amountField,
      message:
        `is ${m(amountUnits)} ${currency} but the invoice total is ${c.total} ${currency} (subtotal ${c.subtotal} + tax ${c.taxTotal}, ` +
        `tax rounded half up per line); send ${c.total}.${leftOutTax} Lines: ${shown.join("; ")}${more}`,
    },
  ];
  const diff = c.totalUnits - amountUnits;
  const abs = diff < 0n ? -diff : diff;
  const taxHits = c.lines.flatMap((l, i) => (diff > 0n && l.taxUnits === diff ? [i] : []));
  const lineHits = c.lines.flatMap((l, i) => (l.netUnits + l.taxUnits === abs ? [i] : []));
  if (taxHits.length === 1) {
    const l = c.lines[taxHits[0]!]!;
    errors.push({
      field: name.line(taxHits[0]!, "taxRate"),
      message: `adds ${l.tax} ${currency} of tax (${l.taxRate} % of ${l.net}): the difference between ${amountField} and the total`,
    });
  } else if (lineHits.length === 1) {
    const l = c.lines[lineHits[0]!]!;
    errors.push({
      field: name.line(lineHits[0]!, "description").replace(/\.description$/, ""),
      message: `comes to ${l.total} ${currency}: the difference between ${amountField} and the total (${diff > 0n ? "left out of" : "counted twice in"} ${amountField}?)`,
    });
  }
  throw new AppError("validation_failed", "Validation failed", { errors });
}
