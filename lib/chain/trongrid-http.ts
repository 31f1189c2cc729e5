/**
 * TronGrid's HTTP transport for the Tron event source: one call with a timeout, bounded retries
 * with backoff on rate limits (429, 403 — keyless or over-quota keys are "suspended for 30s" —,
 * and a node's HTTP 200 `{"Error": "... lack of computing resources"}`), 5xx and network
 * failures; then a TronGridError. docs/spec/provider-notes.md §2 "Errors, rate limits".
 */
export class TronGridError extends Error {
  constructor(
    message: string,
    readonly rateLimited: boolean,
  ) {
    super(message);
    this.name = "TronGridError";
  }
}

export interface TronGridHttpOptions {
  baseUrl: string;
  apiKey?: string;
  fetch: typeof fetch;
  timeoutMs: number;
  maxRetries: number;
  sleep: (ms: number) => Promise<void>;
}

export async function tronGridCall<T>(
  o: TronGridHttpOptions,
  method: "GET" | "POST",
  path: string,
  init: { query?: Record<string, string>; body?: unknown } = {},
): Promise<T> {
  const url = new URL(path, o.baseUrl.endsWith("/") ? o.baseUrl : `${o.baseUrl}/`);
  for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = { accept: "application/json" };
  if (o.apiKey) headers["TRON-PRO-API-KEY"] = o.apiKey;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  let last = { reason: "", rateLimited: false, retryAfter: null as string | null };
  for (let attempt = 0; attempt <= o.maxRetries; attempt++) {
    if (attempt > 0) await o.sleep(backoffMs(attempt, last.retryAfter));
    let res: Response;
    try {
      res = await o.fetch(url.toString(), {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(o.timeoutMs),
      });
    } catch (err) {
      last = { reason: `unreachable (${err instanceof Error ? err.message : String(err)})`, rateLimited: false, retryAfter: null };
      continue;
    }
    const text = await res.text();
    const json = parseJson(text) as (T & { Error?: string; success?: boolean; error?: string; statusCode?: number }) | null;
    const said = json?.error ?? json?.Error;
    if (
      res.status === 429 ||
      res.status === 403 ||
      json?.statusCode === 429 ||
      json?.statusCode === 403 ||
      /lack of computing resources/i.test(json?.Error ?? "")
    ) {
      last = {
        reason: `rate limited (HTTP ${res.status}${said ? `: ${said}` : ""})`,
        rateLimited: true,
        retryAfter: res.headers.get("retry-after"),
      };
      continue;
    }
    if (res.status >= 500) {
      last = { reason: `HTTP ${res.status}`, rateLimited: false, retryAfter: null };
      continue;
    }
    if (res.status !== 200 || !json) throw new TronGridError(`TronGrid ${path} answered HTTP ${res.status}: ${text.slice(0, 200)}`, false);
    if (json.Error || json.success === false) throw new TronGridError(`TronGrid ${path}: ${said ?? "request failed"}`, false);
    return json;
  }
  throw new TronGridError(`TronGrid ${path} failed after ${o.maxRetries + 1} attempts: ${last.reason}`, last.rateLimited);
}

/** Retry-After when the API sent one (capped at 30 s), else 1 s, 2 s, 4 s... */
function backoffMs(attempt: number, retryAfter: string | null): number {
  if (retryAfter && /^\d+$/.test(retryAfter.trim())) return Math.min(Number(retryAfter.trim()), 30) * 1000;
  return Math.min(1000 * 2 ** (attempt - 1), 30_000);
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}
