/**
 * `npm run bench -- exports` (and the full bench): GET /v2/exports/payments at 10 000 and 100 000
 * payments (issue 30: "streams in constant memory, measured"). On its own database
 * (BENCH_EXPORTS_DATABASE_URL, default duebill_bench_exports) it seeds two accounts with
 * INSERT … SELECT generate_series (one request per payment, one payment in seven with a fee, references
 * with commas and quotes), then exports each through the real route handler in a fresh child process
 * (scripts/bench/exports-child.ts) that counts the bytes and samples its own RSS, twice per size: with
 * V8's own GC schedule (the natural peak, reported) and with a full GC every 10 chunks (--expose-gc), which
 * shows what the export keeps alive. Constant memory: with the collection, the RSS growth over the child's
 * warmed-up baseline is about the same for 10× the rows (target: the 100 000-row growth ≤ 2× the
 * 10 000-row growth, and under 64 MB) and the live heap does not grow with the rows.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";

export const exportsDbUrl = process.env.BENCH_EXPORTS_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/duebill_bench_exports";
const LARGE = Number(process.env.BENCH_EXPORTS_PAYMENTS ?? 100_000);
const SMALL = LARGE / 10;
const MAX_GROWTH_MB = 64;

export interface ExportRun {
  payments: number;
  rows: number;
  megabytes: number;
  seconds: number;
  rowsPerSecond: number;
  baselineRssMb: number;
  peakRssMb: number;
  growthMb: number;
  /** heapUsed after a full GC: at the warmed-up baseline and its peak during the export (the collected runs only). */
  liveHeapMb?: { baseline: number; peak: number };
}

export interface ExportsBenchResult {
  at: string;
  seedSeconds: number;
  /** With a full GC every 10 chunks. */
  small: ExportRun;
  large: ExportRun;
  /** With V8's own GC schedule. */
  natural: { small: ExportRun; large: ExportRun };
  /** large.growthMb / small.growthMb (collected runs): ~1 when memory does not depend on the export's size. */
  growthRatio: number;
  ok: boolean;
}

async function seed(c: pg.Client, payments: number): Promise<string> {
  const accountId = `acc_${randomBytes(8).toString("hex")}`;
  await c.query(`INSERT INTO "Account" ("id", "name", "updatedAt") VALUES ($1, $2, now())`, [accountId, `Exports ${payments}`]);
  await c.query(
    `INSERT INTO "PaymentRequest" ("id", "accountId", "kind", "network", "invoiceCurrency", "paymentCurrency", "tokenAddress", "amount",
       "expectedAmount", "amountPaid", "payee", "payer", "salt", "paymentReference", "referenceHash", "reference", "status", "createdAt", "updatedAt")
     SELECT '01' || md5($1 || g) || md5($1 || 'b' || g), $1, 'request', 'base', 'USD', 'USDC-base', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
       ((10 + g % 4990) / 10.0)::text, (10 + g % 4990) * 100000, (10 + g % 4990) * 100000,
       '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', '00',
       '0x' || substr(md5($1 || 'r' || g), 1, 16), '0x' || md5($1 || 'h' || g) || md5($1 || 'i' || g),
       CASE WHEN g % 10 = 0 THEN 'Order ' || g || ', "rush"' ELSE 'INV-' || lpad(g::text, 6, '0') END,
       'paid', now() - make_interval(secs => g * 30 + 60), now()
     FROM generate_series(0, $2::int - 1) g`,
    [accountId, payments],
  );
  await c.query(
    `INSERT INTO "Payment" ("id", "requestId", "accountId", "network", "txHash", "logIndex", "blockNumber", "blockHash", "payer", "payee",
       "tokenAddress", "amount", "feeAmount", "feeAddress", "proxyAddress", "blockTime")
     SELECT upper(substr(md5($1 || 'p' || g), 1, 26)), '01' || md5($1 || g) || md5($1 || 'b' || g), $1, 'base',
       '0x' || md5($1 || 't' || g) || md5($1 || 'u' || g), g % 4, 30000000 - g, '0x' || md5($1 || 'k' || g) || md5($1 || 'l' || g),
       '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', '0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
       (10 + g % 4990) * 100000, CASE WHEN g % 7 = 0 THEN 50000 ELSE 0 END,
       CASE WHEN g % 7 = 0 THEN '0x90F79bf6EB2c4f870365E785982E1f101E93b906' END, '0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814',
       -- every 3 payments share a block time: ties the keyset must order by id
       now() - make_interval(secs => (g / 3) * 90)
     FROM generate_series(0, $2::int - 1) g`,
    [accountId, payments],
  );
  return accountId;
}

function exportIn(root: string, accountId: string, payments: number, collect: boolean): ExportRun {
  const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");
  const nodeOptions = [process.env.NODE_OPTIONS, collect ? "--expose-gc" : ""].filter(Boolean).join(" ");
  const r = spawnSync(process.execPath, [tsx, path.join(root, "scripts/bench/exports-child.ts"), accountId, "csv"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_OPTIONS: nodeOptions,
      DATABASE_URL: exportsDbUrl,
      LOG_LEVEL: "warn",
      RATE_LIMIT_MULTIPLIER: "1000",
      NODE_ENV: "production",
    },
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`exports child failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout.trim().split("\n").pop()!) as {
    rows: number;
    bytes: number;
    seconds: number;
    baselineRss: number;
    peakRss: number;
    baselineHeap: number;
    peakHeap: number;
  };
  const mb = (n: number) => Number((n / 2 ** 20).toFixed(1));
  return {
    payments,
    rows: out.rows,
    megabytes: mb(out.bytes),
    seconds: Number(out.seconds.toFixed(2)),
    rowsPerSecond: Math.round(out.rows / out.seconds),
    baselineRssMb: mb(out.baselineRss),
    peakRssMb: mb(out.peakRss),
    growthMb: mb(out.peakRss - out.baselineRss),
    ...(collect ? { liveHeapMb: { baseline: mb(out.baselineHeap), peak: mb(out.peakHeap) } } : {}),
  };
}

/** `prepare` gives a fresh, migrated database at exportsDbUrl. */
export async function measureExports(opts: { root: string; prepare: () => Promise<void> }): Promise<ExportsBenchResult> {
  await opts.prepare();
  const c = new pg.Client({ connectionString: exportsDbUrl });
  await c.connect();
  const started = Date.now();
  const small = await seed(c, SMALL);
  const large = await seed(c, LARGE);
  await c.query("ANALYZE");
  await c.end();
  const seedSeconds = Number(((Date.now() - started) / 1000).toFixed(1));
  console.log(`exports bench: seeded ${SMALL + LARGE} payments in ${seedSeconds} s`);
  const smallRun = exportIn(opts.root, small, SMALL, true);
  const largeRun = exportIn(opts.root, large, LARGE, true);
  const natural = { small: exportIn(opts.root, small, SMALL, false), large: exportIn(opts.root, large, LARGE, false) };
  // A growth under 1 MB is noise: the ratio is taken over at least 1 MB.
  const growthRatio = Number((Math.max(largeRun.growthMb, 1) / Math.max(smallRun.growthMb, 1)).toFixed(2));
  const ok = smallRun.rows === SMALL && largeRun.rows === LARGE && growthRatio <= 2 && largeRun.growthMb <= MAX_GROWTH_MB;
  return { at: new Date().toISOString(), seedSeconds, small: smallRun, large: largeRun, natural, growthRatio, ok };
}

export function printExports(r: ExportsBenchResult): boolean {
  console.log("\nGET /v2/exports/payments (CSV), route handler → counting sink, a fresh process per export:");
  const line = (run: ExportRun, how: string) =>
    console.log(
      `  ${run.payments} payments, ${how}: ${run.rows} rows, ${run.megabytes} MB in ${run.seconds} s (${run.rowsPerSecond} rows/s); RSS ${run.baselineRssMb} → peak ${run.peakRssMb} MB (+${run.growthMb} MB)${run.liveHeapMb ? `; live heap ${run.liveHeapMb.baseline} → ${run.liveHeapMb.peak} MB` : ""}`,
    );
  for (const run of [r.small, r.large]) line(run, "GC every 10 chunks");
  for (const run of [r.natural.small, r.natural.large]) line(run, "V8's own GC");
  console.log(
    `  RSS growth ratio 100k/10k: ${r.growthRatio}  (target ≤ 2, growth ≤ ${MAX_GROWTH_MB} MB: constant memory) ${r.ok ? "OK" : "OVER"}`,
  );
  return r.ok;
}
