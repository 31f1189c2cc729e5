import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testDatabaseUrl } from "@/tests/helpers/test-db-url";

const root = path.resolve(__dirname, "../..");

describe("migrations", () => {
  it("match prisma/schema.prisma (no migration is missing)", () => {
    const r = spawnSync(
      process.execPath,
      [
        path.join(root, "node_modules/prisma/build/index.js"),
        "migrate",
        "diff",
        "--from-migrations",
        "prisma/migrations",
        "--to-schema",
        "prisma/schema.prisma",
        "--exit-code",
      ],
      { cwd: root, env: { ...process.env, DATABASE_URL: testDatabaseUrl(), CHECKPOINT_DISABLE: "1" }, encoding: "utf8", timeout: 120_000 },
    );
    expect(r.status, `migrate diff said:\n${r.stdout}\n${r.stderr}`).toBe(0);
  }, 120_000);
});
