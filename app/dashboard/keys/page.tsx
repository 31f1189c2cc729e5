import type { Metadata } from "next";
import { ApiKeyForm, ClientIdForm } from "@/components/dashboard/key-forms";
import { Panel } from "@/components/dashboard/shell";
import { formatUtc } from "@/components/payment/format";
import { listOwnClientIds } from "@/lib/accounts/client-ids";
import { db } from "@/lib/db";
import { requireUser } from "@/lib/http/page-session";
import { createClientIdAction, createKeyAction, revokeClientIdAction, revokeKeyAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API keys and client IDs", robots: { index: false } };

const revokeButton = "rounded-md px-2 py-1 text-xs font-medium text-rose-700 ring-1 ring-inset ring-rose-200 hover:bg-rose-50";

export default async function KeysPage() {
  const me = await requireUser("/dashboard/keys");
  const [keys, clientIds] = await Promise.all([
    db().apiKey.findMany({
      where: { accountId: me.account.id },
      orderBy: { createdAt: "desc" },
      select: { id: true, name: true, prefix: true, rateTier: true, createdAt: true, revokedAt: true },
    }),
    listOwnClientIds(me.account.id),
  ]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">API keys and client IDs</h1>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="API keys">
          <ApiKeyForm action={createKeyAction} />
          <ul className="mt-4 divide-y divide-slate-100 text-sm" data-testid="api-keys">
            {keys.map((k) => (
              <li key={k.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0">
                  <span className="font-medium">{k.name}</span> <span className="font-mono text-xs text-slate-500">{k.prefix}…</span>
                  <span className="block text-xs text-slate-500">
                    {k.revokedAt
                      ? `revoked ${formatUtc(k.revokedAt.toISOString())}`
                      : `created ${formatUtc(k.createdAt.toISOString())} · ${k.rateTier}`}
                  </span>
                </span>
                {k.revokedAt ? null : (
                  <form action={revokeKeyAction}>
                    <input type="hidden" name="id" value={k.id} />
                    <button type="submit" className={revokeButton} aria-label={`Revoke API key ${k.name} ${k.prefix}`}>
                      Revoke
                    </button>
                  </form>
                )}
              </li>
            ))}
          </ul>
        </Panel>
        <Panel title="Client IDs">
          <ClientIdForm action={createClientIdAction} />
          <ul className="mt-4 divide-y divide-slate-100 text-sm" data-testid="client-ids">
            {clientIds.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0">
                  <span className="font-medium">{c.label}</span> <span className="font-mono text-xs text-slate-500">{c.clientId}</span>
                  <span className="block truncate text-xs text-slate-500">
                    {c.status} · {c.allowedDomains.length ? c.allowedDomains.join(", ") : "backend (no origins)"}
                  </span>
                </span>
                {c.status === "revoked" ? null : (
                  <form action={revokeClientIdAction}>
                    <input type="hidden" name="id" value={c.id} />
                    <button type="submit" className={revokeButton} aria-label={`Revoke client ID ${c.label}`}>
                      Revoke
                    </button>
                  </form>
                )}
              </li>
            ))}
          </ul>
        </Panel>
      </div>
    </div>
  );
}
