import type { CheckoutStatus } from "@/lib/operations/checkout-schemas";

const STYLES: Record<CheckoutStatus, { label: string; className: string }> = {
  pending: { label: "Awaiting payment", className: "bg-amber-50 text-amber-800 ring-amber-600/30" },
  completed: { label: "Paid", className: "bg-emerald-50 text-emerald-800 ring-emerald-600/30" },
  expired: { label: "Expired", className: "bg-slate-100 text-slate-700 ring-slate-500/30" },
  invalidated: { label: "No longer valid", className: "bg-slate-100 text-slate-700 ring-slate-500/30" },
  compliance_failed: { label: "Not accepted", className: "bg-rose-50 text-rose-800 ring-rose-600/30" },
};

/**
 * Finer states of a pending link the page knows from its payments: partly paid, partly paid with a
 * fee that came short (the fee rule's subStatus fee_short), or everything received (awaiting settlement).
 */
const PENDING_STYLES = {
  partly_paid: { label: "Partly paid", className: "bg-sky-50 text-sky-800 ring-sky-600/30" },
  fee_short: { label: "Partly paid · fee missing", className: "bg-rose-50 text-rose-800 ring-rose-600/30" },
  received: { label: "Payment received", className: "bg-sky-50 text-sky-800 ring-sky-600/30" },
  /** Paid by authorization (lib/commerce): the money is held in escrow, not charged yet. */
  authorized: { label: "Authorized · not charged", className: "bg-sky-50 text-sky-800 ring-sky-600/30" },
} as const;

export type PendingState = keyof typeof PENDING_STYLES;

export function StatusBadge({ status, pending }: { status: CheckoutStatus; pending?: PendingState }) {
  const style = status === "pending" && pending ? PENDING_STYLES[pending] : STYLES[status];
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${style.className}`}>
      <span className="sr-only">Status: </span>
      {style.label}
    </span>
  );
}
