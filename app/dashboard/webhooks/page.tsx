import type { Metadata } from "next";
import { DeliveryLog } from "@/components/dashboard/delivery-log";
import { Pager } from "@/components/dashboard/pager";
import { Panel } from "@/components/dashboard/shell";
import { TestWebhookForm, WebhookForm } from "@/components/dashboard/webhook-forms";
import { formatUtc } from "@/components/shared/format";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { listOwnClientIds } from "@/lib/accounts/client-ids";
import { requireUser } from "@/lib/http/page-session";
import { testWebhookOp } from "@/lib/operations/webhooks";
import { listDeliveryLog } from "@/lib/webhooks/delivery-log";
import { listWebhooks } from "@/lib/webhooks/endpoints";
import { deleteWebhookAction, redeliverAction, registerWebhookAction, sendTestAction, toggleWebhookAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Webhooks", robots: { index: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const small = "rounded-md px-2 py-1 text-xs font-medium ring-1 ring-inset";

export default async function WebhooksPage({ searchParams }: Props) {
  const me = await requireUser("/dashboard/webhooks");
  const raw = await searchParams;
  // One endpoint's log is paged at a time: ?log=<endpoint id>&page=N (the others show their newest).
  const pagedId = typeof raw.log === "string" ? raw.log : undefined;
  const pagedPage = Number.parseInt(typeof raw.page === "string" ? raw.page : "1", 10) || 1;
  const owner = { accountId: me.account.id, clientId: null };
  const [{ webhooks }, clientIds] = await Promise.all([listWebhooks(owner), listOwnClientIds(me.account.id)]);
  const logs = await Promise.all(webhooks.map((w) => listDeliveryLog(owner, w.id, w.id === pagedId ? pagedPage : 1)));
  const labelOf = new Map(clientIds.map((c) => [c.id, c.label]));
  const eventTypes = (testWebhookOp.body!.shape.eventType as unknown as { options: string[] }).options;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Webhooks</h1>
      <Panel title="Register a webhook">
        <WebhookForm
          action={registerWebhookAction}
          clientIds={clientIds.filter((c) => c.status === "active").map((c) => ({ id: c.id, label: `${c.label} (${c.clientId})` }))}
        />
        <p className="mt-3 text-xs text-slate-500">
          Deliveries are signed with HMAC-SHA256 in <span className="font-mono">x-duebill-signature</span>; failed ones are retried with
          backoff. Each endpoint's log shows every attempt's request and response, with signatures and secret-like values masked.
        </p>
      </Panel>
      {webhooks.length === 0 ? (
        <Panel title="Endpoints">
          <p className="text-sm text-slate-600">No webhooks yet.</p>
        </Panel>
      ) : (
        webhooks.map((w, i) => {
          const log = logs[i]!;
          return (
            <Panel
              key={w.id}
              title={w.url}
              action={
                <div className="flex shrink-0 gap-2">
                  <form action={toggleWebhookAction}>
                    <input type="hidden" name="id" value={w.id} />
                    <button
                      type="submit"
                      className={`${small} text-slate-700 ring-slate-300 hover:bg-slate-50`}
                      aria-label={`${w.active ? "Disable" : "Enable"} ${w.url}`}
                    >
                      {w.active ? "Disable" : "Enable"}
                    </button>
                  </form>
                  <form action={deleteWebhookAction}>
                    <input type="hidden" name="id" value={w.id} />
                    <ConfirmButton
                      title={`Delete the webhook ${w.url}?`}
                      consequence={
                        <p className="[overflow-wrap:anywhere]">
                          Events stop going to {w.url} at once: deliveries still waiting for a retry are dropped and this endpoint's
                          delivery log is deleted. Registering the URL again issues a new signing secret.
                        </p>
                      }
                      confirmLabel="Delete webhook"
                    >
                      Delete
                    </ConfirmButton>
                  </form>
                </div>
              }
            >
              <p className="mb-3 text-xs text-slate-500" data-testid="webhook-state">
                {w.active ? "Active" : "Disabled"} · {w.clientId ? (labelOf.get(w.clientId) ?? w.clientId) : "account"} · since{" "}
                {formatUtc(w.createdAt)}
              </p>
              <div className="mb-4 border-b border-slate-100 pb-4">
                <TestWebhookForm action={sendTestAction} endpointId={w.id} url={w.url} eventTypes={eventTypes} disabled={!w.active} />
              </div>
              <h3 className="mb-1 text-sm font-semibold text-slate-900">
                Delivery log{log.total > 0 ? ` · ${log.total} deliver${log.total === 1 ? "y" : "ies"}` : ""}
              </h3>
              <DeliveryLog
                deliveries={log.deliveries.map((d) => ({ ...d, endpointId: w.id }))}
                redeliver={redeliverAction}
                endpointUrl={w.url}
              />
              <Pager
                page={log.page}
                pageCount={log.pageCount}
                href={(p) => `/dashboard/webhooks?log=${encodeURIComponent(w.id)}&page=${p}`}
                label={`Delivery log pages of ${w.url}`}
              />
            </Panel>
          );
        })
      )}
    </div>
  );
}
