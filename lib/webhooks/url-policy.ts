/**
 * SSRF policy for webhook URLs. Checked when an endpoint is registered AND again on every
 * delivery (http-post.ts also checks every address the host name resolves to at connect
 * time, so a name that later re-points to an internal address is still refused).
 *
 * Three levels (lib/webhooks/policy.ts picks one from the environment):
 * - strict (production): https to a public address only;
 * - `allowLoopback` (`npm run dev`, issue 29): also this machine — `localhost`, `*.localhost`,
 *   127.0.0.0/8, ::1 — over http or https, so a developer can receive webhooks on the laptop.
 *   Everything else stays strict: LAN, link-local (cloud metadata), CGNAT, reserved;
 * - `allowPrivate` (WEBHOOK_ALLOW_PRIVATE=true): http and any address.
 */

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

export interface UrlPolicy {
  allowPrivate: boolean;
  /** This machine's loopback addresses (and `localhost`), over http too. */
  allowLoopback?: boolean;
}

const MAX_URL_LENGTH = 2048;

/** Strict dotted decimal only: leading zeros (octal in some parsers) are refused, not guessed. */
function parseIpv4(s: string): number[] | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    out.push(n);
  }
  return out;
}

/** 16 bytes, or null. Accepts `::` compression and a dotted IPv4 tail (`::ffff:1.2.3.4`). */
function parseIpv6(input: string): number[] | null {
  let s = input;
  if (!s.includes(":")) return null;
  const lastColon = s.lastIndexOf(":");
  const tail = s.slice(lastColon + 1);
  if (tail.includes(".")) {
    const v4 = parseIpv4(tail);
    if (!v4) return null;
    s = `${s.slice(0, lastColon + 1)}${(((v4[0] ?? 0) << 8) | (v4[1] ?? 0)).toString(16)}:${(((v4[2] ?? 0) << 8) | (v4[3] ?? 0)).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const left = groups(halves[0]);
  const right = groups(halves[1]);
  if (halves.length === 1 ? left.length !== 8 : left.length + right.length > 7) return null;
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  const bytes: number[] = [];
  for (const g of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    const n = Number.parseInt(g, 16);
    bytes.push(n >> 8, n & 0xff);
  }
  return bytes;
}

type Cidr = [number[], number];

function inCidr(bytes: number[], [net, bits]: Cidr): boolean {
  for (let i = 0; i < net.length && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((net[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** IANA special-purpose IPv4 blocks that are not a public webhook receiver. */
const V4_FORBIDDEN: Cidr[] = [
  [[0], 8], // "this network", 0.0.0.0
  [[10], 8],
  [[100, 64], 10], // CGNAT
  [[127], 8],
  [[169, 254], 16], // link-local, cloud metadata (169.254.169.254)
  [[172, 16], 12],
  [[192, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2], 24], // TEST-NET-1
  [[192, 88, 99], 24], // 6to4 relay anycast (deprecated)
  [[192, 168], 16],
  [[198, 18], 15], // benchmarking
  [[198, 51, 100], 24], // TEST-NET-2
  [[203, 0, 113], 24], // TEST-NET-3
  [[224], 4], // multicast
  [[240], 4], // reserved, includes 255.255.255.255
];

const hex = (s: string): number[] => {
  const b = parseIpv6(s);
  if (!b) throw new Error(`bad constant ${s}`);
  return b;
};

const V6_FORBIDDEN: Cidr[] = [
  [hex("::"), 8], // ::, ::1, IPv4-compatible and SIIT forms (mapped ::ffff:0:0/96 is handled before)
  [hex("64:ff9b:1::"), 48], // local-use NAT64
  [hex("100::"), 64], // discard-only
  [hex("2001::"), 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID
  [hex("2001:db8::"), 32], // documentation
  [hex("3fff::"), 20], // documentation
  [hex("5f00::"), 16], // SRv6 SIDs
  [hex("fc00::"), 7], // unique local
  [hex("fe80::"), 10], // link-local
  [hex("fec0::"), 10], // site-local (deprecated)
  [hex("ff00::"), 8], // multicast
];

const forbiddenV4 = (b: number[]) => V4_FORBIDDEN.some((c) => inCidr(b, c));

function forbiddenV6(b: number[]): boolean {
  // Forms that carry an IPv4 address are judged by the IPv4 rules: IPv4-mapped
  // (::ffff:0:0/96), NAT64 well-known prefix (64:ff9b::/96, what DNS64 hands an IPv6-only
  // host for a public IPv4 receiver) and 6to4 (2002::/16, embedded in bytes 2–5).
  if (inCidr(b, [hex("::ffff:0:0"), 96]) || inCidr(b, [hex("64:ff9b::"), 96])) return forbiddenV4(b.slice(12));
  if (inCidr(b, [hex("2002::"), 16])) return forbiddenV4(b.slice(2, 6));
  return V6_FORBIDDEN.some((c) => inCidr(b, c));
}

/** True for any address a webhook must not reach. Anything that is not a valid IP is refused too. */
export function isForbiddenIp(ip: string): boolean {
  let s = ip.trim();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  const v4 = parseIpv4(s);
  if (v4) return forbiddenV4(v4);
  const v6 = parseIpv6(s);
  if (v6) return forbiddenV6(v6);
  return true;
}

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped form (::ffff:127.x.y.z): this machine, never another. */
export function isLoopbackIp(ip: string): boolean {
  let s = ip.trim();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const v4 = parseIpv4(s);
  if (v4) return v4[0] === 127;
  const v6 = parseIpv6(s);
  if (!v6) return false;
  if (inCidr(v6, [hex("::ffff:0:0"), 96])) return v6[12] === 127;
  return v6.every((b, i) => b === (i === 15 ? 1 : 0));
}

/** A host that names this machine: `localhost`, a `*.localhost` name (RFC 6761), or a loopback address. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/\.+$/, "");
  return h === "localhost" || h.endsWith(".localhost") || (isIpLiteral(h) && isLoopbackIp(h));
}

/** True when `host` (brackets allowed) is an IP literal rather than a name. */
export function isIpLiteral(host: string): boolean {
  const s = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return parseIpv4(s) !== null || parseIpv6(s) !== null;
}

export function checkWebhookUrl(input: string | URL, opts: UrlPolicy): UrlCheck {
  const raw = String(input);
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `URL is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    // The WHATWG parser already rewrites 0x7f000001, 2130706433, 0177.0.0.1 … to 127.0.0.1
    // for http(s), so those reach the IP check below in canonical form.
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a valid URL" };
  }
  const host = url.hostname.toLowerCase().replace(/\.+$/, "");
  const loopback = opts.allowLoopback === true && isLoopbackHost(host);
  if (url.protocol !== "https:" && !((opts.allowPrivate || loopback) && url.protocol === "http:")) {
    if (opts.allowPrivate) return { ok: false, reason: "URL must use http or https" };
    const hint = url.protocol === "http:" && isLoopbackHost(host) ? " (http to this machine: only under `npm run dev`)" : "";
    return { ok: false, reason: `URL must use https${hint}` };
  }
  if (url.username || url.password) return { ok: false, reason: "URL must not contain credentials" };
  if (!host) return { ok: false, reason: "URL has no host" };
  // Local development may target its own machine (and, with WEBHOOK_ALLOW_PRIVATE, its LAN).
  if (opts.allowPrivate || loopback) return { ok: true, url };
  if (host === "localhost" || host.endsWith(".localhost"))
    return { ok: false, reason: "localhost is not allowed (only under `npm run dev`, for local testing)" };
  if (isIpLiteral(host)) {
    if (!isForbiddenIp(host)) return { ok: true, url };
    return {
      ok: false,
      reason: `address ${host} is private or reserved${isLoopbackIp(host) ? " (loopback: only under `npm run dev`)" : ""}`,
    };
  }
  // A name that looks numeric would be read as an address by some resolvers; a single label
  // (e.g. "intranet") is completed by search domains to internal hosts. Neither is a public receiver.
  if (/^[0-9.]+$/.test(host) || /^0x[0-9a-f]*$/.test(host)) return { ok: false, reason: "ambiguous numeric host" };
  if (!host.includes(".")) return { ok: false, reason: "host must be a fully qualified domain name" };
  return { ok: true, url };
}
