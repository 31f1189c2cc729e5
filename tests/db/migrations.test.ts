import { spawnSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { NETWORK_IDS } from "@/lib/chain/networks";
import { testDatabaseUrl } from "@/tests/helpers/test-db-url";

const root = path.resolve(__dirname, "../..");

describe("migrations", () => {
  it("match the schema in prisma/schema (no migration is missing)", () => {
    const r = spawnSync(
      process.execPath,
      [
        path.join(root, "node_modules/prisma/build/index.js"),
        "migrate",
        "diff",
        "--from-migrations",
        "prisma/migrations",
        "--to-schema",
        "prisma/schema",
        "--exit-code",
      ],
      { cwd: root, env: { ...process.env, DATABASE_URL: testDatabaseUrl(), CHECKPOINT_DISABLE: "1" }, encoding: "utf8", timeout: 120_000 },
    );
    expect(r.status, `migrate diff said:\n${r.stdout}\n${r.stderr}`).toBe(0);
  }, 120_000);

  // Network columns are text with a CHECK constraint (prisma/schema/base.prisma says why), which
  // Prisma does not track: a network added to NETWORK_IDS needs a migration that widens them.
  it("allow exactly NETWORK_IDS in every network column", async () => {
    const client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    try {
      const columns = await client.query<{ table: string }>(
        `SELECT table_name AS table FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'network'`,
      );
      const checks = await client.query<{ table: string; def: string }>(
        `SELECT t.relname AS table, pg_get_constraintdef(c.oid) AS def
         FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
         WHERE n.nspname = 'public' AND c.contype = 'c' AND pg_get_constraintdef(c.oid) LIKE '%network%'`,
      );
      const tables = columns.rows.map((c) => c.table).sort();
      expect(tables).toEqual([
        "ChainCursor",
        "CommercePayment",
        "DepositAddress",
        "PayeeDestination",
        "Payment",
        "PaymentDaily",
        "PaymentRequest",
        "RecurringSchedule",
        "Refund",
        "RelayedTransaction",
        "SecurePayment",
      ]);
      expect(checks.rows.map((c) => c.table).sort()).toEqual(tables);
      for (const { table, def } of checks.rows) {
        // CHECK ((network = ANY (ARRAY['mainnet'::text, 'arbitrum-one'::text, ...])))
        const allowed = [...def.matchAll(/'([^']*)'/g)].map((m) => m[1]);
        expect(allowed, `${table}: ${def}`).toEqual([...NETWORK_IDS]);
      }
    } finally {
      await client.end();
    }
  });
});
