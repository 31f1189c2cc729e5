import type { AuthMode } from "@/lib/auth/principal";

/** The header each credential travels in, with the placeholder the reference shows. */
export const CREDENTIAL_HEADERS: Record<AuthMode, { header: string; placeholder: string; label: string }> = {
  apiKey: { header: "x-api-key", placeholder: "<your API key>", label: "API key" },
  clientId: { header: "x-client-id", placeholder: "<your client ID>", label: "Client ID" },
  orchestratorKey: { header: "x-orchestrator-key", placeholder: "<your orchestrator key>", label: "Orchestrator key" },
  session: { header: "Authorization", placeholder: "Bearer <session token>", label: "Session" },
};

export interface CurlInput {
  method: string;
  /** Path template, e.g. `/v2/request/{requestId}`. */
  path: string;
  baseUrl: string;
  /** Accepted credentials in order of preference; the snippet uses the first. */
  auth: readonly AuthMode[];
  /** Example value of each path parameter. */
  pathParams?: Record<string, string>;
  /** Query parameters to show (the required ones). */
  query?: Record<string, string>;
  body?: unknown;
  idempotent?: boolean;
  /** Real credential values to show instead of the placeholders (the demo account's, in development). */
  credentials?: Partial<Record<AuthMode, string>>;
}

const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** A placeholder the reader replaces (`<requestId>`): shown as is, never URL-encoded. */
const PLACEHOLDER = /^<[^<>]+>$/;
const encode = (value: string) => (PLACEHOLDER.test(value) ? value : encodeURIComponent(value));

/** A copy-pasteable curl command for one operation. */
export function curlSnippet(input: CurlInput): string {
  const path = input.path.replace(/\{([^}]+)\}/g, (_, name: string) => encode(input.pathParams?.[name] ?? `<${name}>`));
  const query = Object.entries(input.query ?? {})
    .map(([k, v]) => `${encodeURIComponent(k)}=${encode(v)}`)
    .join("&");
  const url = `${input.baseUrl.replace(/\/$/, "")}${path}${query ? `?${query}` : ""}`;
  const lines = [`curl ${input.method.toUpperCase() === "GET" ? "" : `-X ${input.method.toUpperCase()} `}${shellQuote(url)}`];
  const mode = input.auth[0];
  if (mode) {
    const { header, placeholder } = CREDENTIAL_HEADERS[mode];
    lines.push(`-H ${shellQuote(`${header}: ${input.credentials?.[mode] ?? placeholder}`)}`);
  }
  if (input.idempotent) lines.push(`-H 'Idempotency-Key: <unique key>'`);
  if (input.body !== undefined) {
    lines.push(`-H 'content-type: application/json'`);
    lines.push(`-d ${shellQuote(JSON.stringify(input.body, null, 2))}`);
  }
  return lines.join(" \\\n  ");
}
