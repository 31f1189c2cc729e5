import { fileURLToPath } from "node:url";
import { defineConfig } from "prisma/config";

// The Prisma CLI would download its native schema engine from a host this project's machines
// cannot reach; point it at the project-owned stand-in instead (scripts/schema-engine/README.md).
// Setting the variable also stops `prisma generate` from trying to download anything.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(new URL("./scripts/schema-engine/engine.mjs", import.meta.url));
// No update checks / telemetry from the CLI.
process.env.CHECKPOINT_DISABLE ??= "1";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: {
    // `prisma generate` needs no database; the fallback only keeps the config from failing without DATABASE_URL.
    url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
  },
});
