/**
 * Cost curve `search` (`npm run bench -- scale search`, issue 33 item 4): payment search (GET /v2/payments,
 * whose code the dashboard's /dashboard/payments list runs too) and the dashboard overview's reads, for
 * accounts of 10^4, 10^5 and 10^6 payments.
 *
 * Its own database (BENCH_SCALE_SEARCH_DATABASE_URL, default duebill_bench_scale_search), recreated and
 * migrated, then seeded in bulk with SQL by the dashboard bench's seeder (scripts/bench/dashboard.ts
 * seedAccount: INSERT … SELECT generate_series, 60 days, 8 currencies on 7 networks, 1 request in 10 paid
 * in two parts, the per-day rollup), one account per size in the same tables (1.11 million payments: every
 * query's account scoping matters), then VACUUM ANALYZE. BENCH_SCALE_SEARCH_SIZES (comma-separated) changes
 * the sizes; BENCH_SCALE_SEARCH_REUSE=true keeps an already seeded database (migrations still applied).
 *
 * The cases run in a child process (search-child.ts): each one's median time and the rows Postgres read
 * (EXPLAIN ANALYZE of the statements it sent). One table per case, then the summary: the slowest of the
 * bounded cases (a page, one wallet, one transaction, one reference, a rollup count) per size. The rule:
 * at 100× the payments, a bounded case reads at most 10× the rows. The unbounded ones (OFFSET 5 000
 * skips 5 000 rows at any size; an hour's window holds more payments in a busier account) are printed for
 * their slope, not held to it.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { type Curve, type CurvePoint, type CurveResult, printCurve } from "../curve";
import { seedAccount } from "../dashboard";
import type { ChildAccount, ChildCase } from "./search-child";

const dbUrl = process.env.BENCH_SCALE_SEARCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/duebill_bench_scale_search";
const SIZES = (process.env.BENCH_SCALE_SEARCH_SIZES ?? "10000,100000,1000000").split(",").map(Number);
const RUNS = Number(process.env.BENCH_SCALE_SEARCH_RUNS ?? 5);
const REUSE = process.env.BENCH_SCALE_SEARCH_REUSE === "true";
/** Cases whose work grows with what they skip or match, not with the account: shown, not held to the rule. */
const UNBOUNDED = new Set(["search: offset 5 000", "search: one hour"]);
const ROOT = path.resolve(import.meta.dirname, "../../..");

const pow = (n: number) => (Math.log10(n) % 1 === 0 ? `10^${Math.log10(n)}` : String(n));

async function recreate(): Promise<void> {
  const admin = new URL(dbUrl);
  admin.pathname = "/postgres";
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  const name = new URL(dbUrl).pathname.slice(1);
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.query(`CREATE DATABASE "${name}"`);
  await c.end();
}

function migrate(): void {
  const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: dbUrl },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (r.status !== 0) throw new Error("search curve: prisma migrate deploy failed");
}

async function seeded(c: pg.Client): Promise<Map<number, string>> {
  const r = await c.query<{ id: string; name: string }>(`SELECT "id", "name" FROM "Account" WHERE "name" LIKE 'Search %'`);
  return new Map(r.rows.map((x) => [Number(x.name.slice("Search ".length)), x.id]));
}

/** What the cases look for: a payer, a transaction and a reference from the middle of the account's history. */
async function targetsOf(c: pg.Client, size: number, accountId: string): Promise<ChildAccount> {
  const r = await c.query<{ payer: string; txHash: string; reference: string; blockTime: Date }>(
    `SELECT p."payer", p."txHash", pr."reference", p."blockTime" FROM "Payment" p JOIN "PaymentRequest" pr ON pr."id" = p."requestId"
     WHERE p."accountId" = $1 AND p."network" <> 'tron' ORDER BY p."blockTime" DESC, p."id" DESC OFFSET $2 LIMIT 1`,
    [accountId, Math.floor(size / 2)],
  );
  const t = r.rows[0];
  if (!t) throw new Error(`search curve: account ${accountId} has no payments`);
  const iso = (d: Date) => `${d.toISOString().slice(0, 19)}Z`;
  return {
    size,
    accountId,
    payer: t.payer,
    txHash: t.txHash,
    reference: t.reference,
    fromDate: iso(new Date(t.blockTime.getTime() - 1_800_000)),
    toDate: iso(new Date(t.blockTime.getTime() + 1_800_000)),
  };
}

async function measure(): Promise<CurveResult> {
  if (!REUSE) await recreate();
  migrate();
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  let accounts: ChildAccount[];
  try {
    let ids = await seeded(c);
    const missing = SIZES.filter((s) => !ids.has(s));
    if (missing.length > 0) {
      const started = Date.now();
      for (const size of missing) await seedAccount(c, `Search ${size}`, size, false);
      await c.query("VACUUM ANALYZE");
      console.log(`search curve: seeded ${missing.map(pow).join(", ")} payments in ${((Date.now() - started) / 1000).toFixed(0)} s`);
      ids = await seeded(c);
    }
    accounts = [];
    for (const size of SIZES) accounts.push(await targetsOf(c, size, ids.get(size)!));
  } finally {
    await c.end();
  }
  const r = spawnSync(
    process.execPath,
    [
      path.join(ROOT, "node_modules/tsx/dist/cli.mjs"),
      path.join(ROOT, "scripts/bench/scale/search-child.ts"),
      JSON.stringify({ accounts, runs: RUNS }),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: dbUrl, LOG_LEVEL: "warn" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", process.env.BENCH_SCALE_SEARCH_DEBUG ? "inherit" : "pipe"],
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  if (r.status !== 0) throw new Error(`search curve child failed: ${r.stderr}`);
  const results = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as ChildCase[];
  const keys = [...new Set(results.map((x) => x.key))];
  const pointOf = (x: ChildCase): CurvePoint => ({
    work: `${pow(x.size)} payments`,
    size: x.size,
    ms: x.ms,
    extra: { "rows read": x.rows, buffers: x.buffers, statements: x.statements },
  });
  for (const key of keys)
    printCurve({
      name: `  ${key}${UNBOUNDED.has(key) ? " (unbounded: not held to the rule)" : ""}`,
      points: results.filter((x) => x.key === key).map(pointOf),
    });
  // The summary: per size, the slowest bounded case; the rule on each bounded case's rows read.
  const bounded = results.filter((x) => !UNBOUNDED.has(x.key));
  const smallest = SIZES[0]!;
  const largest = SIZES.at(-1)!;
  const over = keys.filter((k) => {
    if (UNBOUNDED.has(k)) return false;
    const at = (s: number) => bounded.find((x) => x.key === k && x.size === s)?.rows ?? 0;
    return at(largest) > 10 * Math.max(at(smallest), 100);
  });
  const points = SIZES.map((size) => {
    const mine = bounded.filter((x) => x.size === size);
    const worst = mine.reduce((a, b) => (b.ms > a.ms ? b : a));
    return {
      work: `${pow(size)} payments`,
      size,
      ms: worst.ms,
      extra: { slowest: worst.key.replace(/^\w+: /, ""), "max rows read": Math.max(...mine.map((x) => x.rows)) },
    };
  });
  return {
    name: `Payment search and dashboard (slowest bounded case per size; ${over.length ? `over: ${over.join(", ")}` : "all bounded cases flat"})`,
    points,
    rule: "bounded cases: rows read at 100× the payments ≤ 10× (floor 100 rows)",
    ok: over.length === 0,
  };
}

export default { key: "search", measure } satisfies Curve;
