import { createHmac, randomBytes } from "node:crypto";
import { safeEqual } from "@/lib/auth/secrets";

/**
 * Webhook signatures. One secret per endpoint, shown once at creation:
 *
 *   secret = "whsec_" + base64(32 random bytes)          (Standard Webhooks' key format)
 *
 * Two signatures are sent over the exact body bytes, both derived from that one string:
 *
 * - `x-duebill-signature`: hex HMAC-SHA256(key = UTF-8 bytes of the WHOLE secret string,
 *   "whsec_" prefix included; message = body bytes). This is what the interface describes
 *   ("keyed with the webhook secret"), so receivers written for the reference API, which do
 *   `createHmac("sha256", secret).update(rawBody).digest("hex")`, work unchanged.
 * - `webhook-signature`: `v1,` + base64 HMAC-SHA256(key = base64-DECODED bytes after "whsec_";
 *   message = `${webhook-id}.${webhook-timestamp}.` + body), the Standard Webhooks scheme. It is
 *   computed with node:crypto over the exact bytes (the decoded key cached per secret: one
 *   delivery costs two HMACs, no key decoding), and tests/webhooks check it equals what the
 *   Standard Webhooks library (`standardwebhooks`, `new Webhook(secret).sign(...)`) computes, on
 *   the spec's vector and on random inputs, so receivers using its `verify` accept it. A secret
 *   without the prefix (none are issued) is used as its UTF-8 bytes.
 */
const PREFIX = "whsec_";

type Bytes = string | Uint8Array;
const toBuffer = (b: Bytes): Buffer => (typeof b === "string" ? Buffer.from(b, "utf8") : Buffer.from(b.buffer, b.byteOffset, b.byteLength));

/** A new endpoint secret (the webhook routes return it once and store encryptSecret(secret)). */
export function generateWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString("base64")}`;
}

/** The Standard Webhooks key of a secret, decoded once per secret (a sweep signs many deliveries per endpoint). */
const keys = new Map<string, Buffer>();
function standardKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = secret.startsWith(PREFIX) ? Buffer.from(secret.slice(PREFIX.length), "base64") : Buffer.from(secret, "utf8");
    if (keys.size >= 1024) keys.clear(); // bounded: endpoints come and go
    keys.set(secret, key);
  }
  return key;
}

/** Value of `x-<service>-signature`: hex HMAC-SHA256 of the exact bytes sent. */
export function signatureHeader(secret: string, body: Bytes): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(toBuffer(body)).digest("hex");
}

/** Standard Webhooks `webhook-signature` value for one message. */
export function standardSignature(secret: string, id: string, timestampSec: number, body: Bytes): string {
  const mac = createHmac("sha256", standardKey(secret))
    .update(`${id}.${Math.floor(timestampSec)}.`, "utf8")
    .update(toBuffer(body));
  return `v1,${mac.digest("base64")}`;
}

/** The three Standard Webhooks headers; the timestamp is the wall clock (receivers compare it with theirs). */
export function standardWebhookHeaders(secret: string, id: string, body: Bytes, at: Date = new Date()): Record<string, string> {
  const ts = Math.floor(at.getTime() / 1000);
  return { "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": standardSignature(secret, id, ts, body) };
}

/** Receiver side of `x-<service>-signature` (tests, docs). `body` must be the RAW bytes received. */
export function verifySignature(secret: string, body: Bytes, header: string | null | undefined): boolean {
  if (!header) return false;
  return safeEqual(signatureHeader(secret, body), header.trim().toLowerCase());
}

/**
 * Receiver side of the Standard Webhooks headers: any of the space-separated `v1,` signatures
 * may match, and the timestamp must be within `toleranceSec` of now (replay protection).
 */
export function verifyStandardSignature(
  secret: string,
  body: Bytes,
  headers: { id?: string | null; timestamp?: string | null; signature?: string | null },
  opts: { toleranceSec?: number; now?: Date } = {},
): boolean {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  const ts = Number(timestamp);
  const nowSec = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSec - ts) > (opts.toleranceSec ?? 300)) return false;
  const expected = standardSignature(secret, id, ts, body);
  let ok = false;
  // Compare against every candidate (no early exit) so timing does not reveal which matched.
  for (const candidate of signature.split(" ")) if (candidate && safeEqual(expected, candidate)) ok = true;
  return ok;
}

/** The reference service's header prefix: receivers written for it verify Duebill's deliveries unchanged. */
export const REFERENCE_HEADER_PREFIX = "x-request-network";

/**
 * Every header of one delivery attempt: `x-<service>-signature|delivery|retry-count|test`, the same
 * values under the reference's names unless switched off (WEBHOOK_REFERENCE_HEADERS=false), and the
 * Standard Webhooks headers.
 */
export function deliveryHeaders(d: {
  service: string;
  secret: string;
  body: Bytes;
  deliveryId: string;
  retryCount: number;
  isTest: boolean;
  at: Date;
  referenceHeaders: boolean;
}): Record<string, string> {
  const signature = signatureHeader(d.secret, d.body); // once, sent under both names
  const retryCount = String(d.retryCount);
  const headers: Record<string, string> = { "content-type": "application/json", "user-agent": `${d.service}-webhooks/1` };
  if (d.referenceHeaders) addOwnHeaders(headers, REFERENCE_HEADER_PREFIX, signature, d.deliveryId, retryCount, d.isTest);
  addOwnHeaders(headers, `x-${d.service}`, signature, d.deliveryId, retryCount, d.isTest);
  const ts = Math.floor(d.at.getTime() / 1000);
  headers["webhook-id"] = d.deliveryId;
  headers["webhook-timestamp"] = String(ts);
  headers["webhook-signature"] = standardSignature(d.secret, d.deliveryId, ts, d.body);
  return headers;
}

/** `<prefix>-signature|delivery|retry-count|test` into `headers` (a function, not a closure per delivery: the sweep signs thousands a second). */
function addOwnHeaders(
  headers: Record<string, string>,
  prefix: string,
  signature: string,
  id: string,
  retryCount: string,
  isTest: boolean,
) {
  headers[`${prefix}-signature`] = signature;
  headers[`${prefix}-delivery`] = id;
  headers[`${prefix}-retry-count`] = retryCount;
  if (isTest) headers[`${prefix}-test`] = "true";
}
