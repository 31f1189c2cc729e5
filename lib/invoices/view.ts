import { db } from "@/lib/db";
import type { Invoice } from "@/lib/generated/prisma/client";
import { formatMoney, parseScaled, toScale } from "@/lib/invoices/decimal";
import { currencyDecimals, isoDay } from "@/lib/invoices/prepare";
import type { InvoiceLineView, InvoiceTaxView, InvoiceView } from "@/lib/invoices/types";

/**
 * The invoice as the API serves it and the documents print it (InvoiceView). These read by ID,
 * request or link token and check no account: callers scope first (GET /v2/request/{id} 404s another
 * account's request; a link's token is its capability).
 */

/** Decimal strings summed exactly (they were written at the currency's minor unit). */
function sum(values: string[], decimals: number): string {
  return formatMoney(
    values.reduce((s, v) => s + (toScale(parseScaled(v) ?? { units: 0n, scale: 0 }, decimals) ?? 0n), 0n),
    decimals,
  );
}

/** One row per tax rate, lowest first: the lines' nets and their (rounded per line) taxes summed. */
function taxesOf(lines: InvoiceLineView[], decimals: number): InvoiceTaxView[] {
  const byRate = new Map<string, InvoiceLineView[]>();
  for (const l of lines) if (l.taxRate !== null) byRate.set(l.taxRate, [...(byRate.get(l.taxRate) ?? []), l]);
  const e4 = (r: string) => toScale(parseScaled(r)!, 4)!;
  return [...byRate.entries()]
    .sort(([a], [b]) => (e4(a) < e4(b) ? -1 : e4(a) > e4(b) ? 1 : 0))
    .map(([rate, ls]) => ({
      rate,
      base: sum(
        ls.map((l) => l.net),
        decimals,
      ),
      tax: sum(
        ls.map((l) => l.tax),
        decimals,
      ),
    }));
}

/** A stored invoice as the API serves it. */
export function toInvoiceView(row: Invoice): InvoiceView {
  const lines = row.lines as unknown as InvoiceLineView[];
  // The currency's minor unit; should it no longer be configured, the finest the stored strings use.
  const decimals =
    currencyDecimals(row.currency) ?? Math.max(0, ...lines.flatMap((l) => [l.net, l.tax].map((v) => v.split(".")[1]?.length ?? 0)));
  return {
    id: row.id,
    number: row.number,
    issueDate: isoDay(row.issueDate),
    dueDate: row.dueDate ? isoDay(row.dueDate) : null,
    currency: row.currency,
    customer: (row.customer as InvoiceView["customer"]) ?? null,
    notes: row.notes,
    lines,
    taxes: taxesOf(lines, decimals),
    subtotal: row.subtotal,
    taxTotal: row.taxTotal,
    total: row.total,
  };
}

export async function getInvoiceView(invoiceId: string): Promise<InvoiceView | null> {
  const row = await db().invoice.findUnique({ where: { id: invoiceId } });
  return row ? toInvoiceView(row) : null;
}

/**
 * The invoice of a request: its own (POST /v2/request with `invoice`), else that of the link the
 * request belongs to (POST /v2/secure-payments with `invoice`: one invoice for all the link's requests).
 */
export async function invoiceViewForRequest(requestId: string): Promise<InvoiceView | null> {
  const own = await db().invoice.findUnique({ where: { requestId } });
  if (own) return toInvoiceView(own);
  const link = await db().securePaymentRequest.findUnique({ where: { requestId }, select: { securePaymentToken: true } });
  return link ? invoiceViewForLink(link.securePaymentToken) : null;
}

/** The invoice of a secure payment link (by its token), or null. */
export async function invoiceViewForLink(token: string): Promise<InvoiceView | null> {
  const row = await db().invoice.findUnique({ where: { securePaymentToken: token } });
  return row ? toInvoiceView(row) : null;
}

/** The invoices of many requests at once (GET /v2/request's page): request ID → view; a request without one is absent. */
export async function invoiceViewsForRequests(requestIds: string[]): Promise<Map<string, InvoiceView>> {
  if (requestIds.length === 0) return new Map();
  const [own, links] = await Promise.all([
    db().invoice.findMany({ where: { requestId: { in: requestIds } } }),
    db().securePaymentRequest.findMany({ where: { requestId: { in: requestIds } }, select: { requestId: true, securePaymentToken: true } }),
  ]);
  const linkInvoices = links.length
    ? await db().invoice.findMany({ where: { securePaymentToken: { in: links.map((l) => l.securePaymentToken) } } })
    : [];
  const byToken = new Map(linkInvoices.map((i) => [i.securePaymentToken!, toInvoiceView(i)]));
  const out = new Map<string, InvoiceView>();
  for (const l of links) {
    const v = byToken.get(l.securePaymentToken);
    if (v) out.set(l.requestId, v);
  }
  for (const i of own) out.set(i.requestId!, toInvoiceView(i));
  return out;
}
