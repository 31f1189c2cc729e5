import { formatUtc, groupAmount } from "@/components/shared/format";
import type { DunningSummary } from "@/lib/recurring/dunning-view";

const REASONS: Record<string, string> = {
  insufficient_balance: "balance short",
  insufficient_allowance: "allowance short",
  permit_expiring: "permit expires before the due date",
  relayer_unfunded: "relayer needs gas",
};

/**
 * A schedule's dunning on the dashboard (issue 32): while past due, the attempts so far and the next
 * try; before a due date, the look-ahead's warnings; and the payer's page to send the payer to.
 */
export function ScheduleDunning({
  summary,
  pastDue,
  nextTry,
  symbol,
  payerUrl,
}: {
  summary: DunningSummary | undefined;
  pastDue: boolean;
  nextTry: string | null;
  symbol: string;
  payerUrl: string | null;
}) {
  if (!summary || (!pastDue && summary.upcoming.length === 0)) return null;
  const missing = (m: string | null, reason: string) =>
    m && reason !== "permit_expiring" ? ` (${groupAmount(m)} ${reason === "relayer_unfunded" ? "ETH" : symbol} missing)` : "";
  return (
    <div data-testid="schedule-dunning" className="mt-1 space-y-0.5 text-xs text-amber-900">
      {pastDue && summary.lastAttempt ? (
        <p className="font-medium">
          Past due: {summary.attempts} attempt{summary.attempts === 1 ? "" : "s"}, last{" "}
          {REASONS[summary.lastAttempt.reason] ?? summary.lastAttempt.reason}
          {missing(summary.lastAttempt.amountMissing, summary.lastAttempt.reason)}
          {nextTry ? ` · next try ${formatUtc(nextTry)}` : ""}
        </p>
      ) : null}
      {!pastDue
        ? summary.upcoming.map((u) => (
            <p key={u.reason}>
              Next payment ({formatUtc(u.dueDate)}) would fail: {REASONS[u.reason] ?? u.reason}
              {missing(u.amountMissing, u.reason)}
            </p>
          ))
        : null}
      {payerUrl ? (
        <p>
          <a className="underline" href={payerUrl}>
            Payer&apos;s page
          </a>{" "}
          (send it to the payer: the fix is one approval)
        </p>
      ) : null}
    </div>
  );
}
