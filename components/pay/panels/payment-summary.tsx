import type { ReactNode } from "react";
import { safeHttpUrl } from "@/components/pay/lib/format";
import { formatRelative, formatUtc, groupAmount, shortenAddress } from "@/components/shared/format";
import { Address } from "@/components/ui/address";
import { Card } from "@/components/ui/card";
import type { Checkout } from "@/lib/operations/checkout-schemas";
import { InvoiceLines, withCents } from "./invoice-lines";
import { LiveStatusBadge } from "./live-panels";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-[7rem_minmax(0,1fr)] sm:gap-4">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="min-w-0 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * A payment reached the payee without the link's whole fee (subStatus fee_short): the link is not
 * paid until the fee is. Names each missing fee and where it goes; the pay button sends exactly that.
 */
function FeeShortNotice({ data }: { data: Checkout }) {
  return (
    <div
      role="status"
      data-testid="fee-short"
      className="mt-3 rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-900 ring-1 ring-inset ring-rose-600/20"
    >
      <p className="font-medium">A payment arrived without its full fee.</p>
      <p className="mt-1">
        This payment is not complete until the missing fee is paid. The next payment sends{" "}
        <strong className="tabular-nums">
          {groupAmount(data.totalAmount)} {data.currency.symbol}
        </strong>
        {data.totalAmount === data.payerFees ? ", the missing fee alone" : ""}.
      </p>
      <ul className="mt-1 space-y-0.5">
        {data.missingFees.map((f) => (
          <li key={f.feeAddress}>
            <span className="tabular-nums">
              {groupAmount(f.amount)} {f.currency}
            </span>{" "}
            fee to{" "}
            <span className="break-all font-mono text-xs" title={f.feeAddress}>
              {shortenAddress(f.feeAddress, 6)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The link's terms, server-rendered: what is paid, to whom, on which network, until when. */
/** `held`: the link is paid by an authorization held in escrow (lib/commerce), not charged yet. */
export function PaymentSummary({ data, now, held = false }: { data: Checkout; now: number; held?: boolean }) {
  const symbol = data.currency.symbol;
  const expired = new Date(data.expiresAt).getTime() <= now;
  const open = data.status === "pending";
  // Something is still to pay: the headline is what the next transaction sends; else the link's whole amount.
  const due = open && data.items.some((i) => i.state === "due");
  const amount = due ? data.totalAmount : data.fullAmount;
  const fees = due ? data.payerFees : data.fullFees;
  const hasFees = fees !== "0" && Number.parseFloat(fees) !== 0;
  const paidCount = data.items.filter((i) => i.state === "paid").length;
  const partlyPaid = due && data.paidAmount !== "0" && Number.parseFloat(data.paidAmount) !== 0;
  // Only fees are due (amounts arrived, a fee came short): the next transaction pays the fee addresses alone.
  const feeOnly = due && data.recipients.length === 0 && data.feeRecipients.length > 0;
  // Who the next transaction pays; once nothing is due, everyone the link paid.
  const recipients = feeOnly
    ? data.feeRecipients
    : open && data.recipients.length > 0
      ? data.recipients
      : [...new Set(data.items.filter((i) => i.state !== "excluded").map((i) => i.payee))];
  const several = recipients.length > 1;
  // The merchant is who gets paid, never an address to send to: a plain transfer to it is not this
  // payment (the page's one address to send to is the deposit address of "Pay by transfer").
  const incoming = data.direction !== "outgoing";
  const recipientLabel = feeOnly ? "Fee to" : incoming ? (several ? "Payees" : "Payee") : several ? "Recipients" : "Recipient";
  return (
    <Card aria-labelledby="summary-heading">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h1 id="summary-heading" className="text-sm font-medium text-slate-600">
          {data.direction === "outgoing" ? "Payout" : "Payment request"}
          {data.paymentType === "batch" ? ` · ${data.items.length} payments` : ""}
        </h1>
        <LiveStatusBadge
          status={data.status}
          pending={
            held
              ? "authorized"
              : open && !due
                ? "received"
                : data.subStatus === "fee_short"
                  ? "fee_short"
                  : partlyPaid
                    ? "partly_paid"
                    : undefined
          }
        />
      </div>
      {data.status === "pending" && data.subStatus === "fee_short" ? <FeeShortNotice data={data} /> : null}
      <p className="mt-2 break-words text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
        {groupAmount(data.invoice ? withCents(amount) : amount)} <span className="text-slate-600">{symbol}</span>
      </p>
      {partlyPaid ? (
        <p className="mt-1 text-sm font-medium text-slate-700" data-testid="already-paid">
          Still to pay · {groupAmount(data.paidAmount)} {symbol} already paid
          {data.paymentType === "batch" && paidCount > 0 ? ` (${paidCount} of ${data.items.length} payments)` : ""}
        </p>
      ) : null}
      {feeOnly ? (
        <p className="mt-1 text-sm text-slate-600" data-testid="fee-only">
          The missing fee only: nothing more goes to the {data.direction === "outgoing" ? "recipients" : "payee"}
        </p>
      ) : hasFees ? (
        <p className="mt-1 text-sm text-slate-600">
          Includes {groupAmount(fees)} {symbol} in fees
        </p>
      ) : null}
      {data.description ? <p className="mt-3 whitespace-pre-line break-words text-sm text-slate-700">{data.description}</p> : null}
      <InvoiceLines data={data} />
      <dl className="mt-4 divide-y divide-slate-100 border-t border-slate-100">
        <Row label="Network">
          {data.network.name}
          {data.network.testnet ? (
            <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-600">Testnet</span>
          ) : null}
        </Row>
        <Row label="Token">
          {symbol}{" "}
          <span className="font-mono text-xs text-slate-500" title={data.currency.address}>
            {shortenAddress(data.currency.address, 6)}
          </span>
          {data.currency.official ? (
            <span className="ml-2 inline-flex items-center gap-1 rounded bg-emerald-50 px-1.5 py-0.5 text-xs font-medium text-emerald-800">
              <span aria-hidden="true">✓</span> Official {symbol} on {data.network.name}
            </span>
          ) : (
            <span className="ml-2 rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-800">Test token</span>
          )}
        </Row>
        <Row label={recipientLabel}>
          {several ? (
            <ul className="space-y-1" aria-label={recipientLabel}>
              {recipients.map((r) => (
                <li key={r}>
                  <Address value={r} />
                </li>
              ))}
            </ul>
          ) : (
            <>
              {incoming && !feeOnly && data.merchant?.name ? (
                <span className="block font-medium break-words">{data.merchant.name}</span>
              ) : null}
              <Address value={recipients[0] ?? data.payee.display} />
            </>
          )}
          {data.payee.masked && !feeOnly ? <span className="ml-2 text-xs text-slate-500">(partly hidden)</span> : null}
          {incoming && !feeOnly && due ? (
            <span className="mt-1 block text-xs text-slate-500" data-testid="payee-note">
              Receives this payment. Do not send funds to this address yourself: only a payment made on this page is recognised.
            </span>
          ) : null}
        </Row>
        {data.reference ? (
          <Row label="Reference">
            <span className="break-words">{data.reference}</span>
          </Row>
        ) : null}
        {data.status === "completed" && data.completedAt ? (
          <Row label="Paid">
            <time dateTime={data.completedAt}>{formatUtc(data.completedAt)}</time>
          </Row>
        ) : due || data.status === "expired" ? (
          <Row label={expired ? "Expired" : "Expires"}>
            <time dateTime={data.expiresAt}>{formatUtc(data.expiresAt)}</time>
            <span className="text-slate-500"> · {formatRelative(data.expiresAt, now)}</span>
          </Row>
        ) : null}
      </dl>
      {due && safeHttpUrl(data.redirectUrl) ? (
        <p className="mt-3 text-sm">
          <a
            href={safeHttpUrl(data.redirectUrl) ?? undefined}
            rel="noopener noreferrer"
            className="rounded font-medium text-indigo-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            ← Back to {data.merchant?.name ?? "the merchant"} without paying
          </a>
        </p>
      ) : null}
      {data.paymentType === "batch" ? (
        // Open when the list says something the headline does not (a payment paid or left out) or is short.
        <details
          className="mt-2 rounded-lg bg-slate-50 px-3 py-2 text-sm"
          open={data.items.some((i) => i.state !== "due") || data.items.length <= 10}
        >
          <summary className="cursor-pointer rounded font-medium text-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
            The {data.items.length} payments
          </summary>
          <ul className="mt-2 divide-y divide-slate-200/70" data-testid="payments-list">
            {data.items.map((item) => (
              <li key={item.requestId} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2" data-state={item.state}>
                <span className={`break-all font-mono text-xs ${item.state === "due" ? "text-slate-600" : "text-slate-400"}`}>
                  {item.payee}
                </span>
                <span className="flex flex-wrap items-center gap-2">
                  {item.state === "due" && item.due === "0" ? (
                    // Its amount arrived: the next transaction sends its missing fee alone.
                    <span className="font-medium" data-testid="item-fee-only">
                      Fee {groupAmount(item.dueFee)} {symbol}
                    </span>
                  ) : (
                    <span
                      className={
                        item.state === "due" ? "font-medium" : item.state === "paid" ? "text-slate-500" : "text-slate-500 line-through"
                      }
                    >
                      {groupAmount(item.state === "due" ? item.due : item.amount)} {symbol}
                    </span>
                  )}
                  {item.state === "due" && item.due !== "0" && item.due !== item.amount ? (
                    <span className="text-xs text-slate-500">
                      of {groupAmount(item.amount)} {symbol}
                    </span>
                  ) : null}
                  {item.state === "due" && item.feeShort ? (
                    <span className="rounded bg-rose-50 px-1.5 py-0.5 text-xs font-medium text-rose-800">Fee missing</span>
                  ) : item.state === "paid" ? (
                    <span className="rounded bg-emerald-50 px-1.5 py-0.5 text-xs font-medium text-emerald-800">Paid</span>
                  ) : item.state === "excluded" ? (
                    <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-600">Not included</span>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </Card>
  );
}
