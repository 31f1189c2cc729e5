import { beforeEach, describe, expect, it } from "vitest";
import { createApiKey, createClientId, revokeApiKey, setRateTier } from "@/lib/accounts/issue-credentials";
import { verifyApiKey } from "@/lib/auth/api-credentials";
import { parseOrigin } from "@/lib/auth/origins";
import { db } from "@/lib/db";
import { resetDb } from "@/tests/helpers/db";
import { makeAccount } from "@/tests/helpers/factories";

beforeEach(resetDb);

describe("credentials", () => {
  it("stores API keys hashed and shows the secret once", async () => {
    const account = await makeAccount();
    const key = await createApiKey(account.id, "ci");
    expect(key.secret).toMatch(/^dbk_[A-Za-z0-9_-]{43}$/);
    const row = await db().apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(JSON.stringify(row)).not.toContain(key.secret);
    expect((await verifyApiKey(key.secret)).accountId).toBe(account.id);
    await revokeApiKey(key.id);
    await expect(verifyApiKey(key.secret)).rejects.toMatchObject({ status: 401 });
  });

  it("validates client ID allowed domains", async () => {
    const account = await makeAccount();
    const ok = await createClientId(account.id, {
      name: "web",
      allowedDomains: ["https://a.example", "http://localhost:3000", "http://[::1]:8080"],
    });
    expect(ok.allowedDomains).toEqual(["https://a.example", "http://localhost:3000", "http://[::1]:8080"]);
    expect(ok.clientId).toMatch(/^cli_/);
    await expect(createClientId(account.id, { name: "web", allowedDomains: ["http://a.example"] })).rejects.toMatchObject({ status: 400 });
    await expect(createClientId(account.id, { name: "web", allowedDomains: ["https://a.example/path"] })).rejects.toMatchObject({
      status: 400,
    });
    await expect(
      createClientId(account.id, { name: "web", allowedDomains: ["https://a.example", "https://a.example"] }),
    ).rejects.toMatchObject({
      status: 400,
    });
    const eleven = Array.from({ length: 11 }, (_, i) => `https://d${i}.example`);
    await expect(createClientId(account.id, { name: "web", allowedDomains: eleven })).rejects.toMatchObject({ status: 400 });
  });

  it("parses origins strictly", () => {
    expect(parseOrigin("https://a.example")).toEqual({ origin: "https://a.example" });
    expect(parseOrigin("https://a.example?x=1")).toHaveProperty("error");
    expect(parseOrigin("https://a.example#f")).toHaveProperty("error");
    expect(parseOrigin("https://user:pw@a.example")).toHaveProperty("error");
    expect(parseOrigin("ftp://a.example")).toHaveProperty("error");
    expect(parseOrigin("http://127.0.0.1:3000")).toEqual({ origin: "http://127.0.0.1:3000" });
  });

  it("sets rate tiers by credential ID", async () => {
    const account = await makeAccount();
    const key = await createApiKey(account.id);
    await setRateTier(key.id, "premium");
    expect((await verifyApiKey(key.secret)).rateTier).toBe("premium");
    await expect(setRateTier("key_missing", "basic")).rejects.toMatchObject({ status: 404 });
  });
});
