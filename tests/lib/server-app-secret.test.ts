import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** `npm start` serves through scripts/runtime/server.mjs: it must refuse to start without a usable APP_SECRET, before loading Next. */
const SERVER = path.resolve(import.meta.dirname, "../../scripts/runtime/server.mjs");
const start = (secret: string | undefined) => {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NODE_ENV: "production", PORT: "0" };
  if (secret !== undefined) env.APP_SECRET = secret;
  return spawnSync(process.execPath, [SERVER, "--port", "0", "--hostname", "127.0.0.1"], { env, encoding: "utf8", timeout: 20_000 });
};

describe("production server without APP_SECRET", () => {
  it("refuses to start with a clear message when APP_SECRET is missing", () => {
    const r = start(undefined);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/refusing to start: APP_SECRET is not set.*at least 32/);
  });

  it("refuses a short APP_SECRET and says how long it is", () => {
    const r = start("too-short");
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/APP_SECRET is only 9 characters/);
  });
});
