import type { Metadata } from "next";
import Link from "next/link";
import { DirectionBadge } from "@/components/dashboard/direction-badge";
import { ExportForm } from "@/components/dashboard/export-form";
import { Pager } from "@/components/dashboard/pager";
import { Panel } from "@/components/dashboard/shell";
import { formatUtc, groupAmount } from "@/components/shared/format";
import { Alert } from "@/components/ui/alert";
import { inputClass } from "@/components/ui/field";
import { allNetworkRuntimes, networkRuntime } from "@/lib/chain/config";
import { isNetworkId } from "@/lib/chain/networks";
import { explorerLink } from "@/lib/chain/stored";
import { type FormFields, toFormState } from "@/lib/errors";
import { checkForm, maxLengthOf } from "@/lib/forms/form-state";
import { requireUser } from "@/lib/http/page-session";
import { parseWith } from "@/lib/http/parse";
import { searchPaymentsQuery } from "@/lib/operations/payments";
import { DIRECTION_LABELS, DIRECTIONS } from "@/lib/payments/direction";
import { receiptLinksOfPayments } from "@/lib/receipts/page";
import { type RequestRefundBadge, refundBadgesOf } from "@/lib/requests/payment-refunds";
import { type PaymentSearch, searchPayments } from "@/lib/requests/search-payments";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Payments", robots: { index: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const FILTERS = ["walletAddress", "reference", "requestId", "txHash", "paymentCurrency", "network", "fromDate", "toDate"] as const;
const LABELS: Record<(typeof FILTERS)[number], string> = {
  walletAddress: "Wallet (payer or payee)",
  reference: "Your reference",
  requestId: "Request ID",
  txHash: "Transaction hash",
  paymentCurrency: "Currency",
  network: "Network",
  fromDate: "From (UTC)",
  toDate: "Until (UTC)",
};
/** The filters in words, for refusals: checked with GET /v2/payments' own query schema (its bounds and words). */
const FIELDS: FormFields = { direction: { label: "Direction" }, ...Object.fromEntries(FILTERS.map((f) => [f, { label: LABELS[f] }])) };
const QUERY = searchPaymentsQuery;
/** Shown at once; the rest sit under "More filters" (open when one of them is set). */
const PRIMARY = ["reference", "walletAddress", "fromDate", "toDate"] as const;
const MORE = ["requestId", "txHash", "paymentCurrency", "network"] as const;

function FilterInput({ name, value }: { name: (typeof FILTERS)[number]; value: string | undefined }) {
  return (
    <label className="text-xs font-medium text-slate-600">
      {LABELS[name]}
      <input
        name={name}
        defaultValue={value ?? ""}
        maxLength={maxLengthOf(QUERY.shape[name])}
        className={input}
        placeholder={name.endsWith("Date") ? "2026-11-01T00:00:00Z" : ""}
      />
    </label>
  );
}

const DIRECTION_OPTIONS = [
  { value: "", label: "Received and paid out" },
  ...DIRECTIONS.map((d) => ({ value: d, label: DIRECTION_LABELS[d] })),
];
const PAGE = 20;
/** The API's offset stops at 1 000 000: the last page that can be asked for. */
const MAX_PAGE = Math.floor(1_000_000 / PAGE) + 1;
/** A payment's request's refunds, in a badge under its amount: refunded (all or part), a refund on its way, or Duebill's return. */
function RefundBadges({ badge, symbol }: { badge: RequestRefundBadge | undefined; symbol: string }) {
  if (!badge) return null;
  const chip = "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset";
  return (
    <span className="mt-1 flex flex-wrap gap-1 font-normal" data-testid="refund-badge">
      {badge.refundStatus === "refunded" ? (
        <span className={`${chip} bg-slate-100 text-slate-700 ring-slate-500/30`}>
          Refunded {groupAmount(badge.refunded)} {symbol}
        </span>
      ) : badge.refundStatus === "partially_refunded" ? (
        <span className={`${chip} bg-slate-100 text-slate-700 ring-slate-500/30`}>
          Partially refunded · {groupAmount(badge.refunded)} {symbol}
        </span>
      ) : null}
      {badge.sending !== "0" ? (
        <span className={`${chip} bg-sky-50 text-sky-800 ring-sky-600/30`}>
          Refund of {groupAmount(badge.sending)} {symbol} sent
        </span>
      ) : null}
      {badge.returned !== "0" ? (
        <span className={`${chip} bg-slate-100 text-slate-700 ring-slate-500/30`}>
          Returned {groupAmount(badge.returned)} {symbol}
        </span>
      ) : null}
    </span>
  );
}

const networkName = (id: string) => (isNetworkId(id) ? networkRuntime(id).network.name : id);
const input = inputClass("sm");

export default async function PaymentsPage({ searchParams }: Props) {
  const me = await requireUser("/dashboard/payments");
  const raw = await searchParams;
  const q: PaymentSearch = {};
  for (const f of FILTERS) {
    const v = raw[f];
    if (typeof v === "string" && v.trim()) q[f] = v.trim();
  }
  // Passed on as typed: the API's query schema refuses a value that is neither (naming Direction).
  if (typeof raw.direction === "string" && raw.direction) q.direction = raw.direction as PaymentSearch["direction"];
  const page = Math.min(MAX_PAGE, Math.max(1, Number.parseInt(String(raw.page ?? "1"), 10) || 1));
  let result: Awaited<ReturnType<typeof searchPayments>> | null = null;
  let error: string | null = null;
  // GET /v2/payments' own query schema first (its length bounds: a 10 000-character reference never
  // reaches the database), the field named in words ("Your reference: at most 255 characters").
  const checked = checkForm(QUERY, q, FIELDS);
  if (!checked.ok) error = Object.values(checked.fieldErrors)[0] ?? "Check the filters";
  else
    try {
      // The API's own search: the same validation (parseWith: NUL, invalid Unicode), the same account scoping.
      result = await searchPayments(me.account.id, { ...parseWith(QUERY, q), limit: String(PAGE), offset: String((page - 1) * PAGE) });
    } catch (err) {
      error = toFormState(err, FIELDS).error;
    }
  // The refunds of this page's requests only (index-backed by request id), for the badges.
  const badges = result
    ? await refundBadgesOf(
        me.account.id,
        result.payments.map((p) => p.request.requestId),
      )
    : new Map();
  // Each row's signed receipt (issued now for a payment recorded before receipts existed).
  const receipts = result ? await receiptLinksOfPayments(result.payments.map((p) => p.id)) : new Map<string, string>();
  const link = (p: number) =>
    `/dashboard/payments?${new URLSearchParams({ ...q, ...(p > 1 ? { page: String(p) } : {}) } as Record<string, string>)}`;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Payments</h1>
      <ExportForm
        networks={allNetworkRuntimes().map((rt) => ({ id: rt.network.id, name: rt.network.name }))}
        error={typeof raw.exportError === "string" ? raw.exportError.slice(0, 300) : null}
      />
      <Panel title="Filter">
        <form method="get" className="grid gap-3 sm:grid-cols-4">
          <label className="text-xs font-medium text-slate-600">
            Direction
            <select name="direction" defaultValue={q.direction ?? ""} className={input}>
              {DIRECTION_OPTIONS.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.label}
                </option>
              ))}
            </select>
          </label>
          {PRIMARY.map((f) => (
            <FilterInput key={f} name={f} value={q[f]} />
          ))}
          <details className="sm:col-span-4" open={MORE.some((f) => q[f] !== undefined)}>
            <summary className="cursor-pointer text-sm font-medium text-indigo-700">More filters</summary>
            <div className="mt-3 grid gap-3 sm:grid-cols-4">
              {MORE.map((f) => (
                <FilterInput key={f} name={f} value={q[f]} />
              ))}
            </div>
          </details>
          <div className="flex items-end gap-2 sm:col-span-4">
            <button type="submit" className="rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500">
              Search
            </button>
            <Link href="/dashboard/payments" className="rounded-lg px-3 py-2 text-sm font-medium text-slate-700 ring-1 ring-slate-300">
              Clear
            </Link>
          </div>
        </form>
        {error ? (
          <Alert as="p" role="alert" className="mt-3">
            {error}
          </Alert>
        ) : null}
      </Panel>
      {result ? (
        <Panel title={`${result.pagination.total} payment${result.pagination.total === 1 ? "" : "s"}`}>
          {result.payments.length === 0 ? (
            <p className="text-sm text-slate-600">Nothing matches.</p>
          ) : (
            <ul className="divide-y divide-slate-100 text-sm" data-testid="payments">
              {result.payments.map((p) => (
                <li key={p.id} className="grid gap-1 py-3 sm:grid-cols-[11rem_minmax(0,1fr)_12rem] sm:gap-4" data-direction={p.direction}>
                  <span className="font-semibold tabular-nums">
                    <DirectionBadge direction={p.direction} /> {groupAmount(p.amount)} {p.paymentCurrency}
                    <span className="block text-xs font-normal text-slate-500">on {networkName(p.destinationNetwork)}</span>
                  </span>
                  <span className="min-w-0">
                    <Link
                      href={`/dashboard/requests/${p.request.requestId}`}
                      className="block truncate font-medium text-indigo-700 underline-offset-2 hover:underline"
                    >
                      {p.request.reference ?? p.request.requestId}
                    </Link>
                    {p.direction === "incoming" ? (
                      <span className="block truncate font-mono text-xs text-slate-500" title={p.payer ?? ""}>
                        from {p.payer ?? "unknown"}
                      </span>
                    ) : (
                      <span className="block truncate font-mono text-xs text-slate-500" title={p.payee}>
                        to {p.payee}
                      </span>
                    )}
                    <RefundBadges badge={badges.get(p.request.requestId)} symbol={p.paymentCurrency} />
                  </span>
                  <span className="text-slate-500 sm:text-right">
                    {formatUtc(p.timestamp)}
                    {p.destinationTxHash && explorerLink(p.destinationNetwork, p.destinationTxHash) ? (
                      <a
                        href={explorerLink(p.destinationNetwork, p.destinationTxHash) ?? undefined}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="block text-xs text-indigo-700 underline-offset-2 hover:underline"
                      >
                        Transaction ↗
                      </a>
                    ) : null}
                    {receipts.get(p.id) ? (
                      <a href={receipts.get(p.id)} className="block text-xs text-indigo-700 underline-offset-2 hover:underline">
                        Receipt
                      </a>
                    ) : null}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <Pager page={page} pageCount={Math.max(1, Math.ceil(result.pagination.total / PAGE))} href={link} label="Payments pages" />
        </Panel>
      ) : null}
    </div>
  );
}
