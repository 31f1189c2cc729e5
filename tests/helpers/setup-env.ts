import { testDatabaseUrl } from "./test-db-url";

process.env.DATABASE_URL = testDatabaseUrl();
process.env.DATABASE_POOL_MAX ??= "5";
process.env.LOG_LEVEL ??= "silent";
// Tests revoke credentials and expect the next request to see it.
process.env.CREDENTIAL_CACHE_TTL_MS = "0";
// Suites fire requests faster than any tier allows; tests/rate-limit*.test.ts set their own limits.
process.env.RATE_LIMIT_MULTIPLIER ??= "1000";
