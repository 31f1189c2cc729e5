import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { redeliverAction } from "@/app/dashboard/webhooks/actions";
import { DeliveryLog } from "@/components/dashboard/delivery-log";
import { Panel } from "@/components/dashboard/shell";
import { formatUtc, groupAmount } from "@/components/shared/format";
import { explorerLink } from "@/lib/chain/stored";
import { AppError } from "@/lib/errors";
import { requireUser } from "@/lib/http/page-session";
import { requestDetail } from "@/lib/requests/request-detail";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Request", robots: { index: false } };

const STATUS: Record<string, string> = {
  pending: "Awaiting payment",
  partially_paid: "Partially paid",
  paid: "Paid",
  overpaid: "Overpaid",
};

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[10rem_minmax(0,1fr)]">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </div>
  );
}

export default async function RequestPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const me = await requireUser(`/dashboard/requests/${encodeURIComponent(id)}`);
  let detail: Awaited<ReturnType<typeof requestDetail>>;
  try {
    detail = await requestDetail(me.account.id, id);
  } catch (err) {
    // Another account's request and a missing one look the same.
    if (err instanceof AppError && err.code === "not_found") notFound();
    throw err;
  }
  const r = detail.request;
  const symbol = r.paymentCurrency.split("-")[0];
  // A conversion request owes (and counts paid) its invoice currency; its payments move the token.
  const owed = r.conversionBreakdown ? r.invoiceCurrency : symbol;
  return (
    <div className="space-y-6">
      <nav className="text-sm">
        <Link href="/dashboard/payments" className="font-medium text-indigo-700">
          ← Payments
        </Link>
      </nav>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
        {groupAmount(r.expectedAmount)} {owed}
        <span className="ml-3 align-middle text-sm font-medium text-slate-600" data-testid="request-status">
          {r.subStatus === "fee_short" ? "Partially paid · fee missing" : (STATUS[r.status] ?? r.status)}
        </span>
      </h1>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Request">
          <dl className="divide-y divide-slate-100 text-sm">
            <Row label="Request ID">
              <span className="font-mono text-xs">{r.requestId}</span>
            </Row>
            {r.reference ? <Row label="Reference">{r.reference}</Row> : null}
            <Row label="Network">{r.network}</Row>
            <Row label="Paid">
              {groupAmount(r.totalAmountPaid)} of {groupAmount(r.expectedAmount)} {owed}
            </Row>
            {r.subStatus === "fee_short" && r.missingFees ? (
              <Row label="Fee missing">
                <span data-testid="fee-short" className="text-rose-800">
                  A payment arrived without its full fee; the request is paid once the fee is:{" "}
                  {r.missingFees.map((f, i) => (
                    <span key={f.feeAddress}>
                      {i > 0 ? ", " : ""}
                      <strong className="tabular-nums">
                        {groupAmount(f.amount)} {f.currency}
                      </strong>{" "}
                      to <span className="break-all font-mono text-xs">{f.feeAddress}</span>
                    </span>
                  ))}
                </span>
              </Row>
            ) : null}
            <Row label="Payee">
              <span className="font-mono text-xs">{r.payee}</span>
            </Row>
            {r.payer ? (
              <Row label="Payer">
                <span className="font-mono text-xs">{r.payer}</span>
              </Row>
            ) : null}
            <Row label="Payment reference">
              <span className="font-mono text-xs">{r.paymentReference}</span>
            </Row>
            <Row label="Created">{formatUtc(r.createdAt)}</Row>
            {detail.link ? (
              <Row label="Payment link">
                <a href={`/pay/${detail.link.token}`} className="text-indigo-700 underline-offset-2 hover:underline">
                  /pay/{detail.link.token.slice(0, 10)}…
                </a>{" "}
                <span className="text-slate-500">({detail.link.status})</span>
              </Row>
            ) : null}
            {detail.link?.processing ? (
              <Row label="Processing">
                <span data-testid="processing">
                  The payer sent <span className="break-all font-mono text-xs">{detail.link.processing.txHash}</span>
                  {detail.link.processing.since ? ` at ${formatUtc(detail.link.processing.since)}` : ""}; waiting for its confirmation.
                </span>
              </Row>
            ) : null}
          </dl>
        </Panel>
        <Panel title="Payments">
          {r.payments.length === 0 ? (
            <p className="text-sm text-slate-600">No payment detected yet.</p>
          ) : (
            <ul className="divide-y divide-slate-100 text-sm" data-testid="request-payments">
              {r.payments.map((p) => (
                <li key={`${p.txHash}-${p.blockNumber}`} className="py-2">
                  <span className="font-medium tabular-nums">
                    {groupAmount(p.amount)} {symbol}
                  </span>
                  <span className="block text-xs text-slate-500">
                    {formatUtc(p.timestamp)} · block {p.blockNumber}
                    {p.feeAmount !== "0" ? ` · fee ${p.feeAmount}` : ""}
                  </span>
                  <span className="block truncate font-mono text-xs text-slate-500">from {p.payer}</span>
                  {explorerLink(r.network, p.txHash) ? (
                    <a
                      href={explorerLink(r.network, p.txHash) ?? undefined}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="text-xs text-indigo-700 underline-offset-2 hover:underline"
                    >
                      Transaction ↗
                    </a>
                  ) : (
                    <span className="block truncate font-mono text-xs text-slate-500">{p.txHash}</span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
      <Panel title="Webhook deliveries">
        <DeliveryLog deliveries={detail.deliveries} redeliver={redeliverAction} />
      </Panel>
    </div>
  );
}
