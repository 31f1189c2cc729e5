/** What one webhook attempt sent and got back, as the delivery log stores it (secrets already masked). */
export interface AttemptExchangeView {
  requestHeaders?: Record<string, string> | null;
  responseBody?: string | null;
  responseTruncated?: boolean;
}

const SUB = "mt-2 text-[11px] font-medium text-slate-500";
const PRE = "mt-1 whitespace-pre-wrap rounded-lg bg-slate-50 p-2 font-mono text-[12px] leading-5 text-slate-800 [overflow-wrap:anywhere]";

/** JSON shown indented (as a person reads it), anything else as it came. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * The request (headers with signature values masked, the exact body signed) and the response
 * (status, duration, body) of one attempt, folded under a summary so the log stays scannable.
 */
export function AttemptExchange({
  url,
  requestBody,
  attempt,
  statusCode,
  latencyMs,
  error,
}: {
  url?: string;
  requestBody: string;
  attempt: AttemptExchangeView;
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
}) {
  const headers = attempt.requestHeaders ? Object.entries(attempt.requestHeaders) : [];
  return (
    <details className="mt-1 group" data-testid="attempt-exchange">
      <summary className="cursor-pointer select-none text-xs font-medium text-indigo-700 hover:underline">Request and response</summary>
      <div className="mt-2 grid gap-3 md:grid-cols-2">
        <section aria-label="Request" className="min-w-0">
          <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Request</h4>
          <p className="mt-1 font-mono text-[12px] text-slate-700 [overflow-wrap:anywhere]">POST {url ?? ""}</p>
          {headers.length > 0 ? (
            <>
              <p className={SUB}>Headers</p>
              <dl className={PRE} data-testid="request-headers">
                {headers.map(([k, v]) => (
                  <div key={k}>
                    <dt className="inline text-slate-500">{k}: </dt>
                    <dd className="inline">{v}</dd>
                  </div>
                ))}
              </dl>
            </>
          ) : null}
          <p className={SUB}>Body</p>
          <pre className={PRE} data-testid="request-body">
            {pretty(requestBody)}
          </pre>
        </section>
        <section aria-label="Response" className="min-w-0">
          <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Response</h4>
          <p className="mt-1 text-xs text-slate-700">
            {statusCode !== null ? <span className="font-medium">HTTP {statusCode}</span> : <span>No response</span>}
            {latencyMs !== null ? ` · ${latencyMs} ms` : ""}
            {error ? <span className="text-rose-700"> · {error}</span> : null}
          </p>
          {statusCode === null ? null : attempt.responseBody ? (
            <>
              <p className={SUB}>Body</p>
              <pre className={PRE} data-testid="response-body">
                {pretty(attempt.responseBody)}
              </pre>
              {attempt.responseTruncated ? <p className="mt-1 text-xs text-slate-500">Only the first 4 KiB of the body are kept.</p> : null}
            </>
          ) : attempt.responseBody === "" ? (
            <p className="mt-1 text-xs text-slate-500">Empty body</p>
          ) : null}
        </section>
      </div>
    </details>
  );
}
