import type { Metadata } from "next";
import { ApiKeyForm, ClientIdForm } from "@/components/dashboard/key-forms";
import { Panel } from "@/components/dashboard/shell";
import { formatUtc } from "@/components/shared/format";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { listOwnApiKeys } from "@/lib/accounts/api-keys";
import { listOwnClientIds } from "@/lib/accounts/client-ids";
import { requireUser } from "@/lib/http/page-session";
import { platformLinks } from "@/lib/orchestrators/links";
import { createClientIdAction, createKeyAction, endOrchestratorLinkAction, revokeClientIdAction, revokeKeyAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API keys and client IDs", robots: { index: false } };

const revokeButton = "rounded-md px-2 py-1 text-xs font-medium text-rose-700 ring-1 ring-inset ring-rose-200 hover:bg-rose-50";

export default async function KeysPage() {
  const me = await requireUser("/dashboard/keys");
  const [keys, clientIds] = await Promise.all([listOwnApiKeys(me.account.id), listOwnClientIds(me.account.id)]);
  const links = new Map((await platformLinks(me.account.id)).links.map((l) => [l.clientId, l]));
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">API keys and client IDs</h1>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="API keys">
          <ApiKeyForm action={createKeyAction} activeIds={keys.filter((k) => !k.revokedAt).map((k) => k.id)} />
          <ul className="mt-4 divide-y divide-slate-100 text-sm" data-testid="api-keys">
            {keys.map((k) => (
              <li key={k.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0 flex-1 break-words">
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
                    <ConfirmButton
                      title={`Revoke API key “${k.name}”?`}
                      confirmLabel="Revoke key"
                      consequence={
                        <p>
                          Every server or script using the key <span className="font-mono">{k.prefix}…</span> gets 401 from now on, and it
                          cannot be turned back on: they need a new key.
                        </p>
                      }
                    >
                      Revoke<span className="sr-only">{` API key ${k.name} ${k.prefix}`}</span>
                    </ConfirmButton>
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
                <div className="min-w-0 flex-1 break-words">
                  <span className="font-medium">{c.label}</span> <span className="font-mono text-xs text-slate-500">{c.clientId}</span>
                  <span className="block truncate text-xs text-slate-500">
                    {c.status} · {c.allowedDomains.length ? c.allowedDomains.join(", ") : "backend (no origins)"}
                  </span>
                  <OrchestratorLink link={links.get(c.clientId)} label={c.label} />
                </div>
                {c.status === "revoked" ? null : (
                  <form action={revokeClientIdAction}>
                    <input type="hidden" name="id" value={c.id} />
                    <ConfirmButton
                      title={`Revoke client ID “${c.label}”?`}
                      confirmLabel="Revoke client ID"
                      consequence={
                        <p>
                          Every call that sends <span className="break-all font-mono">{c.clientId}</span>
                          {c.allowedDomains.length ? " (your checkout pages on its origins included)" : ""} is refused with 403 from now on:
                          it can no longer create payment links or manage its webhooks. A revoked client ID cannot be turned back on.
                        </p>
                      }
                    >
                      Revoke<span className="sr-only">{` client ID ${c.label}`}</span>
                    </ConfirmButton>
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

/**
 * A client ID's orchestrator link, as its owner must see it: an orchestrator can link any client
 * ID it learns (they are public), after which this client ID alone no longer creates payment links.
 */
function OrchestratorLink({
  link,
  label,
}: {
  link: Awaited<ReturnType<typeof platformLinks>>["links"][number] | undefined;
  label: string;
}) {
  if (!link) return null;
  const who = (
    <>
      <span className="font-medium text-slate-700">{link.orchestratorName || "an orchestrator"}</span>{" "}
      <span className="font-mono">{link.orchestratorId}</span>
    </>
  );
  if (link.status !== "active")
    return (
      <span className="mt-1 block text-xs text-slate-500" data-testid="orchestrator-link">
        Link to {who} ended {link.unlinkedAt ? formatUtc(link.unlinkedAt) : ""}
      </span>
    );
  return (
    <div
      className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-900 ring-1 ring-inset ring-amber-200"
      data-testid="orchestrator-link"
    >
      <span className="min-w-0 break-words">
        Linked to {who} {link.via === "direct" ? "directly (not through your onboarding)" : "through onboarding"} since{" "}
        {formatUtc(link.linkedAt)}. Payment links of this client ID need that orchestrator&apos;s key.
      </span>
      <form action={endOrchestratorLinkAction}>
        <input type="hidden" name="clientId" value={link.clientId} />
        <button type="submit" className={revokeButton} aria-label={`End the orchestrator link of client ID ${label}`}>
          End link
        </button>
      </form>
    </div>
  );
}
