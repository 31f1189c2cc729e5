import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cancelRefundAction, markRefundSentAction, prepareRefundAction, refundPlanAction } from "@/app/dashboard/requests/actions";
import { escrowAction, prepareEscrowRefundAction, submitEscrowRefundAction } from "@/app/dashboard/requests/escrow-actions";
import { redeliverAction } from "@/app/dashboard/webhooks/actions";
import { DeliveryLog } from "@/components/dashboard/delivery-log";
import { EscrowPanel } from "@/components/dashboard/escrow-panel";
import type { RefundActions } from "@/components/dashboard/refunds/refund-types";
import { RefundOffers, RefundsPanelBody, RefundsProvider, type RequestRefundsData } from "@/components/dashboard/refunds/request-refunds";
import { Panel } from "@/components/dashboard/shell";
import { formatUtc, groupAmount } from "@/components/shared/format";
import { explorerLink } from "@/lib/chain/stored";
import { commercePaymentOfRequest } from "@/lib/commerce/page";
import { AppError } from "@/lib/errors";
import { requireUser } from "@/lib/http/page-session";
import { EXCHANGE_WARNING } from "@/lib/refunds";
import { requestDetail } from "@/lib/requests/request-detail";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Request", robots: { index: false } };

const STATUS: Record<string, string> = {
  pending: "Awaiting payment",
  partially_paid: "Partially paid",
  paid: "Paid",
  overpaid: "Overpaid",
};

const REFUND_ACTIONS: RefundActions = {
  prepare: prepareRefundAction,
  plan: refundPlanAction,
  markSent: markRefundSentAction,
  cancel: cancelRefundAction,
};

/** Issue 28's wrong-amount label, when the request view carries it (the labels land with the excess lane: read as optional). */
type WrongAmount = { amountLabel?: "exact" | "over" | "under" | "late" | null; excessAmount?: string };

function Chip({ tone, testId, children }: { tone: "amber" | "emerald" | "sky"; testId: string; children: React.ReactNode }) {
  const style = {
    amber: "bg-amber-50 text-amber-800 ring-amber-600/30",
    emerald: "bg-emerald-50 text-emerald-800 ring-emerald-600/30",
    sky: "bg-sky-50 text-sky-800 ring-sky-600/30",
  }[tone];
  return (
    <span
      data-testid={testId}
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${style}`}
    >
      {children}
    </span>
  );
}

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
  // Paid by authorization (lib/commerce): the escrow's amounts, deadlines and actions.
  const escrow = await commercePaymentOfRequest(me.account.id, id);
  const symbol = r.paymentCurrency.split("-")[0];
  // A conversion request owes (and counts paid) its invoice currency; its payments move the token.
  const owed = r.conversionBreakdown ? r.invoiceCurrency : symbol;
  const wrong = r as typeof r & WrongAmount;
  const refunding = detail.refunding;
  const refunds: RequestRefundsData | null = refunding
    ? {
        requestId: r.requestId,
        payee: r.payee,
        payer: refunding.payer,
        symbol: refunding.symbol,
        decimals: refunding.decimals,
        received: refunding.received,
        refundable: r.refundableAmount,
        refunded: r.refundedAmount,
        returned: r.returnedAmount,
        feeKept: refunding.feeKept,
        exchangeWarning: EXCHANGE_WARNING,
        chain: refunding.chain,
        refunds: r.refunds.map((f) => ({
          id: f.id,
          status: f.status,
          reason: f.reason,
          sender: f.sender,
          amount: f.amount,
          toAddress: f.toAddress,
          warning: f.warning,
          txHash: f.txHash,
          explorer: f.txHash ? explorerLink(r.network, f.txHash) : null,
          createdAt: f.createdAt,
          sentAt: f.sentAt,
          confirmedAt: f.confirmedAt,
          cancelledAt: f.cancelledAt,
        })),
      }
    : null;
  // The Refunds panel: once something was received (refund it), or when a refund exists.
  // A request paid by authorization refunds through its escrow (the panel above), which counts refunds against captures.
  const refundsPanel = !escrow && refunds && (refunds.received !== "0" || refunds.refunds.length > 0);
  const content = (
    <div className="space-y-6">
      <nav className="text-sm">
        <Link href="/dashboard/payments" className="font-medium text-indigo-700">
          ← Payments
        </Link>
      </nav>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
          {groupAmount(r.expectedAmount)} {owed}
          <span className="ml-3 align-middle text-sm font-medium text-slate-600" data-testid="request-status">
            {r.subStatus === "fee_short" ? "Partially paid · fee missing" : (STATUS[r.status] ?? r.status)}
          </span>
        </h1>
        <div className="flex flex-wrap items-center gap-2">
          {wrong.amountLabel === "over" && wrong.excessAmount ? (
            <Chip tone="amber" testId="amount-label">
              Overpaid by {groupAmount(wrong.excessAmount)} {owed}
            </Chip>
          ) : wrong.amountLabel === "under" ? (
            <Chip tone="amber" testId="amount-label">
              Underpaid
            </Chip>
          ) : wrong.amountLabel === "late" ? (
            <Chip tone="amber" testId="amount-label">
              Paid late
            </Chip>
          ) : null}
          {r.refundStatus === "refunded" ? (
            <Chip tone="emerald" testId="refund-state">
              Refunded
            </Chip>
          ) : r.refundStatus === "partially_refunded" ? (
            <Chip tone="sky" testId="refund-state">
              Partially refunded · {groupAmount(r.refundedAmount)} {symbol}
            </Chip>
          ) : null}
          {refundsPanel && r.refundableAmount !== "0" ? (
            <a
              href="#refunds"
              className="rounded-lg px-3 py-1.5 text-sm font-semibold text-slate-900 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
            >
              Refund…
            </a>
          ) : null}
        </div>
      </div>
      <RefundOffers />
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
            {r.refundedAmount !== "0" ? (
              <Row label="Refunded">
                {groupAmount(r.refundedAmount)} {symbol}
              </Row>
            ) : null}
            {r.returnedAmount !== "0" ? (
              <Row label="Returned by Duebill">
                {groupAmount(r.returnedAmount)} {symbol}{" "}
                <span className="text-slate-500">(sent back from the deposit address: it never reached you)</span>
              </Row>
            ) : null}
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
      {escrow ? (
        <Panel title="Authorization (escrow)">
          <EscrowPanel
            view={escrow.view}
            action={escrowAction}
            refund={{ payee: escrow.payee, chain: escrow.chain, prepare: prepareEscrowRefundAction, submit: submitEscrowRefundAction }}
          />
        </Panel>
      ) : null}
      {refundsPanel ? (
        <div id="refunds" className="scroll-mt-6">
          <Panel title="Refunds">
            <RefundsPanelBody />
          </Panel>
        </div>
      ) : null}
      <Panel title="Webhook deliveries">
        <DeliveryLog deliveries={detail.deliveries} redeliver={redeliverAction} />
      </Panel>
    </div>
  );
  return refunds ? (
    <RefundsProvider data={refunds} actions={REFUND_ACTIONS}>
      {content}
    </RefundsProvider>
  ) : (
    content
  );
}
