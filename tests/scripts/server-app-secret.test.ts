import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * `npm start` serves through scripts/runtime/server.mjs: it must refuse to start without a usable APP_SECRET,
 * before loading Next, by the same rule as the boot check (lib/env.ts appSecretProblem through environmentProblems).
 */
const SERVER = path.resolve(import.meta.dirname, "../../scripts/runtime/server.mjs");
const start = (secret: string | undefined, extra: Record<string, string> = {}) => {
  const env: NodeJS.ProcessEnv = { ...extra, PATH: process.env.PATH, NODE_ENV: "production", PORT: "0" };
  if (secret !== undefined) env.APP_SECRET = secret;
  return spawnSync(process.execPath, [SERVER, "--port", "0", "--hostname", "127.0.0.1"], { env, encoding: "utf8", timeout: 20_000 });
};

describe("production server without APP_SECRET", () => {
  it("refuses to start with a clear message when APP_SECRET is missing", () => {
    const r = start(undefined);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/refusing to start: 1 environment variable is missing or malformed/);
    expect(r.stderr).toMatch(/- APP_SECRET: is not set: production needs at least 32/);
  });

  it("refuses a short APP_SECRET and says how long it is", () => {
    const r = start("too-short");
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/- APP_SECRET: must be at least 32 characters, not 9/);
    expect(r.stderr).not.toContain("too-short");
  });

  it("refuses any variable the boot check refuses, not only APP_SECRET (one check, shared with npm start)", () => {
    const r = start("s".repeat(32), { DATABASE_POOL_MAX: "ten", KYT_PROVIDER: "chainalysis" });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/refusing to start: 2 environment variables are missing or malformed/);
    expect(r.stderr).toContain("- DATABASE_POOL_MAX: must be a number");
    expect(r.stderr).toContain("- CHAINALYSIS_API_KEY: is required when KYT_PROVIDER=chainalysis");
    expect(r.stderr).not.toMatch(/APP_SECRET/);
  });
});
