import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { env } from "@/lib/env";
import { webhookUrlPolicy } from "@/lib/webhooks/policy";
import { RESPONSE_BODY_LIMIT } from "@/lib/webhooks/redact";
import { checkWebhookUrl, isForbiddenIp, isIpLiteral, isLoopbackIp } from "@/lib/webhooks/url-policy";

/**
 * One webhook POST, hardened against SSRF:
 * - the URL passes checkWebhookUrl (scheme, credentials, literal addresses, localhost);
 * - a host name is resolved ONCE through `resolve`, every address is checked, and the socket
 *   is pinned to exactly those addresses through a custom `lookup` — the address connected to
 *   is the address checked, so DNS rebinding between check and connect is impossible, and a
 *   refused name never reaches the socket layer (no connection attempt at all);
 * - redirects are never followed (a 3xx is a failed attempt);
 * - one hard deadline covers resolution, connect, TLS, response and body;
 * - at most 64 KB of the response body is read; its first RESPONSE_BODY_LIMIT (+1, to tell a
 *   longer one) bytes are returned for the delivery log, which masks secrets before storing them.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface PostWebhookOptions {
  url: string;
  body: string | Buffer;
  headers: Record<string, string>;
  timeoutMs?: number;
  allowPrivate?: boolean;
  /** This machine's loopback addresses (`npm run dev`); default: the process's policy (lib/webhooks/policy.ts). */
  allowLoopback?: boolean;
  resolve?: Resolver;
}

export interface PostResult {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** The start of the response body (at most RESPONSE_BODY_LIMIT + 1 bytes); absent when no response came. */
  responseBytes?: Buffer;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

// Keep-alive pools: a burst of deliveries to one receiver reuses connections. Separate pools
// per policy (strict, loopback, private) so a socket opened under a permissive policy is never
// reused under a stricter one. A pooled socket is connected to an address that was checked when it opened.
const agentOptions = { keepAlive: true, maxSockets: 64, maxFreeSockets: 64, scheduling: "lifo" as const };
const agents = {
  http: [new http.Agent(agentOptions), new http.Agent(agentOptions), new http.Agent(agentOptions)],
  https: [new https.Agent(agentOptions), new https.Agent(agentOptions), new https.Agent(agentOptions)],
};

/** An address a delivery may connect to under the policy: public, or this machine's loopback when allowed (lib/documents/logo.ts uses it too). */
export const refusedAddress = (address: string, allowPrivate: boolean, allowLoopback: boolean) =>
  !allowPrivate && isForbiddenIp(address) && !(allowLoopback && isLoopbackIp(address));

export function pinnedLookup(addresses: ResolvedAddress[], allowPrivate: boolean, allowLoopback: boolean): LookupFunction {
  return (_hostname, options, callback) => {
    const f: unknown = options.family;
    const family = f === 4 || f === "IPv4" ? 4 : f === 6 || f === "IPv6" ? 6 : 0;
    const usable = addresses.filter((a) => family === 0 || a.family === family);
    // Re-checked here too: this is the last point before connect().
    const bad = usable.find((a) => refusedAddress(a.address, allowPrivate, allowLoopback));
    const first = usable[0];
    if (bad || !first) {
      const err: NodeJS.ErrnoException = new Error(bad ? `refused address ${bad.address}` : "no usable address");
      err.code = bad ? "EWEBHOOKFORBIDDEN" : "ENOTFOUND";
      callback(err, "", 0);
      return;
    }
    if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}

function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

const errorText = (err: unknown): string => {
  const e = err as NodeJS.ErrnoException;
  return e?.code ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(err);
};

export async function postWebhook(opts: PostWebhookOptions): Promise<PostResult> {
  const started = performance.now();
  const timeoutMs = opts.timeoutMs ?? env().WEBHOOK_TIMEOUT_MS;
  const allowPrivate = opts.allowPrivate ?? env().WEBHOOK_ALLOW_PRIVATE;
  const allowLoopback = opts.allowLoopback ?? webhookUrlPolicy().allowLoopback ?? false;
  const elapsed = () => Math.round(performance.now() - started);
  const fail = (error: string): PostResult => ({ statusCode: null, latencyMs: elapsed(), error });

  const checked = checkWebhookUrl(opts.url, { allowPrivate, allowLoopback });
  if (!checked.ok) return fail(`refused: ${checked.reason}`);
  const url = checked.url;
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;

  // Literal addresses were judged by checkWebhookUrl (and net skips lookup for them).
  let lookup: LookupFunction | undefined;
  if (!isIpLiteral(host)) {
    let addresses: ResolvedAddress[];
    try {
      addresses = await withDeadline((opts.resolve ?? systemResolver)(host), timeoutMs);
    } catch (err) {
      return fail(errorText(err) === "timeout" ? `timeout after ${timeoutMs} ms (dns)` : `dns: ${errorText(err)}`);
    }
    if (addresses.length === 0) return fail(`dns: ${host} has no address`);
    const bad = addresses.find((a) => refusedAddress(a.address, allowPrivate, allowLoopback));
    if (bad) return fail(`refused: ${host} resolves to forbidden address ${bad.address}`);
    lookup = pinnedLookup(addresses, allowPrivate, allowLoopback);
  }

  const remaining = timeoutMs - (performance.now() - started);
  if (remaining <= 0) return fail(`timeout after ${timeoutMs} ms`);
  const body = typeof opts.body === "string" ? Buffer.from(opts.body, "utf8") : opts.body;
  const isHttps = url.protocol === "https:";

  return new Promise<PostResult>((resolve) => {
    let settled = false;
    let statusCode: number | null = null;
    let timer: NodeJS.Timeout | undefined;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const responseBytes = statusCode === null ? undefined : Buffer.concat(kept, keptBytes);
      resolve({ statusCode, latencyMs: elapsed(), error, ...(responseBytes ? { responseBytes } : {}) });
    };
    const outcome = (): string | null => {
      if (statusCode === null) return "no response";
      if (statusCode >= 200 && statusCode < 300) return null;
      if (statusCode >= 300 && statusCode < 400) return "redirect not followed";
      return `HTTP ${statusCode}`;
    };
    const options: http.RequestOptions = {
      method: "POST",
      hostname: host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      headers: { ...opts.headers, "content-length": String(body.length) },
      agent: (isHttps ? agents.https : agents.http)[allowPrivate ? 2 : allowLoopback ? 1 : 0],
      lookup,
    };
    const req = (isHttps ? https : http).request(options, (res) => {
      statusCode = res.statusCode ?? null;
      let seen = 0;
      res.on("data", (chunk: Buffer) => {
        seen += chunk.length;
        if (keptBytes <= RESPONSE_BODY_LIMIT) {
          const part = chunk.subarray(0, RESPONSE_BODY_LIMIT + 1 - keptBytes);
          kept.push(part);
          keptBytes += part.length;
        }
        if (seen > MAX_RESPONSE_BYTES) {
          // Enough: the status decides, the rest of an oversized body is not worth reading.
          res.destroy();
          finish(outcome());
        }
      });
      res.on("end", () => finish(outcome()));
      res.on("error", () => finish(outcome()));
      res.on("close", () => finish(outcome()));
    });
    timer = setTimeout(() => {
      // Past the deadline: a known status still counts (the body was merely slow).
      const error = statusCode === null ? `timeout after ${timeoutMs} ms` : outcome();
      req.destroy(new Error("timeout"));
      finish(error);
    }, remaining);
    req.on("error", (err) => finish(statusCode === null ? errorText(err) : outcome()));
    req.end(body);
  });
}
