import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { APP_SECRET_MIN_LENGTH, appSecretProblem, CHECKED_VARIABLES, environmentProblems, formatEnvProblems } from "@/lib/env";

/** The boot check of `npm start` / `npm run dev` / `npm run worker` (the system test runs it through npm start). */
describe("environmentProblems: every missing or malformed variable, one entry each", () => {
  const ok = { NODE_ENV: "production", APP_SECRET: "s".repeat(32) };

  it("a usable production environment has no problems; development needs no APP_SECRET", () => {
    expect(environmentProblems(ok, { production: true })).toEqual([]);
    expect(environmentProblems({}, { production: false })).toEqual([]);
  });

  it("lists every problem at once, by variable, without echoing values", () => {
    const problems = environmentProblems(
      {
        NODE_ENV: "production",
        APP_SECRET: "too-short-secret-value",
        DATABASE_URL: "not a url",
        DATABASE_POOL_MAX: "ten",
        PORT: "http",
        DEVNET: "yes",
        LOG_LEVEL: "loud",
        RELAYER_PRIVATE_KEY: "0x1234",
        KYT_PROVIDER: "chainalysis",
        CHAIN_CONFIG: "{not json",
        CHAIN_CONFIG_FILE: "/nonexistent/devnet.json",
      },
      { production: true },
    );
    expect(problems.map((p) => p.name).sort()).toEqual(
      [
        "APP_SECRET",
        "CHAINALYSIS_API_KEY",
        "CHAIN_CONFIG",
        "CHAIN_CONFIG_FILE",
        "DATABASE_POOL_MAX",
        "DATABASE_URL",
        "DEVNET",
        "LOG_LEVEL",
        "PORT",
        "RELAYER_PRIVATE_KEY",
      ].sort(),
    );
    const text = formatEnvProblems(problems);
    expect(text.split("\n")[0]).toBe('10 environment variables are missing or malformed (see README "Configuration"):');
    expect(text).toContain("  - APP_SECRET: must be at least 32 characters");
    expect(text).toContain("  - DATABASE_POOL_MAX: must be a number");
    expect(text).toContain("  - DATABASE_URL: must be a URL");
    expect(text).toContain("  - CHAINALYSIS_API_KEY: is required when KYT_PROVIDER=chainalysis");
    expect(text).not.toContain("too-short-secret-value");
  });

  it("production requires APP_SECRET; the message says how to make one", () => {
    const [p, ...rest] = environmentProblems({ NODE_ENV: "production" }, { production: true });
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ name: "APP_SECRET" });
    expect(p?.message).toContain("openssl rand -base64 48");
  });

  it("the APP_SECRET rule: at least 32 characters when set, required in production only; the boot check applies it", () => {
    expect(APP_SECRET_MIN_LENGTH).toBe(32);
    expect(appSecretProblem(undefined, false)).toBeUndefined();
    expect(appSecretProblem(undefined, true)).toMatch(/^is not set: production needs at least 32 random characters/);
    expect(appSecretProblem("s".repeat(31), false)).toMatch(/^must be at least 32 characters, not 31/);
    expect(appSecretProblem("s".repeat(31), true)).toMatch(/^must be at least 32 characters, not 31/);
    expect(appSecretProblem("", true)).toMatch(/^must be at least 32 characters, not 0/);
    expect(appSecretProblem("s".repeat(32), true)).toBeUndefined();
    expect(environmentProblems({ APP_SECRET: "s".repeat(31) }, { production: false })).toEqual([
      { name: "APP_SECRET", message: appSecretProblem("s".repeat(31), false) },
    ]);
  });

  it("checks every variable the configuration page lists for the app, and the page lists every checked one", () => {
    const page = readFileSync(path.resolve(import.meta.dirname, "../../docs/operations/configuration.md"), "utf8");
    const documented = new Set(
      [...page.matchAll(/^\|([^|]+)\|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((v) => v[1]!)),
    );
    for (const name of CHECKED_VARIABLES) {
      if (name === "NODE_ENV") continue;
      expect(documented.has(name), `${name} is missing from docs/operations/configuration.md`).toBe(true);
    }
    // Read by the test and bench harnesses only (scripts/, tests/), not by the app.
    const notBootChecked = new Set(["TEST_DATABASE_URL", "BENCH_DATABASE_URL", "BENCH_DASHBOARD_DATABASE_URL"]);
    for (const name of documented) if (!notBootChecked.has(name)) expect(CHECKED_VARIABLES, name).toContain(name);
  });
});
