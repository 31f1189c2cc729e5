import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AdminBrandForm, AdminFeeForm } from "@/components/admin/account-settings-forms";
import { IssueKeyForm } from "@/components/admin/issue-key-form";
import { VolumeList } from "@/components/admin/volume-list";
import { Panel } from "@/components/dashboard/shell";
import { formatUtc } from "@/components/shared/format";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { RATE_TIERS } from "@/lib/accounts/issue-credentials";
import { requireAdmin } from "@/lib/admin/access";
import { incomingVolume } from "@/lib/admin/account-search";
import { accountForAdmin } from "@/lib/admin/accounts";
import { AppError } from "@/lib/errors";
import {
  issueOrchestratorKeyAction,
  revokeApiKeyAdminAction,
  revokeOrchestratorKeyAction,
  revokeUserSessionsAction,
  setClientIdStatusAction,
  setTierAction,
} from "../../actions";
import { clearAccountFeeAction, setAccountBrandAction, setAccountFeeAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Account", robots: { index: false } };

const small = "rounded-md px-2 py-1 text-xs font-medium ring-1 ring-inset";
const danger = `${small} text-rose-700 ring-rose-200 hover:bg-rose-50`;
const plain = `${small} text-slate-700 ring-slate-300 hover:bg-slate-50`;

function Hidden({ name, value }: { name: string; value: string }) {
  return <input type="hidden" name={name} value={value} />;
}

function TierForm({ id, tier }: { id: string; tier: string }) {
  return (
    <form action={setTierAction} className="flex items-center gap-1">
      <Hidden name="id" value={id} />
      <select
        name="tier"
        defaultValue={tier}
        aria-label={`Rate tier of ${id}`}
        className="rounded-md border-0 py-0.5 pl-1.5 text-xs ring-1 ring-inset ring-slate-300"
      >
        {RATE_TIERS.map((t) => (
          <option key={t}>{t}</option>
        ))}
      </select>
      <button type="submit" className={plain}>
        Set tier
      </button>
    </form>
  );
}

export default async function AdminAccountPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireAdmin(`/admin/accounts/${encodeURIComponent(id)}`);
  let a: Awaited<ReturnType<typeof accountForAdmin>>;
  try {
    a = await accountForAdmin(id);
  } catch (err) {
    if (err instanceof AppError && err.code === "not_found") notFound();
    throw err;
  }
  const volume = (await incomingVolume([a.id])).get(a.id) ?? [];
  return (
    <div className="space-y-6">
      <nav className="text-sm">
        <Link href="/admin/accounts" className="font-medium text-indigo-700">
          ← Accounts
        </Link>
      </nav>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
        {a.name} <span className="align-middle font-mono text-sm font-normal text-slate-500">{a.id}</span>
      </h1>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Incoming volume">
          <VolumeList lines={volume} />
          <p className="mt-2 text-xs text-slate-500">
            Payments received on the account&apos;s requests and payment links (as payee); payouts it sent and fees are not counted.
          </p>
        </Panel>
        <Panel title="Branding">
          <div className="mb-3 flex min-w-0 items-center gap-3 text-sm" data-testid="brand-summary">
            {a.logoUrl ? (
              // biome-ignore lint/performance/noImgElement: an operator-set https logo of any host, shown as the pay page shows it
              <img src={a.logoUrl} alt="" className="size-8 shrink-0 rounded object-contain ring-1 ring-slate-200" />
            ) : null}
            <span className="min-w-0 break-words">
              Payers see <strong>{a.name}</strong>
              {a.logoUrl ? "" : " (no logo)"}
            </span>
          </div>
          <AdminBrandForm accountId={a.id} current={{ name: a.name, logoUrl: a.logoUrl }} action={setAccountBrandAction} />
        </Panel>
        <Panel title="Fees">
          <ul className="mb-4 divide-y divide-slate-100 text-sm" data-testid="admin-fees">
            {a.feeConfigs.length === 0 ? <li className="py-2 text-slate-600">No fee: links carry none.</li> : null}
            {a.feeConfigs.map((f) => (
              <li key={f.id} className="flex flex-wrap items-start justify-between gap-2 py-2" data-testid="admin-fee">
                <span className="min-w-0 break-words">
                  <span className="font-medium">{f.flow === "get_paid" ? "Get paid" : "Pay"}:</span> {f.percentageBps / 100}%
                  {f.capUsd ? `, capped at $${f.capUsd.toString()}` : ""} · paid by the {f.feeBearer} · “{f.label}”
                  <span className="block font-mono text-xs text-slate-500 [overflow-wrap:anywhere]">
                    {[f.evmAddress, f.tronAddress].filter(Boolean).join(" · ")}
                  </span>
                </span>
                <form action={clearAccountFeeAction}>
                  <Hidden name="accountId" value={a.id} />
                  <Hidden name="flow" value={f.flow} />
                  <ConfirmButton
                    title={`Remove the ${f.flow === "get_paid" ? "get-paid" : "pay"} fee?`}
                    consequence={`Links created from now on carry no ${f.percentageBps / 100}% fee; existing ones keep theirs.`}
                  >
                    Remove
                  </ConfirmButton>
                </form>
              </li>
            ))}
          </ul>
          <AdminFeeForm accountId={a.id} action={setAccountFeeAction} />
        </Panel>
        <Panel title="Orchestrator keys">
          <IssueKeyForm accountId={a.id} action={issueOrchestratorKeyAction} />
          <ul className="mt-4 divide-y divide-slate-100 text-sm" data-testid="orchestrator-keys">
            {a.orchestratorKeys.length === 0 ? <li className="py-2 text-slate-600">None.</li> : null}
            {a.orchestratorKeys.map((k) => (
              <li key={k.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-48 flex-1 break-words">
                  <span className="font-medium">{k.name}</span> <span className="font-mono text-xs text-slate-500">{k.prefix}…</span>
                  <span className="block text-xs text-slate-500">
                    {k.revokedAt
                      ? `revoked ${formatUtc(k.revokedAt.toISOString())}`
                      : `issued ${formatUtc(k.createdAt.toISOString())} · ${k.rateTier}`}
                  </span>
                </span>
                {k.revokedAt ? null : (
                  <span className="flex flex-wrap gap-2">
                    <TierForm id={k.id} tier={k.rateTier} />
                    <form action={revokeOrchestratorKeyAction}>
                      <Hidden name="id" value={k.id} />
                      <ConfirmButton
                        title={`Revoke orchestrator key “${k.name}”?`}
                        confirmLabel="Revoke key"
                        consequence={
                          <p>
                            Integrations using ‘{k.name}’ (<span className="font-mono">{k.prefix}…</span>) get 401 from now on: they can no
                            longer manage linked client IDs, fees, branding or webhooks. A revoked key cannot be turned back on.
                          </p>
                        }
                      >
                        Revoke<span className="sr-only">{` orchestrator key ${k.name} ${k.prefix}`}</span>
                      </ConfirmButton>
                    </form>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </Panel>
        <Panel title="Client IDs">
          <ul className="divide-y divide-slate-100 text-sm" data-testid="admin-client-ids">
            {a.clientIds.length === 0 ? <li className="py-2 text-slate-600">None.</li> : null}
            {a.clientIds.map((c) => (
              <li key={c.id} className="space-y-1 py-2" data-testid="admin-client-id">
                <span className="block break-words">
                  <span className="font-medium">{c.name}</span> <span className="font-mono text-xs text-slate-500">{c.id}</span>
                  <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium" data-testid="client-id-status">
                    {c.status}
                  </span>
                </span>
                <span className="block truncate text-xs text-slate-500">{c.allowedDomains.join(", ") || "backend (no origins)"}</span>
                {c.status === "revoked" ? null : (
                  <span className="flex flex-wrap items-center gap-2">
                    <TierForm id={c.id} tier={c.rateTier} />
                    <form action={setClientIdStatusAction} className="flex gap-2">
                      <Hidden name="id" value={c.id} />
                      {c.status === "restricted" ? (
                        <button type="submit" name="op" value="activate" className={plain}>
                          Activate
                        </button>
                      ) : (
                        <button type="submit" name="op" value="restrict" className={plain} aria-label={`Restrict ${c.name}`}>
                          Restrict
                        </button>
                      )}
                      <ConfirmButton
                        name="op"
                        value="revoke"
                        title={`Revoke client ID “${c.name}”?`}
                        confirmLabel="Revoke client ID"
                        consequence={
                          <p>
                            Every call that sends <span className="break-all font-mono">{c.id}</span>
                            {c.allowedDomains.length ? " (checkout pages on its origins included)" : ""} is refused with 403 from now on: it
                            can no longer create payment links or manage its webhooks. A revoked client ID cannot be turned back on.
                          </p>
                        }
                      >
                        Revoke<span className="sr-only">{` client ID ${c.name}`}</span>
                      </ConfirmButton>
                    </form>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </Panel>
        <Panel title="API keys">
          <ul className="divide-y divide-slate-100 text-sm">
            {a.apiKeys.length === 0 ? <li className="py-2 text-slate-600">None.</li> : null}
            {a.apiKeys.map((k) => (
              <li key={k.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-48 flex-1 break-words">
                  <span className="font-medium">{k.name}</span> <span className="font-mono text-xs text-slate-500">{k.prefix}…</span>
                  <span className="block text-xs text-slate-500">
                    {k.revokedAt
                      ? `revoked ${formatUtc(k.revokedAt.toISOString())}`
                      : `${k.rateTier} · since ${formatUtc(k.createdAt.toISOString())}`}
                  </span>
                </span>
                {k.revokedAt ? null : (
                  <span className="flex flex-wrap gap-2">
                    <TierForm id={k.id} tier={k.rateTier} />
                    <form action={revokeApiKeyAdminAction}>
                      <Hidden name="id" value={k.id} />
                      <ConfirmButton
                        title={`Revoke API key “${k.name}”?`}
                        confirmLabel="Revoke key"
                        consequence={
                          <p>
                            Integrations using ‘{k.name}’ (<span className="font-mono">{k.prefix}…</span>) get 401 from now on, and the key
                            cannot be turned back on: the merchant needs a new one.
                          </p>
                        }
                      >
                        Revoke<span className="sr-only">{` API key ${k.name} ${k.prefix}`}</span>
                      </ConfirmButton>
                    </form>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </Panel>
        <Panel title="Users">
          <ul className="divide-y divide-slate-100 text-sm">
            {a.users.map((u) => (
              <li key={u.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0 break-all">
                  {u.email ?? u.walletAddress}
                  {u.isAdmin ? <span className="ml-2 text-xs font-medium text-indigo-700">operator</span> : null}
                  <span className="block text-xs text-slate-500">
                    {u._count.sessions} live session{u._count.sessions === 1 ? "" : "s"}
                    {u.lockedUntil && u.lockedUntil > new Date() ? ` · locked until ${formatUtc(u.lockedUntil.toISOString())}` : ""}
                  </span>
                </span>
                <form action={revokeUserSessionsAction}>
                  <Hidden name="userId" value={u.id} />
                  <button type="submit" className={danger} disabled={u._count.sessions === 0}>
                    Sign out everywhere
                  </button>
                </form>
              </li>
            ))}
          </ul>
        </Panel>
      </div>
    </div>
  );
}
