import { generateKeyPairSync } from "node:crypto";

/** An Ed25519 key made for this run, once per bench process (receipts signed during the bench are thrown away with its database). */
let receiptKeys: string | undefined;
const benchReceiptKeys = () =>
  (receiptKeys ??= JSON.stringify([
    { keyId: "rk_bench", privateKey: generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString() },
  ]));

/**
 * The environment of the production server (`next build` output, scripts/runtime/server.mjs) a bench
 * starts against `databaseUrl`: the caller's environment, then the bench's fixed settings.
 * `signReceipts`: production signs each payment's receipt inside detection's transaction, so the
 * benches that measure detection give the server a key and that cost is measured too. `extra` is
 * laid over the rest.
 */
export function benchServerEnv(
  databaseUrl: string,
  opts: { signReceipts?: boolean; extra?: Record<string, string> } = {},
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    CHECKPOINT_DISABLE: "1",
    BENCH_ROUTES: "true",
    LOG_LEVEL: "warn",
    // The production server refuses to start without one (scripts/runtime/server.mjs); a fixed value for a local bench.
    APP_SECRET: process.env.APP_SECRET ?? "duebill-bench-app-secret-not-for-production-use",
    ...(opts.signReceipts ? { RECEIPT_SIGNING_KEYS: process.env.RECEIPT_SIGNING_KEYS ?? benchReceiptKeys() } : {}),
    // The limiter stays on (its cost is part of every route) but must not refuse the load itself.
    RATE_LIMIT_MULTIPLIER: "1000",
    ...opts.extra,
  };
}
