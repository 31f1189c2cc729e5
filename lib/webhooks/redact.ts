/**
 * What the webhook log keeps of an attempt, with secrets masked before anything is stored: the log
 * is shown in the dashboard, and a receiver may echo what it got (a signature, its own API keys, or
 * — misconfigured — the signing secret itself). Masking happens at write time, so a secret that
 * reached a response body never reaches the database.
 */

export const REDACTED = "[redacted]";
/** How much of a receiver's response body is kept. */
export const RESPONSE_BODY_LIMIT = 4096;

/** Headers whose values prove possession of the secret: shown by name, value masked past a short prefix. */
const SIGNATURE_HEADER = /signature$/i;
/** JSON / form keys whose values are credentials ("secret", "api_key", "clientSecret", "x-duebill-signature"). */
const SECRET_KEY_WORDS =
  /(^|[_.-])(secret|password|passwd|token|api[_-]?key|access[_-]?key|private[_-]?key|authorization|credentials?|signature)s?$/i;
const isSecretKey = (key: string) => SECRET_KEY_WORDS.test(key.replace(/([a-z0-9])([A-Z])/g, "$1_$2"));
/** Values that look like credentials on their own, wherever they appear. */
const SECRET_VALUES: [RegExp, string][] = [
  [/whsec_[A-Za-z0-9+/=_-]+/g, `whsec_${REDACTED}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  // Duebill's own secrets (lib/ids.ts: API keys dbk_, orchestrator keys orc_) and the usual sk_/rk_ keys.
  [/\b(dbk|orc|sk|rk)_[A-Za-z0-9_-]{12,}/g, `$1_${REDACTED}`],
];

/** One signature value: enough to tell two apart ("3fa1b2c4…"), not enough to reuse. */
function maskSignature(value: string): string {
  return value.length <= 12 ? REDACTED : `${value.slice(0, 8)}…${REDACTED}`;
}

/** The headers of an attempt as the log keeps them: every name, signature values masked. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k in headers) out[k] = SIGNATURE_HEADER.test(k) ? maskSignature(headers[k]!) : headers[k]!;
  return out;
}

/**
 * Masks the known secrets (the endpoint's signing secret, whole and its base64 key part) and
 * anything secret-like in free text: `"password": "…"` / `token=…` pairs, bearer credentials,
 * `whsec_…` secrets and Duebill credentials.
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = redactKnownSecrets(text, secrets);
  for (const [pattern, replacement] of SECRET_VALUES.slice(1)) out = out.replace(pattern, replacement);
  out = out.replace(/"([^"\\]{1,64})"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g, (m, key: string, sep: string, value: string) =>
    isSecretKey(key) && value !== "" ? `"${key}"${sep}"${REDACTED}"` : m,
  );
  return out.replace(/(^|[?&\s])([A-Za-z0-9_.-]{1,64})=([^&\s]+)/g, (m, lead: string, key: string) =>
    isSecretKey(key) ? `${lead}${key}=${REDACTED}` : m,
  );
}

/** Masks only the given secrets (whole, and the key part after `whsec_`) and `whsec_…` values. */
export function redactKnownSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets.flatMap((s) => [s, s.replace(/^whsec_/, "")])) if (s.length >= 8) out = out.split(s).join(REDACTED);
  const [whsec, replacement] = SECRET_VALUES[0]!;
  return out.replace(whsec, replacement);
}

/** The response body as the log keeps it: its first RESPONSE_BODY_LIMIT bytes, as UTF-8, redacted. */
export function keptResponseBody(bytes: Buffer, secrets: readonly string[]): { body: string; truncated: boolean } {
  if (bytes.length === 0) return { body: "", truncated: false }; // the usual 200: nothing to mask
  const truncated = bytes.length > RESPONSE_BODY_LIMIT;
  // A multi-byte character cut at the limit decodes as U+FFFD: fine for a log.
  return { body: redactText(bytes.subarray(0, RESPONSE_BODY_LIMIT).toString("utf8"), secrets), truncated };
}

/** What an attempt's log row keeps of the exchange: the headers sent and the response body, both masked. */
export interface AttemptExchange {
  requestHeaders: Record<string, string> | null;
  responseBody: string | null;
  responseTruncated: boolean;
}

export function attemptExchange(
  headers: Record<string, string> | null,
  responseBytes: Buffer | undefined,
  secret: string | null,
): AttemptExchange {
  const secrets = secret ? [secret] : [];
  const kept = responseBytes ? keptResponseBody(responseBytes, secrets) : null;
  return {
    requestHeaders: headers ? redactHeaders(headers) : null,
    responseBody: kept?.body ?? null,
    responseTruncated: kept?.truncated ?? false,
  };
}
