import { fileURLToPath } from "node:url";
import { defineConfig } from "prisma/config";

// The Prisma CLI would download its native schema engine from a host this project's machines
// cannot reach; point it at the project-owned stand-in instead (scripts/db/schema-engine/README.md).
// Setting the variable also stops `prisma generate` from trying to download anything.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(new URL("./scripts/db/schema-engine/engine.mjs", import.meta.url));
// No update checks / telemetry from the CLI.
process.env.CHECKPOINT_DISABLE ??= "1";

export default defineConfig({
  schema: "prisma/schema",
  migrations: { path: "prisma/migrations" },
  datasource: {
    // `prisma generate` needs no database; without DATABASE_URL, migrate commands use a local duebill_dev database.
    url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/duebill_dev",
  },
});
