import type { ReactNode } from "react";
import { formatRelative, formatUtc, groupAmount } from "@/components/shared/format";
import { CopyButton } from "@/components/ui/copy-button";
import { StatusBadge } from "@/components/ui/status-badge";
import type { AccountLink } from "@/lib/secure-payments/account-links";

const PILL = "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset";

/** The link as its merchant names it: amount and currency (or the multicall's size), and its reference. */
export function linkTitle(l: AccountLink): string {
  const amount =
    l.paymentType === "multicall"
      ? `Multicall of ${l.multicallPayouts} payouts`
      : l.first
        ? `${groupAmount(l.first.amount)} ${l.first.paymentCurrency.split("-")[0]}`
        : l.token;
  return `${amount}${l.requestCount > 1 ? ` + ${l.requestCount - 1} more` : ""}`;
}

function Status({ l }: { l: AccountLink }) {
  if (l.cancelledAt) return <span className={`${PILL} bg-slate-100 text-slate-700 ring-slate-500/30`}>Cancelled</span>;
  if (l.feeShort) return <StatusBadge status={l.status} pending="fee_short" />;
  if (l.status === "pending" && l.submittedTxHash)
    return (
      <span
        className={`${PILL} bg-sky-50 text-sky-800 ring-sky-200`}
        title={`Transaction ${l.submittedTxHash} sent by the payer; waiting for its confirmation`}
      >
        Processing
      </span>
    );
  return <StatusBadge status={l.status} />;
}

/** When the link stops (or stopped) taking payments: relative, then the exact UTC time. */
function Expiry({ l, now }: { l: AccountLink; now: number }) {
  const when = (d: Date) => (
    <>
      {formatRelative(d.toISOString(), now)} · <time dateTime={d.toISOString()}>{formatUtc(d.toISOString())}</time>
    </>
  );
  let text: ReactNode;
  if (l.cancelledAt) text = <>Cancelled {when(l.cancelledAt)}</>;
  else if (l.status === "completed") text = l.completedAt ? <>Paid {when(l.completedAt)}</> : "Paid";
  else if (l.status === "expired") text = <span className="font-medium text-rose-700">Expired {when(l.expiresAt)}</span>;
  else if (l.status === "pending" && l.expiresAt.getTime() > now) text = <>Expires {when(l.expiresAt)}</>;
  else if (l.status === "pending") text = "Paid, being confirmed";
  else text = null;
  return text ? (
    <span className="block text-xs text-slate-500" data-testid="link-expiry">
      {text}
    </span>
  ) : null;
}

/** One row of the links list: what it is, its state and expiry, and what can be done with it. */
export function LinkRow({ l, now, actions }: { l: AccountLink; now: number; actions?: ReactNode }) {
  const note = [l.direction === "outgoing" ? "Payout" : null, l.reference, l.description].filter(Boolean).join(" · ");
  return (
    <li className="grid gap-2 py-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:gap-4" data-testid="link-row">
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <a href={`/pay/${l.token}`} className="font-semibold text-indigo-700 tabular-nums underline-offset-2 hover:underline">
            {linkTitle(l)}
          </a>
          <Status l={l} />
        </div>
        {note ? <span className="block truncate text-sm text-slate-700">{note}</span> : null}
        <span className="block text-xs text-slate-500">Created {formatUtc(l.createdAt.toISOString())}</span>
        <Expiry l={l} now={now} />
      </div>
      <div className="flex flex-wrap items-center gap-2 sm:justify-end">
        <CopyButton text={l.url} label="Copy link" name={`Copy link: ${linkTitle(l)}`} size="xs" />
        {actions}
      </div>
    </li>
  );
}
