import { AppError } from "@/lib/errors";
import type { KytProvider, KytResult } from "@/lib/kyt/types";
import { log } from "@/lib/log";

/**
 * Chainalysis' free Sanctions API (docs/spec/provider-notes.md §3): `GET {base}/api/v1/address/{address}`
 * with `X-API-Key` → `{"identifications": [...]}`, empty when the address is clear.
 *
 * Policy: **fail closed**. A vendor that cannot answer (timeout, 429, 5xx, a rejected key, a
 * non-JSON WAF page) never approves: screen() throws `AppError("upstream_unavailable")` (503,
 * "Screening is unavailable right now; try again shortly"). Creating an outgoing link then
 * answers that 503 to its caller; settling an incoming link leaves it `pending` and the
 * reconcile sweep screens it again later (lib/secure-payments/settle.ts).
 */
export interface ChainalysisOptions {
  apiKey: string;
  /** `https://public.chainalysis.com` */
  baseUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

interface Identification {
  category?: string;
  name?: string;
  description?: string;
  url?: string;
}

export class ChainalysisSanctionsProvider implements KytProvider {
  readonly name = "chainalysis";
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(private readonly opts: ChainalysisOptions) {
    this.fetch = opts.fetch ?? fetch;
    this.timeoutMs = opts.timeoutMs ?? 5_000;
  }

  // One path for every network: the API takes EVM, Tron and BTC addresses alike.
  async screen(walletAddress: string, _network: string): Promise<KytResult> {
    const base = this.opts.baseUrl.endsWith("/") ? this.opts.baseUrl : `${this.opts.baseUrl}/`;
    const url = new URL(`api/v1/address/${encodeURIComponent(walletAddress)}`, base);
    let res: Response;
    try {
      res = await this.fetch(url.toString(), {
        method: "GET",
        headers: { "X-API-Key": this.opts.apiKey, accept: "application/json" },
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: "error",
      });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
      throw unavailable(
        timedOut ? `no answer within ${this.timeoutMs} ms` : `unreachable: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const text = await res.text();
    // A missing or refused key can answer an HTML WAF page (403): only JSON is parsed.
    const isJson = (res.headers.get("content-type") ?? "").includes("json");
    const body = isJson ? parseJson(text) : null;
    if (res.status !== 200) {
      const said = body && typeof body === "object" && "message" in body ? String((body as { message: unknown }).message) : null;
      const why =
        res.status === 429
          ? "rate limited"
          : res.status === 401 || res.status === 403
            ? "API key refused (check CHAINALYSIS_API_KEY)"
            : `HTTP ${res.status}`;
      throw unavailable(`${why}${said ? `: ${said}` : ""}`, res.status === 429 ? res.headers.get("retry-after") : null);
    }
    const ids = (body as { identifications?: unknown } | null)?.identifications;
    if (!Array.isArray(ids)) throw unavailable("answer without an identifications array");
    const hits = (ids as Identification[]).filter((i) => i && typeof i === "object");
    const first = hits[0];
    return {
      walletAddress,
      walletType: "eoa",
      parentWalletAddress: null,
      status: hits.length > 0 ? "rejected" : "approved",
      reasonCode: hits.length > 0 ? "sanctioned_address" : null,
      provider: "chainalysis",
      providerReference: "chainalysis-sanctions-api",
      reportUrl: first?.url ?? null,
      notes: first ? [first.name, first.description].filter(Boolean).join(" — ").slice(0, 500) || null : null,
      rawStatus: first ? (first.category ?? "identified") : "clear",
      evaluatedAt: new Date().toISOString(),
    };
  }
}

/**
 * Several providers together: the first rejection wins, so a hit on either list rejects; a
 * clear address is screened by every one, and any provider's failure fails the whole screen.
 */
export function allOf(providers: readonly KytProvider[]): KytProvider {
  return {
    name: providers.map((p) => p.name).join("+"),
    async screen(walletAddress, network) {
      let result: KytResult | null = null;
      for (const p of providers) {
        result = await p.screen(walletAddress, network);
        if (result.status === "rejected") return result;
      }
      if (!result) throw new Error("allOf() needs at least one provider");
      return { ...result, provider: providers.map((p) => p.name).join("+") };
    },
  };
}

function unavailable(reason: string, retryAfter: string | null = null): AppError {
  log.warn("chainalysis screening unavailable", { reason });
  const seconds = retryAfter && /^\d+$/.test(retryAfter.trim()) ? retryAfter.trim() : "30";
  return new AppError("upstream_unavailable", "Screening is unavailable right now; try again shortly", {
    headers: { "Retry-After": seconds },
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
