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

  it("a revoke that lands while a key's read is in flight is not undone by that read's cache write", async () => {
    const a = await makeIntegrator();
    const api = await freshCopy();
    const { db } = await import("@/lib/db");
    const read = db().apiKey.findUnique.bind(db().apiKey);
    // The read sees the key active; the dashboard revokes it (and clears the cache) before the read returns.
    const spy = vi.spyOn(db().apiKey, "findUnique").mockImplementationOnce((async (args: Parameters<typeof read>[0]) => {
      const row = await read(args);
      await db().apiKey.updateMany({ where: { accountId: a.account.id }, data: { revokedAt: new Date() } });
      api.invalidateCredentialCache();
      return row;
    }) as unknown as typeof read);
    // That request itself was checked before the revoke: it passes.
    await expect(api.verifyApiKey(a.apiKey)).resolves.toMatchObject({ accountId: a.account.id });
    spy.mockRestore();
    // Every request after the revoke is refused: the in-flight read did not cache the key as active.
    await expect(api.verifyApiKey(a.apiKey)).rejects.toMatchObject({ code: "unauthorized" });
  });
});
