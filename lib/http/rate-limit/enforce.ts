import { type Principal, principalKey } from "@/lib/auth/principal";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { RateTier } from "@/lib/generated/prisma/enums";
import { checkRateLimit, rateLimitHeaders, rateLimitKey } from "@/lib/http/rate-limit/limiter";

/**
 * The client IP as the nearest trusted proxy saw it. With TRUSTED_PROXY_HOPS = N the client is
 * the N-th X-Forwarded-For entry from the right (next start fills the header from the socket
 * when it is absent). Without a proxy a client can write its own header: deploy behind one.
 */
export function clientIp(req: Request): string {
  const parts = (req.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0) return req.headers.get("x-real-ip") ?? "unknown";
  const hops = env().TRUSTED_PROXY_HOPS;
  return parts[Math.max(0, parts.length - 1 - hops)] ?? "unknown";
}

/** The counter's credential part: the principal's key (lib/auth/principal.ts); failed authentication counts per IP. */
function credentialOf(p: Principal | null): { id: string; tier: RateTier } {
  if (!p) return { id: "anonymous", tier: "default" };
  return { id: principalKey(p), tier: p.kind === "session" ? "default" : p.rateTier };
}

/**
 * Counts the request against its (credential, IP) counter. Returns the RateLimit-* headers for
 * the response, or throws the 429 with Retry-After and the same headers.
 */
export async function enforceRateLimit(req: Request, principal: Principal | null, relaxed = false): Promise<Record<string, string>> {
  const { id, tier } = credentialOf(principal);
  const decision = await checkRateLimit(rateLimitKey(id, clientIp(req)), tier, { relaxed });
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    throw new AppError("rate_limited", decision.blocked ? "Rate limit exceeded repeatedly: blocked for 5 minutes" : "Rate limit exceeded", { headers });
  }
  return headers;
}
