import { Panel } from "@/components/dashboard/shell";
import { Alert } from "@/components/ui/alert";
import { inputClass } from "@/components/ui/field";

/**
 * The dashboard's Export (docs/guides/exports.md): a plain GET form to /dashboard/export, which
 * checks the session and streams the file as an attachment (no API key in the browser). A refused
 * filter comes back to this page as `exportError`, shown here.
 */
const KINDS = [
  { value: "payments", label: "Payments (in and out)" },
  { value: "payouts", label: "Payouts" },
  { value: "refunds", label: "Refunds" },
  { value: "requests", label: "Requests" },
];
const FORMATS = [
  { value: "csv", label: "CSV" },
  { value: "csv-excel", label: "CSV for Excel (UTF-8 BOM)" },
  { value: "json", label: "JSON" },
  { value: "ndjson", label: "NDJSON" },
];
const REQUEST_STATUSES = [
  { value: "pending", label: "Pending" },
  { value: "partially_paid", label: "Partially paid" },
  { value: "paid", label: "Paid" },
];
const REFUND_STATUSES = [
  { value: "prepared", label: "Prepared" },
  { value: "sent", label: "Sent" },
  { value: "confirmed", label: "Confirmed" },
  { value: "cancelled", label: "Cancelled" },
];

const input = inputClass("sm");
const label = "text-xs font-medium text-slate-600";

export function ExportForm({ networks, error }: { networks: { id: string; name: string }[]; error: string | null }) {
  return (
    <Panel title="Export">
      <form method="get" action="/dashboard/export" className="grid gap-3 sm:grid-cols-4" data-testid="export-form">
        <label className={label}>
          Records
          <select name="kind" defaultValue="payments" className={input}>
            {KINDS.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        <label className={label}>
          From (UTC, inclusive)
          <input type="date" name="from" className={input} />
        </label>
        <label className={label}>
          Until (UTC, exclusive)
          <input type="date" name="to" className={input} />
        </label>
        <label className={label}>
          Format
          <select name="format" defaultValue="csv" className={input}>
            {FORMATS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <label className={label}>
          Network
          <select name="network" defaultValue="" className={input}>
            <option value="">All networks</option>
            {networks.map((n) => (
              <option key={n.id} value={n.id}>
                {n.name}
              </option>
            ))}
          </select>
        </label>
        <label className={label}>
          Currency
          <input name="currency" maxLength={64} placeholder="USD or USDC-base" className={input} />
        </label>
        <label className={label}>
          Status
          <select name="status" defaultValue="" className={input}>
            <option value="">Any status</option>
            <optgroup label="Payments, payouts, requests">
              {REQUEST_STATUSES.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </optgroup>
            <optgroup label="Refunds">
              {REFUND_STATUSES.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </optgroup>
          </select>
        </label>
        <div className="flex items-end">
          <button type="submit" className="w-full rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500">
            Download
          </button>
        </div>
      </form>
      <p className="mt-2 text-xs text-slate-500">
        One row per transfer, newest first. Column meanings and QuickBooks/Xero mappings: see the exports guide in the docs.
      </p>
      {error ? (
        <Alert as="p" role="alert" className="mt-3" data-testid="export-error">
          {error}
        </Alert>
      ) : null}
    </Panel>
  );
}
