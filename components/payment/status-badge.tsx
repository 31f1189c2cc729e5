import type { SecurePaymentStatus } from "@/lib/secure-payments/page-types";

const STYLES: Record<SecurePaymentStatus, { label: string; className: string }> = {
  pending: { label: "Awaiting payment", className: "bg-amber-50 text-amber-800 ring-amber-600/30" },
  completed: { label: "Paid", className: "bg-emerald-50 text-emerald-800 ring-emerald-600/30" },
  expired: { label: "Expired", className: "bg-slate-100 text-slate-700 ring-slate-500/30" },
  invalidated: { label: "No longer valid", className: "bg-slate-100 text-slate-700 ring-slate-500/30" },
  compliance_failed: { label: "Not accepted", className: "bg-rose-50 text-rose-800 ring-rose-600/30" },
};

/** A pending link whose payment came without its whole fee reads "Fee missing" (subStatus fee_short). */
const FEE_SHORT = { label: "Partly paid · fee missing", className: "bg-rose-50 text-rose-800 ring-rose-600/30" };

export function StatusBadge({ status, subStatus = null }: { status: SecurePaymentStatus; subStatus?: "fee_short" | null }) {
  const style = status === "pending" && subStatus === "fee_short" ? FEE_SHORT : STYLES[status];
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${style.className}`}>
      <span className="sr-only">Status: </span>
      {style.label}
    </span>
  );
}
