import type { Metadata } from "next";
import { RecurringButtons } from "@/components/dashboard/recurring-buttons";
import { ScheduleDunning } from "@/components/dashboard/schedule-dunning";
import { Panel } from "@/components/dashboard/shell";
import { formatUtc, groupAmount, shortenAddress } from "@/components/shared/format";
import { tokenOf } from "@/lib/chain/stored";
import { requireUser } from "@/lib/http/page-session";
import { formatAmount } from "@/lib/money";
import { listAccountSchedules, scheduleActions } from "@/lib/recurring/account-schedules";
import { apiStatus, dunningSummaries } from "@/lib/recurring/dunning-view";
import { payerPageUrl } from "@/lib/recurring/upcoming-event";
import { manageRecurringAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Recurring payouts", robots: { index: false } };

const LOW_FUNDS = new Set(["insufficient_balance", "insufficient_allowance"]);

export default async function RecurringPage() {
  const me = await requireUser("/dashboard/recurring");
  const schedules = await listAccountSchedules(me.account.id);
  const dunning = await dunningSummaries(schedules);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Recurring payouts</h1>
      <Panel title={`${schedules.length} schedule${schedules.length === 1 ? "" : "s"}`}>
        {schedules.length === 0 ? (
          <p className="text-sm text-slate-600">
            None yet. Create one with <span className="font-mono">POST /v2/payouts</span> and a{" "}
            <span className="font-mono">recurrence</span>; the payer signs once and each payment is triggered on its due date.
          </p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm" data-testid="schedules">
            {schedules.map((s) => {
              const token = tokenOf(s);
              const next = s.nextDueAt && (s.status === "active" || s.status === "paused") ? formatUtc(s.nextDueAt.toISOString()) : null;
              return (
                <li key={s.id} className="grid gap-2 py-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center" data-testid="schedule">
                  <div className="min-w-0">
                    <p className="font-medium">
                      {groupAmount(formatAmount(BigInt(s.amount.toFixed()), token.decimals))} {token.symbol} {s.frequency.toLowerCase()}
                      <span className="ml-2 text-xs font-normal text-slate-500">on {s.network}</span>
                      <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
                        {apiStatus(s).replace("_", " ")}
                      </span>
                    </p>
                    <p className="text-xs text-slate-500">
                      {s.processedPayments} of {s.totalPayments} paid
                      {next ? ` · next ${next}` : ""} · payer <span title={s.payer}>{shortenAddress(s.payer)}</span> → payee{" "}
                      <span title={s.payee}>{shortenAddress(s.payee)}</span>
                    </p>
                    <ScheduleDunning
                      summary={dunning.get(s.id)}
                      pastDue={apiStatus(s) === "past_due"}
                      nextTry={apiStatus(s) === "past_due" ? (s.nextDueAt?.toISOString() ?? null) : null}
                      symbol={token.symbol}
                      payerUrl={s.payerToken && (s.status === "active" || s.status === "paused") ? payerPageUrl(s.payerToken) : null}
                    />
                    {s.failureReason && apiStatus(s) !== "past_due" ? (
                      <p
                        role={LOW_FUNDS.has(s.failureCode ?? "") ? "alert" : undefined}
                        className={`mt-1 text-xs ${LOW_FUNDS.has(s.failureCode ?? "") ? "font-medium text-amber-800" : "text-slate-600"}`}
                      >
                        {LOW_FUNDS.has(s.failureCode ?? "") ? "Low balance: " : ""}
                        {s.failureReason}
                      </p>
                    ) : null}
                  </div>
                  <RecurringButtons
                    id={s.id}
                    actions={scheduleActions(s.status, s.failureCode)}
                    action={manageRecurringAction}
                    summary={`${groupAmount(formatAmount(BigInt(s.amount.toFixed()), token.decimals))} ${token.symbol} ${s.frequency.toLowerCase()} to ${shortenAddress(s.payee)}`}
                    remaining={Math.max(0, s.totalPayments - s.processedPayments)}
                  />
                </li>
              );
            })}
          </ul>
        )}
      </Panel>
    </div>
  );
}
