import { groupAmount } from "@/components/shared/format";
import { Card } from "@/components/ui/card";
import type { ReceiptPayload } from "@/lib/receipts/types";

type Invoice = NonNullable<ReceiptPayload["request"]["invoice"]>;

/** The invoice the receipt carries: its lines with tax, and the totals. */
export function InvoiceLines({ invoice, currency }: { invoice: Invoice; currency: string }) {
  return (
    <Card aria-labelledby="invoice-heading">
      <h2 id="invoice-heading" className="text-base font-semibold text-slate-900">
        Invoice {invoice.number}
      </h2>
      <table className="mt-3 w-full text-sm">
        <thead>
          <tr className="text-left text-slate-500">
            <th className="py-1 font-medium">Item</th>
            <th className="py-1 text-right font-medium">Qty</th>
            <th className="py-1 text-right font-medium">Total</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {invoice.lines.map((l, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one signed invoice, never reordered
            <tr key={i}>
              <td className="py-1.5 pr-2 text-slate-900">
                {l.description}
                {l.taxRate ? <span className="block text-xs text-slate-500">tax {l.taxRate}%</span> : null}
              </td>
              <td className="py-1.5 text-right tabular-nums">{l.quantity}</td>
              <td className="py-1.5 text-right tabular-nums">{groupAmount(l.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="mt-3 space-y-1 border-t border-slate-200 pt-3 text-sm">
        <div className="flex justify-between">
          <dt className="text-slate-500">Subtotal</dt>
          <dd className="tabular-nums">{groupAmount(invoice.subtotal)}</dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-slate-500">Tax</dt>
          <dd className="tabular-nums">{groupAmount(invoice.taxTotal)}</dd>
        </div>
        <div className="flex justify-between font-semibold">
          <dt>Total</dt>
          <dd className="tabular-nums">
            {groupAmount(invoice.total)} {currency}
          </dd>
        </div>
      </dl>
    </Card>
  );
}
