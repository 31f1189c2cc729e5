import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * Provider tests replay recorded exchanges (tests/fixtures/<provider>/*.json) through an
 * injected fetch, and keep every request the adapter sent so tests can assert it too.
 */
export interface RecordedExchange {
  request?: { method: string; path: string };
  response: { status: number; headers?: Record<string, string>; body: unknown };
}

export interface SentRequest {
  url: URL;
  method: string;
  headers: Headers;
  /** Parsed JSON body, or null. */
  body: unknown;
}

export function fixture(provider: string, name: string): RecordedExchange {
  const file = path.resolve(import.meta.dirname, "../fixtures", provider, `${name}.json`);
  return JSON.parse(readFileSync(file, "utf8")) as RecordedExchange;
}

/** The recorded response; a string body (an HTML error page) is sent as is, anything else as JSON. */
export function toResponse(ex: RecordedExchange): Response {
  const { status, headers, body } = ex.response;
  return new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers });
}

export function replayFetch(
  answer: (req: SentRequest, index: number) => RecordedExchange | Response | Promise<RecordedExchange | Response>,
) {
  const calls: SentRequest[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const text = typeof init?.body === "string" ? init.body : null;
    const req: SentRequest = {
      url,
      method: init?.method ?? "GET",
      headers: new Headers(init?.headers),
      body: text ? JSON.parse(text) : null,
    };
    calls.push(req);
    const out = await answer(req, calls.length - 1);
    return out instanceof Response ? out : toResponse(out);
  }) as typeof fetch;
  return { fetch: fetchImpl, calls };
}
