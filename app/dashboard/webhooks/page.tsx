import type { Metadata } from "next";
import { DeliveryLog } from "@/components/dashboard/delivery-log";
import { Panel } from "@/components/dashboard/shell";
import { TestWebhookForm, WebhookForm } from "@/components/dashboard/webhook-forms";
import { formatUtc } from "@/components/shared/format";
import { listOwnClientIds } from "@/lib/accounts/client-ids";
import { requireUser } from "@/lib/http/page-session";
import { testWebhookOp } from "@/lib/operations/webhooks";
import { listWebhooks } from "@/lib/webhooks/endpoints";
import { listDeliveries } from "@/lib/webhooks/manage-deliveries";
import { deleteWebhookAction, redeliverAction, registerWebhookAction, sendTestAction, toggleWebhookAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Webhooks", robots: { index: false } };

const small = "rounded-md px-2 py-1 text-xs font-medium ring-1 ring-inset";

export default async function WebhooksPage() {
  const me = await requireUser("/dashboard/webhooks");
  const owner = { accountId: me.account.id, clientId: null };
  const [{ webhooks }, clientIds] = await Promise.all([listWebhooks(owner), listOwnClientIds(me.account.id)]);
  const logs = await Promise.all(webhooks.map((w) => listDeliveries(owner, w.id, 20)));
  const labelOf = new Map(clientIds.map((c) => [c.id, c.label]));
  const eventTypes = (testWebhookOp.body!.shape.eventType as unknown as { options: string[] }).options;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Webhooks</h1>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Register a webhook">
          <WebhookForm
            action={registerWebhookAction}
            clientIds={clientIds.filter((c) => c.status === "active").map((c) => ({ id: c.id, label: `${c.label} (${c.clientId})` }))}
          />
        </Panel>
        <Panel title="Send a test event">
          <TestWebhookForm action={sendTestAction} eventTypes={eventTypes} />
          <p className="mt-3 text-xs text-slate-500">
            Deliveries are signed with HMAC-SHA256 in <span className="font-mono">x-duebill-signature</span>; failed ones are retried with
            backoff and logged below.
          </p>
        </Panel>
      </div>
      {webhooks.length === 0 ? (
        <Panel title="Endpoints">
          <p className="text-sm text-slate-600">No webhooks yet.</p>
        </Panel>
      ) : (
        webhooks.map((w, i) => (
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
                  <button type="submit" className={`${small} text-rose-700 ring-rose-200 hover:bg-rose-50`} aria-label={`Delete ${w.url}`}>
                    Delete
                  </button>
                </form>
              </div>
            }
          >
            <p className="mb-2 text-xs text-slate-500" data-testid="webhook-state">
              {w.active ? "Active" : "Disabled"} · {w.clientId ? (labelOf.get(w.clientId) ?? w.clientId) : "account"} · since{" "}
              {formatUtc(w.createdAt)}
            </p>
            <DeliveryLog deliveries={logs[i]!.deliveries.map((d) => ({ ...d, endpointId: w.id }))} redeliver={redeliverAction} />
          </Panel>
        ))
      )}
    </div>
  );
}
