import { invalidField } from "@/lib/errors";
import { computeInvoice, type FieldNamer } from "@/lib/invoices/compute";
import { formatMoney } from "@/lib/invoices/decimal";
import { type InvoiceInput, type PreparedInvoice, prepareInvoice } from "@/lib/invoices/prepare";
import { formatAmount, parseAmount } from "@/lib/money";

/**
 * A link's line items and invoice (docs/guides/invoices.md "Links").
 *
 * `lineItems` (`{description, quantity?, unitAmount}`) are what they always were: quantity × unitAmount
 * must add up to the requests' amounts. A Duebill addition: `taxRate` on an item. When any item has one,
 * the items are computed by the invoice arithmetic (lib/invoices/compute.ts: tax per line rounded half up
 * to the token's smallest unit) and net + tax must add up to the amounts.
 *
 * `invoice` is the full invoice (number, dates, notes, lines with tax), stored with the link and shown
 * on its page; its total must be the requests' amounts. A link takes one or the other.
 */

export interface LineItemInput {
  description: string;
  quantity?: number;
  unitAmount: string;
  taxRate?: string | null;
}

export interface StoredLineItem {
  description: string;
  quantity: number;
  unitAmount: string;
  taxRate?: string;
}

const lineItemsNamer: FieldNamer = {
  lines: "lineItems",
  line: (i, f) => `lineItems.${i}.${f === "unitPrice" ? "unitAmount" : f}`,
};

/** Line items are what the payer reads the amount as: they must add up to it exactly (the requests' amounts). */
export function checkLineItems(
  items: LineItemInput[] | undefined,
  currency: string,
  decimals: number,
  total: bigint,
): StoredLineItem[] | undefined {
  if (!items) return undefined;
  if (items.some((i) => i.taxRate !== undefined && i.taxRate !== null)) return checkTaxedLineItems(items, currency, decimals, total);
  let sum = 0n;
  const out = items.map((item, i) => {
    const quantity = item.quantity ?? 1;
    sum += parseAmount(item.unitAmount, decimals, `lineItems.${i}.unitAmount`) * BigInt(quantity);
    return { description: item.description, quantity, unitAmount: item.unitAmount };
  });
  if (sum !== total)
    throw invalidField(
      "lineItems",
      `add up to ${formatAmount(sum, decimals)}, but the requests' amounts add up to ${formatAmount(total, decimals)}`,
    );
  return out;
}

function checkTaxedLineItems(items: LineItemInput[], currency: string, decimals: number, total: bigint): StoredLineItem[] {
  items.forEach((item, i) => {
    // As without tax: a unit amount is a positive amount of the token (lib/money's rules).
    parseAmount(item.unitAmount, decimals, `lineItems.${i}.unitAmount`);
  });
  const lines = items.map((i) => ({
    description: i.description,
    quantity: String(i.quantity ?? 1),
    unitPrice: i.unitAmount,
    taxRate: i.taxRate ?? null,
  }));
  const c = computeInvoice(lines, decimals, currency, lineItemsNamer);
  if (c.totalUnits !== total)
    throw invalidField(
      "lineItems",
      `add up to ${c.total} (net ${c.subtotal} + tax ${c.taxTotal}, tax rounded half up per line), ` +
        `but the requests' amounts add up to ${formatMoney(total, decimals)}`,
    );
  return items.map((item, i) => ({
    description: item.description,
    quantity: item.quantity ?? 1,
    unitAmount: item.unitAmount,
    ...(c.lines[i]!.taxRate !== null ? { taxRate: c.lines[i]!.taxRate! } : {}),
  }));
}

/** The link's invoice, in the link's token: its total must be the requests' amounts (400 naming the amount's field and the line). */
export function prepareLinkInvoice(
  invoice: InvoiceInput | undefined,
  hasLineItems: boolean,
  currency: string,
  total: bigint,
  requestCount: number,
): PreparedInvoice | undefined {
  if (!invoice) return undefined;
  if (hasLineItems) throw invalidField("invoice", "cannot be combined with lineItems: put the items in invoice.lines");
  return prepareInvoice(invoice, {
    currency,
    amountUnits: total,
    amountField: requestCount === 1 ? "requests.0.amount" : "requests",
  });
}
