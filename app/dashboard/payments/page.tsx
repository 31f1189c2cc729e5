import type { Metadata } from "next";
import Link from "next/link";
import { DirectionBadge } from "@/components/dashboard/direction-badge";
import { Panel } from "@/components/dashboard/shell";
import { formatUtc, groupAmount } from "@/components/shared/format";
import { Alert } from "@/components/ui/alert";
import { inputClass } from "@/components/ui/field";
import { networkRuntime } from "@/lib/chain/config";
import { isNetworkId } from "@/lib/chain/networks";
import { explorerLink } from "@/lib/chain/stored";
import { toFormState } from "@/lib/errors";
import { requireUser } from "@/lib/http/page-session";
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
/** Shown at once; the rest sit under "More filters" (open when one of them is set). */
const PRIMARY = ["reference", "walletAddress", "fromDate", "toDate"] as const;
const MORE = ["requestId", "txHash", "paymentCurrency", "network"] as const;

function FilterInput({ name, value }: { name: (typeof FILTERS)[number]; value: string | undefined }) {
  return (
    <label className="text-xs font-medium text-slate-600">
      {LABELS[name]}
      <input name={name} defaultValue={value ?? ""} className={input} placeholder={name.endsWith("Date") ? "2026-11-01T00:00:00Z" : ""} />
    </label>
  );
}

const DIRECTIONS = [
  { value: "", label: "In and out" },
  { value: "incoming", label: "Money in" },
  { value: "outgoing", label: "Money out" },
] as const;
const PAGE = 20;
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
  // Passed on as typed: the search itself refuses a value that is neither (a 400 naming `direction`).
  if (typeof raw.direction === "string" && raw.direction) q.direction = raw.direction as PaymentSearch["direction"];
  const page = Math.max(0, Number.parseInt(String(raw.page ?? "0"), 10) || 0);
  let result: Awaited<ReturnType<typeof searchPayments>> | null = null;
  let error: string | null = null;
  try {
    // The API's own search (GET /v2/payments): same validation, the same account scoping.
    result = await searchPayments(me.account.id, { ...q, limit: String(PAGE), offset: String(page * PAGE) });
  } catch (err) {
    // The field in words, as the form names it ("From (UTC): must be …", not "fromDate: must be …").
    const state = toFormState(err);
    const label = state.field === "direction" ? "Direction" : LABELS[state.field as (typeof FILTERS)[number]];
    error = label && state.error?.startsWith(`${state.field}: `) ? `${label}: ${state.error.slice(state.field!.length + 2)}` : state.error;
  }
  const link = (p: number) => `/dashboard/payments?${new URLSearchParams({ ...q, page: String(p) } as Record<string, string>)}`;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Payments</h1>
      <Panel title="Filter">
        <form method="get" className="grid gap-3 sm:grid-cols-4">
          <label className="text-xs font-medium text-slate-600">
            Direction
            <select name="direction" defaultValue={q.direction ?? ""} className={input}>
              {DIRECTIONS.map((d) => (
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
                  </span>
                </li>
              ))}
            </ul>
          )}
          <nav aria-label="Pages" className="mt-4 flex justify-between text-sm">
            {page > 0 ? (
              <Link href={link(page - 1)} className="font-medium text-indigo-700">
                ← Newer
              </Link>
            ) : (
              <span />
            )}
            {result.pagination.hasMore ? (
              <Link href={link(page + 1)} className="font-medium text-indigo-700">
                Older →
              </Link>
            ) : null}
          </nav>
        </Panel>
      ) : null}
    </div>
  );
}
