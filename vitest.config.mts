import path from "node:path";
import { defineConfig } from "vitest/config";
import { testWorkers } from "./tests/helpers/test-db-url";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/helpers/global-setup.ts"],
    setupFiles: ["tests/helpers/setup-env.ts"],
    // Files run in parallel, one Postgres database per worker (tests/helpers/test-db-url.ts); tables are
    // truncated between tests within a worker. TEST_WORKERS=1 runs them one at a time.
    fileParallelism: testWorkers() > 1,
    maxWorkers: testWorkers(),
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ["default"],
  },
});
