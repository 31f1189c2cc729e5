import type { ReactNode } from "react";
import { formatUtc, groupAmount } from "@/components/shared/format";
import { Address } from "@/components/ui/address";
import { ButtonLink } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { ReceiptPageView } from "@/lib/receipts/page";
import { InvoiceLines } from "./invoice-lines";
import { SignatureCheckBadge } from "./signature-check";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-0.5 py-2.5 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </div>
  );
}

const link = "rounded text-indigo-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-indigo-600";

/** The public receipt: what was paid, to whom, the transfer on chain, and the server's signature check. */
export function ReceiptView({ view }: { view: ReceiptPageView }) {
  const { receipt: r } = view.signed;
  const t = r.transfer;
  const refund = r.kind === "refund";
  const fee = t.feeAmount !== "0";
  return (
    <>
      <Card aria-labelledby="receipt-heading" tone="emerald">
        <p className="text-sm font-medium text-slate-500">
          {refund ? `Refund from ${r.merchant.name}` : `Receipt from ${r.merchant.name}`}
        </p>
        <h1 id="receipt-heading" className="mt-1 text-3xl font-semibold tracking-tight text-slate-900">
          {groupAmount(t.amountDecimal)} {t.token.symbol}
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          {refund ? "Refunded" : "Paid"} <time dateTime={t.blockTime}>{formatUtc(t.blockTime)}</time>
          {r.request.reference ? <> · Order {r.request.reference}</> : null}
        </p>
        <SignatureCheckBadge check={view.check} />
        <div className="mt-5 flex flex-wrap gap-3">
          <ButtonLink href={view.jsonUrl} download={`receipt-${view.id}.json`}>
            Download JSON
          </ButtonLink>
          <ButtonLink href={view.pdfUrl} variant="secondary">
            Download PDF
          </ButtonLink>
        </div>
      </Card>

      {r.request.invoice ? <InvoiceLines invoice={r.request.invoice} currency={r.request.invoiceCurrency} /> : null}

      <Card aria-labelledby="transfer-heading">
        <h2 id="transfer-heading" className="text-base font-semibold text-slate-900">
          {refund ? "Refund transfer" : "Payment"}
        </h2>
        <dl className="mt-2 divide-y divide-slate-100 text-sm">
          <Row label="Amount">
            {groupAmount(t.amountDecimal)} {t.token.symbol}
            {r.request.invoiceCurrency !== r.request.paymentCurrency && t.invoiceAmount
              ? ` (${t.invoiceAmount} ${r.request.invoiceCurrency})`
              : null}
          </Row>
          {fee ? (
            <Row label="Fee">
              {groupAmount(t.feeAmountDecimal)} {t.token.symbol}
            </Row>
          ) : null}
          {t.from ? (
            <Row label="Paid from">
              <Address value={t.from} />
            </Row>
          ) : null}
          <Row label={refund ? "Refunded to" : "Paid to"}>
            <Address value={t.to} />
          </Row>
          <Row label="Network">{t.chainId ? `${view.networkName} (chain ${t.chainId})` : view.networkName}</Row>
          <Row label="Transaction">
            {view.explorerUrl ? (
              <a href={view.explorerUrl} target="_blank" rel="noopener noreferrer" className={link}>
                <Address value={t.txHash} />
                <span className="sr-only"> (opens the block explorer in a new tab)</span>
              </a>
            ) : (
              <Address value={t.txHash} />
            )}
          </Row>
          <Row label="Block">
            {groupAmount(t.blockNumber)} · log {t.logIndex} · {t.confirmations} confirmation{t.confirmations === 1 ? "" : "s"}
            <Address value={t.blockHash} className="mt-0.5 block font-mono text-[12px] text-slate-500" />
          </Row>
          <Row label="Payment reference">
            <span className="font-mono text-[13px]">{r.referenceDerivation.paymentReference}</span>
          </Row>
          <Row label="Receipt">
            <span className="font-mono text-[13px]">{r.id}</span> · issued <time dateTime={r.issuedAt}>{formatUtc(r.issuedAt)}</time>
          </Row>
        </dl>
      </Card>
    </>
  );
}
