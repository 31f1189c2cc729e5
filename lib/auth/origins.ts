/**
 * Allowed browser origins of a client ID (interface "Link-intent body" rules): at most 10
 * unique origins, HTTPS without path, query or fragment; HTTP only for localhost,
 * 127.0.0.1 or [::1].
 */
export const MAX_ALLOWED_DOMAINS = 10;
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Returns the normalised origin, or an error message. */
export function parseOrigin(value: string): { origin: string } | { error: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { error: `"${value}" is not a valid origin` };
  }
  if (url.username || url.password) return { error: `"${value}" must not contain credentials` };
  const bare = value.replace(/\/$/, "");
  if (url.pathname !== "/" || url.search || url.hash || bare.includes("?") || bare.includes("#") || bare.endsWith("/")) {
    return { error: `"${value}" must be an origin without path, query or fragment` };
  }
  if (url.protocol === "http:") {
    if (!LOCAL_HOSTS.has(url.hostname)) return { error: `"${value}" must use https (http only for localhost, 127.0.0.1 or [::1])` };
  } else if (url.protocol !== "https:") {
    return { error: `"${value}" must use https` };
  }
  return { origin: url.origin };
}

export function normaliseAllowedDomains(values: readonly string[]): { domains: string[] } | { error: string } {
  if (values.length > MAX_ALLOWED_DOMAINS) return { error: `at most ${MAX_ALLOWED_DOMAINS} domains` };
  const seen = new Set<string>();
  for (const v of values) {
    const parsed = parseOrigin(v);
    if ("error" in parsed) return parsed;
    if (seen.has(parsed.origin)) return { error: `"${v}" is listed twice` };
    seen.add(parsed.origin);
  }
  return { domains: [...seen] };
}

/** Browser `Origin` header check. Origins compare by exact normalised string. */
export function isOriginAllowed(origin: string, allowed: readonly string[]): boolean {
  let normalised: string;
  try {
    normalised = new URL(origin).origin;
  } catch {
    return false;
  }
  return allowed.includes(normalised);
}
