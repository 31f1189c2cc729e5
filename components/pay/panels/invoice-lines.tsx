import type { ReactNode } from "react";
import { groupAmount } from "@/components/shared/format";
import type { Checkout } from "@/lib/operations/checkout-schemas";

type Invoice = NonNullable<Checkout["invoice"]>;

const isZero = (s: string) => !/[1-9]/.test(s);

/** "206.6" → "206.60", "42" → "42.00", "0.0375" unchanged: an invoice's amounts and its headline read alike. */
export function withCents(amount: string): string {
  const [whole, frac = ""] = amount.split(".");
  return frac.length >= 2 ? amount : `${whole}.${frac.padEnd(2, "0")}`;
}

/** "2026-11-29" → "29 Nov 2026" (a calendar day: no time zone shift). */
function day(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

function Money({ value, symbol, strong }: { value: string; symbol: string; strong?: boolean }) {
  return (
    <span className={`whitespace-nowrap tabular-nums ${strong ? "font-semibold text-slate-900" : "text-slate-900"}`}>
      {groupAmount(value)} <span className="text-slate-500">{symbol}</span>
    </span>
  );
}

function SumRow({ label, children, strong }: { label: ReactNode; children: ReactNode; strong?: boolean }) {
  return (
    <div className={`flex items-baseline justify-between gap-3 py-1 ${strong ? "text-base" : "text-sm"}`}>
      <dt className={strong ? "font-semibold text-slate-900" : "text-slate-600"}>{label}</dt>
      <dd className="text-right">{children}</dd>
    </div>
  );
}

/** A line: what it is, quantity × unit price and its tax rate beneath, its net on the right. */
function Line({ description, detail, amount, symbol }: { description: string; detail: string | null; amount: string; symbol: string }) {
  return (
    <li className="flex items-start justify-between gap-3 py-2.5">
      <div className="min-w-0">
        <p className="break-words text-sm font-medium text-slate-800">{description}</p>
        {detail ? <p className="mt-0.5 text-xs text-slate-500">{detail}</p> : null}
      </div>
      <p className="shrink-0 text-right text-sm">
        <Money value={amount} symbol={symbol} />
      </p>
    </li>
  );
}

const lineDetail = (quantity: string, unitPrice: string, symbol: string, taxRate: string | null) =>
  [quantity === "1" ? null : `${quantity} × ${groupAmount(unitPrice)} ${symbol}`, taxRate === null ? null : `Tax ${taxRate} %`]
    .filter(Boolean)
    .join(" · ") || null;

/** The invoice of a link: number and dates, who it is billed to, the lines, subtotal, tax per rate, total (and the fees, when the payer bears any). */
function InvoiceBlock({ invoice, symbol, fees, total }: { invoice: Invoice; symbol: string; fees: string | null; total: string }) {
  const c = invoice.customer;
  const billedTo = c ? [[c.firstName, c.lastName].filter(Boolean).join(" "), c.email].filter(Boolean).join(" · ") : "";
  return (
    <section className="mt-4 border-t border-slate-100 pt-3" aria-labelledby="invoice-heading" data-testid="invoice">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h2 id="invoice-heading" className="text-sm font-semibold text-slate-900">
          Invoice {invoice.number}
        </h2>
        <p className="text-xs text-slate-500">
          Issued {day(invoice.issueDate)}
          {invoice.dueDate ? (
            <>
              {" "}
              · <span className="font-medium text-slate-700">Due {day(invoice.dueDate)}</span>
            </>
          ) : null}
        </p>
      </div>
      {billedTo ? <p className="mt-1 break-words text-xs text-slate-500">Billed to {billedTo}</p> : null}
      <ul className="mt-2 divide-y divide-slate-100 border-y border-slate-100" aria-label="Invoice lines">
        {invoice.lines.map((l, i) => (
          <Line
            // biome-ignore lint/suspicious/noArrayIndexKey: the invoice's fixed lines, never reordered
            key={i}
            description={l.description}
            detail={lineDetail(l.quantity, l.unitPrice, symbol, l.taxRate)}
            amount={l.net}
            symbol={symbol}
          />
        ))}
      </ul>
      <dl className="mt-2">
        <SumRow label="Subtotal">
          <Money value={invoice.subtotal} symbol={symbol} />
        </SumRow>
        {invoice.taxes.map((t) => (
          <SumRow
            key={t.rate}
            label={
              <>
                Tax {t.rate} % <span className="text-xs text-slate-400">on {groupAmount(t.base)}</span>
              </>
            }
          >
            <Money value={t.tax} symbol={symbol} />
          </SumRow>
        ))}
        {fees ? (
          <>
            <SumRow label="Invoice total">
              <Money value={invoice.total} symbol={symbol} />
            </SumRow>
            <SumRow label="Fees">
              <Money value={fees} symbol={symbol} />
            </SumRow>
          </>
        ) : null}
        <div className="mt-1 border-t border-slate-200 pt-1">
          <SumRow label={fees ? "Total with fees" : "Total"} strong>
            <Money value={fees ? total : invoice.total} symbol={symbol} strong />
          </SumRow>
        </div>
      </dl>
      {invoice.notes ? <p className="mt-2 whitespace-pre-line break-words text-xs text-slate-500">{invoice.notes}</p> : null}
    </section>
  );
}

/**
 * What the payer pays for: the link's invoice when it has one, else its line items (each with its tax
 * when it has a rate), and the fees the payer bears: the link's whole amount, whatever is paid already.
 */
export function InvoiceLines({ data }: { data: Checkout }) {
  const symbol = data.currency.symbol;
  const fees = isZero(data.fullFees) ? null : data.fullFees;
  const total = data.fullAmount;
  if (data.invoice) return <InvoiceBlock invoice={data.invoice} symbol={symbol} fees={fees} total={total} />;
  if (data.lineItems.length === 0) return null;
  return (
    <section className="mt-4 border-t border-slate-100 pt-1" aria-label="What you pay for">
      <ul className="divide-y divide-slate-100">
        {data.lineItems.map((item, i) => (
          <Line
            // biome-ignore lint/suspicious/noArrayIndexKey: the link's fixed list, never reordered
            key={i}
            description={item.description}
            detail={lineDetail(String(item.quantity), item.unitAmount, symbol, item.taxRate)}
            amount={item.total}
            symbol={symbol}
          />
        ))}
      </ul>
      {fees ? (
        <dl className="border-t border-slate-100">
          <SumRow label="Fees">
            <Money value={fees} symbol={symbol} />
          </SumRow>
          <SumRow label="Total" strong>
            <Money value={total} symbol={symbol} strong />
          </SumRow>
        </dl>
      ) : null}
    </section>
  );
}
