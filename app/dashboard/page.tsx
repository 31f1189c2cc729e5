import type { Metadata } from "next";
import Link from "next/link";
import { BarChart } from "@/components/dashboard/bar-chart";
import { DirectionBadge } from "@/components/dashboard/direction-badge";
import { FirstRunChecklist } from "@/components/dashboard/first-run-checklist";
import { MoneyTotals } from "@/components/dashboard/money-totals";
import { Panel } from "@/components/dashboard/shell";
import { formatUtc, groupAmount } from "@/components/shared/format";
import { requireUser } from "@/lib/http/page-session";
import { DIRECTION_LABELS } from "@/lib/payments/direction";
import { accountOverview, recentPayments } from "@/lib/requests/account-overview";
import { firstRunChecklist } from "@/lib/requests/first-run";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Dashboard", robots: { index: false } };

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl bg-white px-3 py-2 shadow-sm ring-1 ring-slate-200">
      <p className="text-xs font-medium text-slate-500">{label}</p>
      <p className="text-xl font-semibold tabular-nums text-slate-900">{value}</p>
    </div>
  );
}

export default async function DashboardPage() {
  // Each page enforces the session itself (layouts render in parallel and do not know the path).
  const me = await requireUser("/dashboard");
  const [overview, recent, checklist] = await Promise.all([
    accountOverview(me.account.id),
    recentPayments(me.account.id),
    firstRunChecklist(me.account.id),
  ]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Overview</h1>
      <FirstRunChecklist checklist={checklist} />
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        <Stat label="Requests awaiting payment" value={overview.requests.pending + overview.requests.partiallyPaid} />
        <Stat label="Requests paid" value={overview.requests.paid} />
        <Stat label="Payouts paid" value={overview.payouts.paid} />
        <Stat label="Links pending" value={overview.links.pending} />
        <Stat label="Links paid" value={overview.links.completed} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title={`${DIRECTION_LABELS.incoming} (net of refunds), by currency and network`}>
          <MoneyTotals totals={overview.incoming} testId="totals-incoming" empty="Nothing received yet." />
        </Panel>
        <Panel title={`${DIRECTION_LABELS.outgoing}, by currency and network`}>
          <MoneyTotals totals={overview.outgoing} testId="totals-outgoing" empty="No payouts yet." />
        </Panel>
      </div>
      <Panel title="Payments, last 30 days">
        <BarChart days={overview.days} labels={DIRECTION_LABELS} />
      </Panel>
      <Panel
        title="Recent payments"
        action={
          <Link href="/dashboard/payments" className="shrink-0 text-sm font-medium text-indigo-700 underline-offset-2 hover:underline">
            View all
          </Link>
        }
      >
        {recent.length === 0 ? (
          <p className="text-sm text-slate-600">Payments appear here as soon as they are detected on chain.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm" data-testid="recent-payments">
            {recent.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
                <span className="flex items-center gap-2 font-medium tabular-nums">
                  <DirectionBadge direction={p.direction} />
                  {groupAmount(p.amount)} {p.symbol} <span className="font-normal text-slate-500">on {p.networkName}</span>
                </span>
                <Link
                  href={`/dashboard/requests/${p.requestId}`}
                  className="min-w-0 truncate text-indigo-700 underline-offset-2 hover:underline"
                >
                  {p.reference ?? `${p.requestId.slice(0, 10)}…`}
                </Link>
                <span className="text-slate-500">{formatUtc(p.blockTime)}</span>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
