import https from "node:https";
import type { LookupFunction } from "node:net";
import { log } from "@/lib/log";
import { pinnedLookup, type Resolver, refusedAddress } from "@/lib/webhooks/http-post";
import { webhookResolver } from "@/lib/webhooks/resolver";
import { checkWebhookUrl, isIpLiteral } from "@/lib/webhooks/url-policy";

/**
 * A brand's logo for a document, fetched from the account's (or orchestrator's) `logoUrl` at
 * render time. That URL is the customer's input, so the fetch is an SSRF and latency risk and is
 * held to the webhook client's rules (lib/webhooks/http-post.ts): HTTPS only, no credentials in
 * the URL, the host resolved once and every address checked (no private, loopback, link-local or
 * metadata address), the socket pinned to the checked addresses, no redirects. On top of that:
 * one 2-second deadline for everything, at most 256 KB, PNG or JPEG recognised by their magic
 * bytes only (the Content-Type is not trusted), and the answer — a logo or "none" — cached in
 * memory per URL for 10 minutes. Any failure is `null`: the document prints the name alone.
 */

export const LOGO_TIMEOUT_MS = 2000;
export const LOGO_MAX_BYTES = 256 * 1024;
export const LOGO_CACHE_MS = 10 * 60 * 1000;
const CACHE_ENTRIES = 500;

export interface LogoFetchOptions {
  timeoutMs?: number;
  resolve?: Resolver;
  /** Tests only: a local HTTPS server on 127.0.0.1 (the product never allows loopback here). */
  allowLoopback?: boolean;
  /** Tests only: the local server's self-signed certificate. */
  ca?: string | Buffer;
  /** The clock of the cache (tests). */
  now?: () => number;
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

/** "png", "jpeg" or null, from the first bytes alone. */
export function imageKind(bytes: Buffer): "png" | "jpeg" | null {
  if (bytes.subarray(0, PNG.length).equals(PNG)) return "png";
  if (bytes.subarray(0, JPEG.length).equals(JPEG)) return "jpeg";
  return null;
}

const cache = new Map<string, { at: number; logo: Buffer | null }>();
const inFlight = new Map<string, Promise<Buffer | null>>();

/** Forgets every cached logo (tests). */
export function clearLogoCache(): void {
  cache.clear();
}

/** The logo at `url` as PNG or JPEG bytes, or null (no URL, refused, failed, too big, not an image). */
export async function fetchLogo(url: string | null | undefined, opts: LogoFetchOptions = {}): Promise<Buffer | null> {
  if (!url) return null;
  const now = opts.now ?? Date.now;
  const hit = cache.get(url);
  if (hit && now() - hit.at < LOGO_CACHE_MS) return hit.logo;
  const pending = inFlight.get(url);
  if (pending) return pending;
  const p = download(url, opts)
    .catch((err: unknown) => {
      log.warn("document logo not fetched", { url, err: err instanceof Error ? err.message : String(err) });
      return null;
    })
    .then((logo) => {
      if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(url, { at: now(), logo });
      return logo;
    })
    .finally(() => inFlight.delete(url));
  inFlight.set(url, p);
  return p;
}

function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timeout after ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

async function download(input: string, opts: LogoFetchOptions): Promise<Buffer> {
  const timeoutMs = opts.timeoutMs ?? LOGO_TIMEOUT_MS;
  const allowLoopback = opts.allowLoopback ?? false;
  const started = performance.now();
  const checked = checkWebhookUrl(input, { allowPrivate: false, allowLoopback });
  if (!checked.ok) throw new Error(`refused: ${checked.reason}`);
  const url = checked.url;
  if (url.protocol !== "https:") throw new Error("refused: not https");
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;

  let lookup: LookupFunction | undefined;
  if (!isIpLiteral(host)) {
    const addresses = await withDeadline((opts.resolve ?? webhookResolver())(host), timeoutMs);
    if (addresses.length === 0) throw new Error(`dns: ${host} has no address`);
    const bad = addresses.find((a) => refusedAddress(a.address, false, allowLoopback));
    if (bad) throw new Error(`refused: ${host} resolves to ${bad.address}`);
    lookup = pinnedLookup(addresses, false, allowLoopback);
  }
  const remaining = timeoutMs - (performance.now() - started);
  if (remaining <= 0) throw new Error(`timeout after ${timeoutMs} ms`);

  return new Promise<Buffer>((resolve, reject) => {
    const req = https.request(
      {
        method: "GET",
        hostname: host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { accept: "image/png, image/jpeg", "user-agent": "Duebill-Documents/1" },
        agent: false,
        lookup,
        ...(opts.ca ? { ca: opts.ca } : {}),
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          req.destroy();
          reject(new Error(`HTTP ${res.statusCode}${res.statusCode && res.statusCode < 400 ? " (redirects are not followed)" : ""}`));
          return;
        }
        const declared = Number(res.headers["content-length"]);
        if (declared > LOGO_MAX_BYTES) {
          req.destroy();
          reject(new Error(`too large: ${declared} bytes`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > LOGO_MAX_BYTES) {
            req.destroy();
            reject(new Error(`too large: over ${LOGO_MAX_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          if (!imageKind(body)) reject(new Error("not a PNG or JPEG"));
          else resolve(body);
        });
        res.on("error", reject);
      },
    );
    req.setTimeout(remaining, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    const deadline = setTimeout(() => req.destroy(new Error(`timeout after ${timeoutMs} ms`)), remaining);
    req.on("close", () => clearTimeout(deadline));
    req.on("error", reject);
    req.end();
  });
}
