import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { adoptRunningApp, RUNTIME_FILE, removeRuntimeFile, writeRuntimeFile } from "@/scripts/runtime/runtime-file";

/** The CLIs find a running app (`.data/runtime.json`, written by scripts/runtime/run.ts) for what their environment leaves unset. */
const backup = existsSync(RUNTIME_FILE) ? readFileSync(RUNTIME_FILE, "utf8") : null;
afterEach(() => {
  rmSync(RUNTIME_FILE, { force: true });
  if (backup !== null) writeFileSync(RUNTIME_FILE, backup);
});

const CHAIN_FILE = path.resolve(import.meta.dirname, "../../package.json"); // any existing file

describe("runtime file", () => {
  it("fills DATABASE_URL, CHAIN_CONFIG_FILE and APP_URL from a live run, without overriding what is set", () => {
    mkdirSync(path.dirname(RUNTIME_FILE), { recursive: true });
    writeRuntimeFile({
      pid: process.pid,
      appUrl: "http://localhost:3001",
      embeddedDatabaseUrl: "postgresql://x@127.0.0.1:1/p",
      chainConfigFile: CHAIN_FILE,
    });
    const empty = {} as NodeJS.ProcessEnv;
    expect(adoptRunningApp(empty)).toEqual(["embedded database", "devnet"]);
    expect(empty).toEqual({
      DATABASE_URL: "postgresql://x@127.0.0.1:1/p",
      CHAIN_CONFIG_FILE: CHAIN_FILE,
      APP_URL: "http://localhost:3001",
    });
    const explicit = { DATABASE_URL: "postgresql://mine", RPC_URL_BASE: "https://rpc.example" } as unknown as NodeJS.ProcessEnv;
    expect(adoptRunningApp(explicit)).toEqual([]);
    expect(explicit.DATABASE_URL).toBe("postgresql://mine");
    expect(explicit.CHAIN_CONFIG_FILE).toBeUndefined();
  });

  it("ignores a file left by a run that is gone, and only its own run removes it", () => {
    mkdirSync(path.dirname(RUNTIME_FILE), { recursive: true });
    writeRuntimeFile({ pid: 2_147_483_646, appUrl: "http://localhost:3000", embeddedDatabaseUrl: "postgresql://stale" });
    const env = {} as NodeJS.ProcessEnv;
    expect(adoptRunningApp(env)).toEqual([]);
    expect(env.DATABASE_URL).toBeUndefined();
    writeRuntimeFile({ pid: process.pid, appUrl: "http://localhost:3000" });
    removeRuntimeFile(process.pid + 1);
    expect(existsSync(RUNTIME_FILE)).toBe(true);
    removeRuntimeFile(process.pid);
    expect(existsSync(RUNTIME_FILE)).toBe(false);
  });
});
