import { ErrorCode, type ToolError, type UnavailableRoutes } from "@lifi/types";
import { RoutingProviderError } from "@/lib/routing/types";

/**
 * LI.FI's HTTP transport: one request with a timeout, and every non-200 answer turned into a
 * RoutingProviderError whose message says what LI.FI said (docs/spec/provider-notes.md §1 "Errors").
 */
export interface LifiHttpOptions {
  baseUrl: string;
  apiKey?: string;
  fetch: typeof fetch;
  timeoutMs: number;
}

type Query = Record<string, string | number | undefined>;

export async function lifiRequest<T>(
  opts: LifiHttpOptions,
  method: "GET" | "POST",
  path: string,
  init: { query?: Query; body?: unknown } = {},
): Promise<T> {
  const url = new URL(path, opts.baseUrl.endsWith("/") ? opts.baseUrl : `${opts.baseUrl}/`);
  for (const [k, v] of Object.entries(init.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: "application/json" };
  // The key only raises limits; it must stay server-side (docs/spec/provider-notes.md §1 "Base URL, auth").
  if (opts.apiKey) headers["x-lifi-api-key"] = opts.apiKey;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  let res: Response;
  try {
    res = await opts.fetch(url.toString(), {
      method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(opts.timeoutMs),
      redirect: "error",
    });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    throw new RoutingProviderError(
      timedOut ? `LI.FI did not answer within ${opts.timeoutMs} ms` : `LI.FI is unreachable: ${errorText(err)}`,
      "UNAVAILABLE",
    );
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (res.status === 200 && body !== null) return body as T;
  throw lifiError(res, body);
}

/** Maps an HTTP status and LI.FI's `{code, message, errors}` body onto the routing error codes. */
function lifiError(res: Response, body: unknown): RoutingProviderError {
  const b = (typeof body === "object" && body !== null ? body : {}) as { code?: unknown; message?: unknown; errors?: unknown };
  const code = typeof b.code === "number" ? b.code : null;
  const codeName = code !== null ? (ErrorCode[code] as string | undefined) : undefined;
  const said = typeof b.message === "string" && b.message ? b.message : `HTTP ${res.status}`;
  const tools = toolErrors(b.errors);
  const message = `LI.FI: ${said}${codeName ? ` (${code} ${codeName})` : ""}${tools.length ? ` — ${tools.join("; ")}` : ""}`;
  if (res.status === 429 || code === ErrorCode.RateLimitError)
    return new RoutingProviderError(message, "RATE_LIMITED", retryAfterSeconds(res));
  if (res.status === 404 || res.status === 409 || code === ErrorCode.NoQuoteError || code === ErrorCode.SlippageError)
    return new RoutingProviderError(message, "NO_ROUTE");
  if (res.status === 401 || res.status === 403 || code === ErrorCode.UnauthorizedError)
    return new RoutingProviderError(`${message}; check LIFI_API_KEY`, "UNAVAILABLE");
  if (res.status >= 500 || res.status === 424 || res.status === 200) return new RoutingProviderError(message, "UNAVAILABLE");
  return new RoutingProviderError(message, "BAD_REQUEST");
}

/**
 * Tool errors of a 404: the OpenAPI/SDK type them as UnavailableRoutes `{filteredOut, failed}`,
 * the error-codes page shows a ToolError array (docs/spec/provider-notes.md marks it [?]): both are read.
 */
function toolErrors(errors: unknown): string[] {
  const list: ToolError[] = [];
  const notes: string[] = [];
  if (Array.isArray(errors)) list.push(...(errors as ToolError[]));
  else if (typeof errors === "object" && errors !== null) {
    const u = errors as Partial<UnavailableRoutes>;
    for (const f of u.failed ?? []) for (const sub of Object.values(f.subpaths ?? {})) list.push(...sub);
    for (const f of u.filteredOut ?? []) if (f.reason) notes.push(`filtered out: ${f.reason}`);
  }
  const described = list
    .filter((e) => e && typeof e === "object")
    .map((e) => `${e.tool ?? "?"}: ${e.code ?? "?"}${e.message ? ` (${e.message})` : ""}`);
  return [...described, ...notes].slice(0, 4);
}

/** Retry-After in seconds or as an HTTP date; else LI.FI's `ratelimit-reset` (seconds). */
function retryAfterSeconds(res: Response): number | null {
  const ra = res.headers.get("retry-after");
  if (ra) {
    if (/^\d+$/.test(ra.trim())) return Number(ra.trim());
    const at = Date.parse(ra);
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - Date.now()) / 1000));
  }
  const reset = res.headers.get("ratelimit-reset");
  return reset && /^\d+$/.test(reset.trim()) ? Number(reset.trim()) : null;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
