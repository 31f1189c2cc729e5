import { formatUtc } from "@/components/shared/format";
import type { listAdminActions } from "@/lib/admin/audit";

/** Operator actions, newest first: when, what, on what, by whom. */
export function AuditList({ entries }: { entries: Awaited<ReturnType<typeof listAdminActions>> }) {
  if (entries.length === 0) return <p className="text-sm text-slate-600">No operator action yet.</p>;
  return (
    <ul className="divide-y divide-slate-100 text-sm" data-testid="audit">
      {entries.map((e) => (
        <li key={e.id} className="grid gap-1 py-2 sm:grid-cols-[12rem_minmax(0,1fr)]">
          <span className="text-slate-500">{formatUtc(e.createdAt)}</span>
          <span className="min-w-0 break-words">
            <span className="font-medium">{e.action}</span> on <span className="font-mono text-xs">{e.target}</span>
            <span className="block text-xs text-slate-500">by {e.actor}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
