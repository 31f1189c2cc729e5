import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";

/**
 * A Next build holds several copies of lib/auth/api-credentials.ts (route handlers, server actions):
 * a key revoked from the dashboard (a server action calls invalidateCredentialCache in its copy) must
 * get 401 at once from the API (another copy), not after the cache's TTL. e2e/dashboard-ops.spec.ts
 * saw 200 for a just-revoked orchestrator key before the caches moved to globalThis.
 */
type Credentials = typeof import("@/lib/auth/api-credentials");
type Env = typeof import("@/lib/env");

async function freshCopy(): Promise<Credentials> {
  vi.resetModules();
  return (await import("@/lib/auth/api-credentials")) as Credentials;
}

describe("credential cache across module copies", () => {
  const ttl = process.env.CREDENTIAL_CACHE_TTL_MS;
  beforeEach(async () => {
    await resetDb();
    process.env.CREDENTIAL_CACHE_TTL_MS = "60000";
    ((await import("@/lib/env")) as Env).reloadEnv();
  });
  afterAll(async () => {
    process.env.CREDENTIAL_CACHE_TTL_MS = ttl;
    ((await import("@/lib/env")) as Env).reloadEnv();
    vi.resetModules();
  });

  it("a revoke invalidated in one copy is seen by the other copy at once", async () => {
    const a = await makeIntegrator();
    const api = await freshCopy();
    const dashboard = await freshCopy();
    expect(api).not.toBe(dashboard);
    await expect(api.verifyApiKey(a.apiKey)).resolves.toMatchObject({ accountId: a.account.id });
    const { db } = await import("@/lib/db");
    await db().apiKey.updateMany({ where: { accountId: a.account.id }, data: { revokedAt: new Date() } });
    // Still cached (TTL 60 s): the API copy answers from its cache until someone invalidates it.
    await expect(api.verifyApiKey(a.apiKey)).resolves.toMatchObject({ accountId: a.account.id });
    dashboard.invalidateCredentialCache();
    await expect(api.verifyApiKey(a.apiKey)).rejects.toMatchObject({ code: "unauthorized" });
  });
});
