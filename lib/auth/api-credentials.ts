import { isOriginAllowed } from "@/lib/auth/origins";
import { hashSecret } from "@/lib/auth/secrets";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { RateTier } from "@/lib/generated/prisma/enums";

/**
 * Credential checks for the API-key, client-ID and orchestrator-key modes. Verified
 * credentials are cached for CREDENTIAL_CACHE_TTL_MS (default 5 s) so a hot route does not
 * pay a database round trip per request; revocation is therefore visible within that TTL
 * on other instances and at once on the instance that revoked.
 */
export interface ApiKeyPrincipal {
  kind: "apiKey";
  accountId: string;
  credentialId: string;
  rateTier: RateTier;
}

export interface ClientIdPrincipal {
  kind: "clientId";
  accountId: string;
  clientId: string;
  rateTier: RateTier;
  /** The request carried an Origin header (a browser context). */
  browser: boolean;
}

export interface OrchestratorPrincipal {
  kind: "orchestratorKey";
  accountId: string;
  credentialId: string;
  rateTier: RateTier;
}

type CacheEntry<T> = { value: T | null; expires: number };
type ClientRow = { id: string; accountId: string; status: string; allowedDomains: string[]; rateTier: RateTier };
interface CredentialCaches {
  apiKey: Map<string, CacheEntry<Omit<ApiKeyPrincipal, "kind">>>;
  orchestrator: Map<string, CacheEntry<Omit<OrchestratorPrincipal, "kind">>>;
  client: Map<string, CacheEntry<ClientRow>>;
  browserOrigin: Map<string, CacheEntry<true>>;
  /** Bumped by every invalidation: a load that started before one must not store what it read. */
  generation: number;
}
/**
 * On globalThis, not in this module: a Next build holds several copies of this module (the route
 * handlers' bundle, the server actions' bundle), and a revoke made by the dashboard's server action
 * must clear the cache the API's route handlers read (lib/db.ts keeps its client there too).
 */
const globalCaches = globalThis as unknown as { duebillCredentialCaches?: CredentialCaches };
globalCaches.duebillCredentialCaches ??= {
  apiKey: new Map(),
  orchestrator: new Map(),
  client: new Map(),
  browserOrigin: new Map(),
  generation: 0,
};
const caches = globalCaches.duebillCredentialCaches;
// A copy made before `generation` existed (a dev server's hot reload) starts it here.
caches.generation ??= 0;
const { apiKey: apiKeyCache, orchestrator: orchestratorCache, client: clientCache, browserOrigin: browserOriginCache } = caches;
const MAX_CACHE_ENTRIES = 10_000;

async function cached<T>(cache: Map<string, CacheEntry<T>>, key: string, load: () => Promise<T | null>): Promise<T | null> {
  const ttl = env().CREDENTIAL_CACHE_TTL_MS;
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.expires > now) return hit.value;
  // A revoke that lands while this read is in flight clears the cache first and then this read would
  // store the row as it was before the revoke, for a whole TTL: only store if no invalidation came between.
  const generation = caches.generation;
  const value = await load();
  if (ttl > 0 && generation === caches.generation) {
    if (cache.size >= MAX_CACHE_ENTRIES) cache.clear();
    cache.set(key, { value, expires: now + ttl });
  }
  return value;
}

/** Drop cached credentials (after a revoke or tier change in this process). */
export function invalidateCredentialCache(): void {
  caches.generation++;
  apiKeyCache.clear();
  orchestratorCache.clear();
  clientCache.clear();
  browserOriginCache.clear();
}

const unauthorized = (what: string) => new AppError("unauthorized", `Invalid or revoked ${what}`);

export async function verifyApiKey(secret: string): Promise<ApiKeyPrincipal> {
  // The lookup is by hash of the presented key, so timing reveals nothing about stored keys.
  const keyHash = hashSecret(secret);
  const row = await cached(apiKeyCache, keyHash, async () => {
    const key = await db().apiKey.findUnique({
      where: { keyHash },
      select: { id: true, accountId: true, rateTier: true, revokedAt: true },
    });
    if (!key || key.revokedAt) return null;
    return { accountId: key.accountId, credentialId: key.id, rateTier: key.rateTier };
  });
  if (!row) throw unauthorized("API key");
  return { kind: "apiKey", ...row };
}

export async function verifyOrchestratorKey(secret: string): Promise<OrchestratorPrincipal> {
  if (!secret.startsWith("orc_")) throw unauthorized("orchestrator key");
  const keyHash = hashSecret(secret);
  const row = await cached(orchestratorCache, keyHash, async () => {
    const key = await db().orchestratorKey.findUnique({
      where: { keyHash },
      select: { id: true, accountId: true, rateTier: true, revokedAt: true },
    });
    if (!key || key.revokedAt) return null;
    return { accountId: key.accountId, credentialId: key.id, rateTier: key.rateTier };
  });
  if (!row) throw unauthorized("orchestrator key");
  return { kind: "orchestratorKey", ...row };
}

/**
 * Client IDs are public identifiers: an unknown one is 401, a revoked or restricted one 403
 * (interface rule 2). A browser request (Origin present) must come from an allowed domain.
 */
export async function verifyClientId(clientId: string, origin: string | null): Promise<ClientIdPrincipal> {
  if (!clientId.startsWith("cli_") || clientId.length > 64) throw unauthorized("client ID");
  const row = await cached(clientCache, clientId, () =>
    db().clientId.findUnique({
      where: { id: clientId },
      select: { id: true, accountId: true, status: true, allowedDomains: true, rateTier: true },
    }),
  );
  if (!row) throw unauthorized("client ID");
  if (row.status !== "active") throw new AppError("client_id_inactive", `Client ID is ${row.status}`);
  // A client ID with allowed domains is a browser credential: it needs one of its Origins,
  // always (a missing Origin is not a pass). One without domains is a server credential.
  if (row.allowedDomains.length > 0 && origin === null) {
    throw new AppError("origin_not_allowed", "This client ID is restricted to its allowed domains: the request needs an allowed Origin");
  }
  if (origin !== null && !isOriginAllowed(origin, row.allowedDomains)) {
    throw new AppError("origin_not_allowed", "Origin is not an allowed domain of this client ID");
  }
  return { kind: "clientId", accountId: row.accountId, clientId: row.id, rateTier: row.rateTier, browser: origin !== null };
}

/**
 * Whether `origin` is an allowed domain of at least one active client ID (any account): what a
 * CORS preflight can know, since it carries no x-client-id. Cached like the credentials.
 */
export async function isBrowserOriginOfSomeClientId(origin: string): Promise<boolean> {
  let normalised: string;
  try {
    normalised = new URL(origin).origin;
  } catch {
    return false;
  }
  if (normalised !== origin) return false;
  const hit = await cached(browserOriginCache, origin, async () => {
    const row = await db().clientId.findFirst({
      where: { status: "active", allowedDomains: { has: origin } },
      select: { id: true },
    });
    return row ? true : null;
  });
  return hit === true;
}
