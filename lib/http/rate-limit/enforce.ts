import { type Principal, principalKey } from "@/lib/auth/principal";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { RateTier } from "@/lib/generated/prisma/enums";
import { checkRateLimit, rateLimitHeaders, rateLimitKey } from "@/lib/http/rate-limit/limiter";

/** Set by scripts/runtime/server.mjs from the TCP socket on every request (a client-sent value is overwritten). */
export const SOCKET_IP_HEADER = "x-duebill-socket-ip";

/**
 * The client IP, never one the client chose. With no trusted proxy (TRUSTED_PROXY_HOPS=0) it
 * is the socket's peer address; X-Forwarded-For and X-Real-IP are ignored. Behind N trusted
 * proxies each appends the address it saw, so the client is the N-th entry from the right:
 * anything further left was written by the client. Too few entries means the request did not
 * come through the proxies: the socket address is used.
 */
export function clientIp(req: Request): string {
  const socket = req.headers.get(SOCKET_IP_HEADER) || "unknown";
  const hops = env().TRUSTED_PROXY_HOPS;
  if (hops === 0) return socket;
  const parts = (req.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return parts.length >= hops ? (parts[parts.length - hops] ?? socket) : socket;
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
    throw new AppError("rate_limited", decision.blocked ? "Rate limit exceeded repeatedly: blocked for 5 minutes" : "Rate limit exceeded", {
      headers,
    });
  }
  return headers;
}
