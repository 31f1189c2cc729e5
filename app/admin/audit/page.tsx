import type { Metadata } from "next";
import { AuditList } from "@/components/admin/audit-list";
import { Panel } from "@/components/dashboard/shell";
import { requireAdmin } from "@/lib/admin/access";
import { listAdminActions } from "@/lib/admin/audit";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Audit log", robots: { index: false } };

export default async function AuditPage() {
  await requireAdmin("/admin/audit");
  const entries = await listAdminActions(500);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Audit log</h1>
      <Panel title={`Last ${entries.length} operator actions`}>
        <AuditList entries={entries} />
      </Panel>
    </div>
  );
}
