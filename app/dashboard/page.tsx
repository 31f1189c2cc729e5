import type { Metadata } from "next";
import Link from "next/link";
import { BarChart } from "@/components/dashboard/bar-chart";
import { Panel } from "@/components/dashboard/shell";
import { formatUtc, groupAmount } from "@/components/shared/format";
import { requireUser } from "@/lib/http/page-session";
import { accountOverview, recentPayments } from "@/lib/requests/account-overview";

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
  const [overview, recent] = await Promise.all([accountOverview(me.account.id), recentPayments(me.account.id)]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Overview</h1>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat label="Requests awaiting payment" value={overview.requests.pending + overview.requests.partiallyPaid} />
        <Stat label="Requests paid" value={overview.requests.paid} />
        <Stat label="Links pending" value={overview.links.pending} />
        <Stat label="Links completed" value={overview.links.completed} />
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Panel title="Payments, last 30 days">
          <BarChart days={overview.days} />
        </Panel>
        <Panel title="Received, by currency and network">
          {overview.totals.length === 0 ? (
            <p className="text-sm text-slate-600">No payments yet.</p>
          ) : (
            <table className="w-full text-sm">
              <thead className="text-left text-xs text-slate-500">
                <tr>
                  <th scope="col" className="pb-2 font-medium">
                    Currency
                  </th>
                  <th scope="col" className="pb-2 text-right font-medium">
                    Payments
                  </th>
                  <th scope="col" className="pb-2 text-right font-medium">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {overview.totals.map((t) => (
                  <tr key={t.currency}>
                    <td className="py-2">
                      {t.symbol} <span className="text-slate-500">on {t.network}</span>
                    </td>
                    <td className="py-2 text-right tabular-nums">{t.count}</td>
                    <td className="py-2 text-right font-medium tabular-nums">{groupAmount(t.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Panel>
      </div>
      <Panel title="Recent payments">
        {recent.length === 0 ? (
          <p className="text-sm text-slate-600">Payments appear here as soon as they are detected on chain.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {recent.map((p) => (
              <li key={p.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
                <span className="font-medium tabular-nums">
                  {groupAmount(p.amount)} {p.symbol} <span className="font-normal text-slate-500">on {p.network}</span>
                </span>
                <Link href={`/dashboard/requests/${p.requestId}`} className="text-indigo-700 underline-offset-2 hover:underline">
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
