import { AttemptExchange, type AttemptExchangeView } from "@/components/dashboard/attempt-exchange";
import { formatUtc } from "@/components/shared/format";

export interface DeliveryView {
  id: string;
  endpointId: string;
  url?: string;
  eventType: string;
  isTest: boolean;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  /** The exact body sent on every attempt: given, each attempt shows its request and response. */
  requestBody?: string;
  attemptLog: ({
    attempt: number;
    startedAt: string;
    latencyMs: number | null;
    statusCode: number | null;
    error: string | null;
  } & AttemptExchangeView)[];
}

const TONE: Record<string, string> = {
  succeeded: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  pending: "bg-amber-50 text-amber-800 ring-amber-200",
  failed: "bg-rose-50 text-rose-800 ring-rose-200",
};

/**
 * Webhook deliveries with every attempt (time, HTTP status or error, latency; with the request
 * and response bodies when the caller has them) and a "Send again" button that redelivers under
 * the same delivery ID (the API's redeliver).
 */
export function DeliveryLog({
  deliveries,
  redeliver,
  endpointUrl,
}: {
  deliveries: DeliveryView[];
  redeliver: (form: FormData) => Promise<void>;
  /** The endpoint all these deliveries went to (the webhooks page's panel), when not named per delivery. */
  endpointUrl?: string;
}) {
  if (deliveries.length === 0) return <p className="text-sm text-slate-600">No deliveries yet.</p>;
  return (
    <ul className="divide-y divide-slate-100 text-sm" data-testid="deliveries">
      {deliveries.map((d) => (
        <li key={d.id} className="py-3" data-testid="delivery">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="min-w-0">
              <span className="font-medium">{d.eventType}</span>
              {d.isTest ? <span className="ml-2 text-xs text-slate-500">test</span> : null}
              <span
                className={`ml-2 inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONE[d.status] ?? TONE.pending}`}
              >
                {d.status}
              </span>
              {d.url ? <span className="block truncate text-xs text-slate-500">to {d.url}</span> : null}
              <span className="block text-xs text-slate-500">
                {formatUtc(d.createdAt)} · {d.attempts} attempt{d.attempts === 1 ? "" : "s"}
                {d.nextAttemptAt && d.attempts > 0 ? ` · next try ${formatUtc(d.nextAttemptAt)}` : ""}
              </span>
            </span>
            <form action={redeliver}>
              <input type="hidden" name="endpointId" value={d.endpointId} />
              <input type="hidden" name="deliveryId" value={d.id} />
              <button
                type="submit"
                className="rounded-md px-2 py-1 text-xs font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
                aria-label={`Send again: ${d.eventType}`}
              >
                Send again
              </button>
            </form>
          </div>
          {d.attemptLog.length ? (
            <ol className="mt-2 space-y-1 border-l-2 border-slate-100 pl-3 text-xs text-slate-600">
              {d.attemptLog.map((a) => (
                <li key={a.attempt} data-testid="attempt">
                  #{a.attempt} {formatUtc(a.startedAt)} —{" "}
                  {a.statusCode !== null ? <span className="font-medium">HTTP {a.statusCode}</span> : null}
                  {a.error ? <span className="text-rose-700"> {a.error}</span> : null}
                  {a.latencyMs !== null ? ` · ${a.latencyMs} ms` : ""}
                  {d.requestBody !== undefined ? (
                    <AttemptExchange
                      url={d.url ?? endpointUrl}
                      requestBody={d.requestBody}
                      attempt={a}
                      statusCode={a.statusCode}
                      latencyMs={a.latencyMs}
                      error={a.error}
                    />
                  ) : null}
                </li>
              ))}
            </ol>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
