import dns from "node:dns";
import type { LookupFunction } from "node:net";
import { type Dispatcher, Pool } from "undici";
import { env } from "@/lib/env";
import { webhookUrlPolicy } from "@/lib/webhooks/policy";
import { RESPONSE_BODY_LIMIT } from "@/lib/webhooks/redact";
import { checkWebhookUrl, isForbiddenIp, isIpLiteral, isLoopbackIp } from "@/lib/webhooks/url-policy";

/**
 * One webhook POST, hardened against SSRF:
 * - the URL passes checkWebhookUrl (scheme, credentials, literal addresses, localhost);
 * - a host name is resolved ONCE per delivery through `resolve` and every address is checked; the
 *   request goes to a keep-alive pool whose sockets are pinned (custom `lookup`) to exactly that
 *   checked set of addresses — the address connected to is the address checked, so DNS rebinding
 *   between check and connect is impossible, a kept-alive socket is reused only by a delivery whose
 *   own resolution gave the same addresses, and a refused name never reaches the socket layer (no
 *   connection attempt at all);
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

/**
 * Keep-alive pools (undici: 36–57 µs of CPU per request against the bench's receiver, node:http 76–82),
 * one per policy, origin and checked address set, so a socket opened under a permissive policy is
 * never reused under a stricter one, and one opened to an address the host name no longer resolves
 * to is never reused at all. Least recently used pools beyond POOL_LIMIT are closed (after their
 * requests finish); idle sockets close on their own after undici's keep-alive timeout, which follows
 * the receiver's `Keep-Alive: timeout` hint.
 */
const POOL_LIMIT = 256;
const pools = new Map<string, Pool>();
/** Bounds undici's connect step only: the delivery's own deadline (at most WEBHOOK_TIMEOUT_MS's 60 s) is what cuts an attempt. */
const CONNECT_TIMEOUT_MS = 60_000;

/** The policy as one number, for cache keys: a check or socket made under one policy is never reused under another. */
const policyLevel = (allowPrivate: boolean, allowLoopback: boolean) => (allowPrivate ? 2 : allowLoopback ? 1 : 0);

/** A pool's key: policy, origin and checked address set. The set, not its order: a round-robin name that rotates its answers keeps one pool (any order of a checked set is as safe). */
function poolKey(origin: string, addresses: ResolvedAddress[] | null, allowPrivate: boolean, allowLoopback: boolean): string {
  const set = addresses?.map((a) => a.address).sort() ?? [];
  return `${policyLevel(allowPrivate, allowLoopback)} ${origin} ${set.join(",")}`;
}

function poolFor(url: URL, addresses: ResolvedAddress[] | null, allowPrivate: boolean, allowLoopback: boolean, knownKey?: string): Pool {
  const key = knownKey ?? poolKey(url.origin, addresses, allowPrivate, allowLoopback);
  let pool = pools.get(key);
  if (pool) {
    pools.delete(key); // re-inserted below: the Map's order is least recently used first
  } else {
    // A literal address needs no lookup (net skips it); a name connects only to its checked addresses.
    const lookup = addresses ? pinnedLookup(addresses, allowPrivate, allowLoopback) : undefined;
    pool = new Pool(url.origin, { connections: 64, connect: { timeout: CONNECT_TIMEOUT_MS, ...(lookup ? { lookup } : {}) } });
    if (pools.size >= POOL_LIMIT) {
      const [oldestKey, oldest] = pools.entries().next().value as [string, Pool];
      pools.delete(oldestKey);
      void oldest.close(); // lets its in-flight requests finish
    }
  }
  pools.set(key, pool);
  return pool;
}

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

/**
 * What a delivery needs of its URL, worked out once per URL and policy and kept (a sweep sends many
 * deliveries to one endpoint; the check is a pure function of the string and the policy): the check's
 * verdict, the host to resolve, the request's path and, for a literal address, its pool's key.
 */
type Target = { ok: true; url: URL; path: string; host: string; literal: boolean; literalPoolKey: string } | { ok: false; reason: string };
const TARGET_LIMIT = 1024;
const targets = new Map<string, Target>();

function targetFor(rawUrl: string, allowPrivate: boolean, allowLoopback: boolean): Target {
  const key = `${policyLevel(allowPrivate, allowLoopback)} ${rawUrl}`;
  let target = targets.get(key);
  if (target) return target;
  const checked = checkWebhookUrl(rawUrl, { allowPrivate, allowLoopback });
  if (!checked.ok) target = { ok: false, reason: checked.reason };
  else {
    const url = checked.url;
    const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    const literal = isIpLiteral(host);
    target = {
      ok: true,
      url,
      path: `${url.pathname}${url.search}`,
      host,
      literal,
      literalPoolKey: poolKey(url.origin, null, allowPrivate, allowLoopback),
    };
  }
  if (targets.size >= TARGET_LIMIT) targets.clear(); // bounded: endpoints come and go
  targets.set(key, target);
  return target;
}

/** A response's verdict: null for 2xx, else why the attempt failed. */
function verdict(statusCode: number | null): string | null {
  if (statusCode === null) return "no response";
  if (statusCode >= 200 && statusCode < 300) return null;
  if (statusCode >= 300 && statusCode < 400) return "redirect not followed";
  return `HTTP ${statusCode}`;
}

/**
 * One exchange as undici's dispatch handler: its state on the object and its steps as methods (no
 * closures made per delivery). Resolves once, at the response's end, an error, the body limit or the
 * deadline, whichever comes first.
 */
class Exchange implements Dispatcher.DispatchHandler {
  settled = false;
  statusCode: number | null = null;
  controller: Dispatcher.DispatchController | null = null;
  seen = 0;
  kept: Buffer[] = [];
  keptBytes = 0;
  timer: NodeJS.Timeout | undefined;

  constructor(
    readonly started: number,
    readonly timeoutMs: number,
    readonly resolve: (r: PostResult) => void,
  ) {}

  finish(error: string | null): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    const latencyMs = Math.round(performance.now() - this.started);
    if (this.statusCode === null) this.resolve({ statusCode: null, latencyMs, error });
    else this.resolve({ statusCode: this.statusCode, latencyMs, error, responseBytes: Buffer.concat(this.kept, this.keptBytes) });
  }

  timeout(): void {
    // Past the deadline: a known status still counts (the body was merely slow).
    this.finish(this.statusCode === null ? `timeout after ${this.timeoutMs} ms` : verdict(this.statusCode));
    // A request still queued for a socket is aborted as soon as it gets one (onRequestStart).
    this.controller?.abort(new Error("timeout"));
  }

  onRequestStart(c: Dispatcher.DispatchController): void {
    this.controller = c;
    if (this.settled) c.abort(new Error("timeout"));
  }

  onResponseStart(_c: Dispatcher.DispatchController, code: number): void {
    if (code >= 200) this.statusCode = code; // 1xx are interim: the final status decides
  }

  onResponseData(c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.seen += chunk.length;
    if (this.keptBytes <= RESPONSE_BODY_LIMIT) {
      const part = chunk.subarray(0, RESPONSE_BODY_LIMIT + 1 - this.keptBytes);
      this.kept.push(part);
      this.keptBytes += part.length;
    }
    if (this.seen > MAX_RESPONSE_BYTES) {
      // Enough: the status decides, the rest of an oversized body is not worth reading.
      this.finish(verdict(this.statusCode));
      c.abort(new Error("response body too large"));
    }
  }

  onResponseEnd(): void {
    this.finish(verdict(this.statusCode));
  }

  onResponseError(_c: Dispatcher.DispatchController, err: Error): void {
    this.finish(this.statusCode === null ? errorText(err) : verdict(this.statusCode));
  }
}

const timeoutExchange = (exchange: Exchange) => exchange.timeout();

export async function postWebhook(opts: PostWebhookOptions): Promise<PostResult> {
  const started = performance.now();
  const timeoutMs = opts.timeoutMs ?? env().WEBHOOK_TIMEOUT_MS;
  const allowPrivate = opts.allowPrivate ?? env().WEBHOOK_ALLOW_PRIVATE;
  const allowLoopback = opts.allowLoopback ?? webhookUrlPolicy().allowLoopback ?? false;
  const fail = (error: string): PostResult => ({ statusCode: null, latencyMs: Math.round(performance.now() - started), error });

  const target = targetFor(opts.url, allowPrivate, allowLoopback);
  if (!target.ok) return fail(`refused: ${target.reason}`);
  const host = target.host;

  // Literal addresses were judged by checkWebhookUrl (and net skips lookup for them).
  let addresses: ResolvedAddress[] | null = null;
  if (!target.literal) {
    try {
      addresses = await withDeadline((opts.resolve ?? systemResolver)(host), timeoutMs);
    } catch (err) {
      return fail(errorText(err) === "timeout" ? `timeout after ${timeoutMs} ms (dns)` : `dns: ${errorText(err)}`);
    }
    if (addresses.length === 0) return fail(`dns: ${host} has no address`);
    const bad = addresses.find((a) => refusedAddress(a.address, allowPrivate, allowLoopback));
    if (bad) return fail(`refused: ${host} resolves to forbidden address ${bad.address}`);
  }

  const remaining = timeoutMs - (performance.now() - started);
  if (remaining <= 0) return fail(`timeout after ${timeoutMs} ms`);
  const body = typeof opts.body === "string" ? Buffer.from(opts.body, "utf8") : opts.body;
  const pool = poolFor(target.url, addresses, allowPrivate, allowLoopback, addresses ? undefined : target.literalPoolKey);

  return new Promise<PostResult>((resolve) => {
    const exchange = new Exchange(started, timeoutMs, resolve);
    exchange.timer = setTimeout(timeoutExchange, remaining, exchange);
    // Redirects are never followed: a plain dispatch has no redirect handling. undici's own header
    // and body timers are off: the one deadline above covers the whole exchange.
    pool.dispatch({ method: "POST", path: target.path, headers: opts.headers, body, headersTimeout: 0, bodyTimeout: 0 }, exchange);
  });
}
