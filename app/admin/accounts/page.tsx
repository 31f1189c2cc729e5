import type { Metadata } from "next";
import Link from "next/link";
import { Panel } from "@/components/dashboard/shell";
import { formatUtc } from "@/components/shared/format";
import { requireAdmin } from "@/lib/admin/access";
import { listAccounts } from "@/lib/admin/accounts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Accounts", robots: { index: false } };

export default async function AccountsPage() {
  await requireAdmin("/admin/accounts");
  const accounts = await listAccounts();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Accounts</h1>
      <Panel title={`${accounts.length} account${accounts.length === 1 ? "" : "s"}`}>
        <ul className="divide-y divide-slate-100 text-sm" data-testid="accounts">
          {accounts.map((a) => (
            <li key={a.id} className="grid gap-1 py-2 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center">
              <span className="min-w-0">
                <Link href={`/admin/accounts/${a.id}`} className="font-medium text-indigo-700 underline-offset-2 hover:underline">
                  {a.name}
                </Link>
                <span className="block truncate text-xs text-slate-500">
                  {a.id} · {a.users.map((u) => u.email ?? u.walletAddress).join(", ") || "no users"}
                </span>
              </span>
              <span className="text-xs text-slate-500">
                {a._count.apiKeys} API keys · {a._count.clientIds} client IDs · {a._count.orchestratorKeys} orchestrator keys ·{" "}
                {a._count.requests} requests · since {formatUtc(a.createdAt.toISOString())}
              </span>
            </li>
          ))}
        </ul>
      </Panel>
    </div>
  );
}
