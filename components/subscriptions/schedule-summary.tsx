import { formatUtc, groupAmount } from "@/components/shared/format";
import type { PayerSchedulePage } from "@/lib/recurring/payer-page";

const STATUS: Record<string, { label: string; tone: string }> = {
  active: { label: "Active", tone: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
  past_due: { label: "Payment overdue", tone: "bg-amber-50 text-amber-900 ring-amber-200" },
  paused: { label: "Paused", tone: "bg-amber-50 text-amber-900 ring-amber-200" },
  pending: { label: "Not started", tone: "bg-slate-100 text-slate-700 ring-slate-200" },
  completed: { label: "Completed", tone: "bg-slate-100 text-slate-700 ring-slate-200" },
  cancelled: { label: "Cancelled", tone: "bg-slate-100 text-slate-700 ring-slate-200" },
};

const WHAT: Record<string, string> = {
  insufficient_balance: "Your balance is short by",
  insufficient_allowance: "Your allowance to the subscription contract is short by",
};

/** The schedule as the payer sees it: who, how much, how often, the next date, and what is missing. */
export function ScheduleSummary({ data }: { data: PayerSchedulePage }) {
  const status = STATUS[data.status] ?? STATUS.active!;
  return (
    <section aria-labelledby="schedule-heading" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="text-sm text-slate-600">{data.merchant}</p>
          <h1 id="schedule-heading" className="text-2xl font-semibold tracking-tight text-slate-900">
            {groupAmount(data.amount)} {data.symbol}{" "}
            <span className="text-base font-normal text-slate-600">{data.frequency.toLowerCase()}</span>
          </h1>
        </div>
        <span data-testid="schedule-status" className={`rounded-full px-2.5 py-1 text-xs font-medium ring-1 ring-inset ${status.tone}`}>
          {status.label}
        </span>
      </div>
      <dl className="mt-4 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
        <dt className="text-slate-500">Next payment</dt>
        <dd data-testid="next-due" className="text-slate-900">
          {data.nextDueDate ? `${groupAmount(data.amount)} ${data.symbol} on ${formatUtc(data.nextDueDate)}` : "None"}
        </dd>
        {data.retryDate ? (
          <>
            <dt className="text-slate-500">Next try</dt>
            <dd className="text-slate-900">{formatUtc(data.retryDate)}</dd>
          </>
        ) : null}
        <dt className="text-slate-500">Paid so far</dt>
        <dd className="text-slate-900">
          {data.processedPayments} of {data.totalPayments} payments
        </dd>
        <dt className="text-slate-500">From</dt>
        <dd className="break-all font-mono text-xs text-slate-900">{data.payer}</dd>
        {data.permit ? (
          <>
            <dt className="text-slate-500">Authorized until</dt>
            <dd data-testid="permit-until" className="text-slate-900">
              {formatUtc(data.permit.until)}
            </dd>
          </>
        ) : null}
        <dt className="text-slate-500">Network</dt>
        <dd className="text-slate-900">{data.network.name}</dd>
      </dl>
      {data.permit?.renew ? (
        <p
          role="alert"
          data-testid="permit-expiring"
          className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200"
        >
          Your authorization for this subscription ends on {formatUtc(data.permit.until)}, before the schedule is done. Renew it with one
          signature (no transaction, no gas) so the remaining payments can be taken.
        </p>
      ) : null}
      {data.missing.length > 0 ? (
        <div
          role="alert"
          data-testid="missing"
          className="mt-4 space-y-1 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200"
        >
          <p className="font-medium">The next payment would not go through:</p>
          <ul className="list-disc pl-5">
            {data.missing.map((m) => (
              <li key={m.reason}>
                {WHAT[m.reason]} {groupAmount(m.amount)} {data.symbol}.
                {m.reason === "insufficient_balance" ? ` Add at least that much ${data.symbol} to this wallet before the due date.` : ""}
              </li>
            ))}
          </ul>
        </div>
      ) : data.nextDueDate ? (
        <p data-testid="all-set" className="mt-4 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900 ring-1 ring-inset ring-emerald-200">
          {data.permit?.renew
            ? "Your balance and allowance cover the next payment."
            : "All set: your balance and allowance cover the next payment."}
        </p>
      ) : null}
    </section>
  );
}
