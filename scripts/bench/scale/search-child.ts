/**
 * The search curve's measuring process (scripts/bench/scale/search.ts starts it with DATABASE_URL on the
 * curve's own database, so no other curve's Prisma client is reused): runs each case through the code the
 * routes run — searchPayments (GET /v2/payments and /dashboard/payments), accountOverview and
 * recentPayments (/dashboard) — times it (median of RUNS after a warm-up), then runs it once more
 * capturing every SQL statement Prisma sends and replays each under EXPLAIN (ANALYZE, BUFFERS) to count
 * the rows Postgres read (heap and index scans: rows returned + rows removed by filter, × loops) and
 * the buffers it touched. Prints one JSON line.
 * Usage: tsx scripts/bench/scale/search-child.ts '<json: { accounts: ChildAccount[], runs }>'
 */
import pg from "pg";

export interface ChildAccount {
  size: number;
  accountId: string;
  payer: string;
  txHash: string;
  reference: string;
  fromDate: string;
  toDate: string;
}

export interface ChildCase {
  key: string;
  size: number;
  ms: number;
  rows: number;
  buffers: number;
  statements: number;
}

interface PlanNode {
  "Node Type": string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
}

const HEAP_SCANS = new Set(["Seq Scan", "Index Scan", "Index Only Scan", "Bitmap Heap Scan"]);

function rowsOf(n: PlanNode): number {
  const own = HEAP_SCANS.has(n["Node Type"])
    ? ((n["Actual Rows"] ?? 0) + (n["Rows Removed by Filter"] ?? 0) + (n["Rows Removed by Index Recheck"] ?? 0)) * (n["Actual Loops"] ?? 1)
    : 0;
  return own + (n.Plans ?? []).reduce((s, c) => s + rowsOf(c), 0);
}

/** Every statement the pg driver sends while `capturing` is set (Prisma's adapter goes through pg.Client#query). */
const captured: { text: string; values: unknown[] }[] = [];
let capturing = false;
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (capturing) {
    const a = args[0] as string | { text: string; values?: unknown[] };
    const text = typeof a === "string" ? a : a.text;
    const values = (typeof a === "string" ? (args[1] as unknown[] | undefined) : a.values) ?? [];
    if (/^\s*(WITH|SELECT)\b/i.test(text)) captured.push({ text, values });
  }
  return (original as (...x: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2]!) as { accounts: ChildAccount[]; runs: number };
  const { searchPayments } = await import("@/lib/requests/search-payments");
  const { accountOverview, recentPayments } = await import("@/lib/requests/account-overview");
  const { disconnectDb } = await import("@/lib/db");
  // The seeder's bulk writes left the status-count triggers' +1/-1 rows unfolded (up to two per request it
  // paid); a running worker folds them within its 15 s interval. Fold them as it would, and say what it cost.
  const { foldStatusCounts } = await import("@/lib/requests/status-counts");
  const foldStart = process.hrtime.bigint();
  const folded = await foldStatusCounts();
  console.error(`search curve: folded ${folded} status-count rows in ${(Number(process.hrtime.bigint() - foldStart) / 1e6).toFixed(0)} ms`);
  // Then as autovacuum leaves it (the table's settings: after 1 000 changes), like the seeded tables' VACUUM ANALYZE.
  const { db } = await import("@/lib/db");
  await db().$executeRawUnsafe(`VACUUM ANALYZE "StatusCountDelta"`);
  const explainer = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await explainer.connect();
  const out: ChildCase[] = [];
  try {
    for (const a of input.accounts) {
      const cases: [string, () => Promise<unknown>][] = [
        ["search: first page", () => searchPayments(a.accountId, {})],
        ["search: offset 5 000", () => searchPayments(a.accountId, { offset: "5000" })],
        ["search: walletAddress", () => searchPayments(a.accountId, { walletAddress: a.payer })],
        ["search: txHash", () => searchPayments(a.accountId, { txHash: a.txHash.toUpperCase().replace("0X", "0x") })],
        ["search: reference", () => searchPayments(a.accountId, { reference: a.reference })],
        ["search: network", () => searchPayments(a.accountId, { network: "base" })],
        ["search: paymentCurrency", () => searchPayments(a.accountId, { paymentCurrency: "USDT" })],
        ["search: direction", () => searchPayments(a.accountId, { direction: "incoming" })],
        ["search: one hour", () => searchPayments(a.accountId, { fromDate: a.fromDate, toDate: a.toDate })],
        ["dashboard: overview", () => accountOverview(a.accountId)],
        ["dashboard: recent", () => recentPayments(a.accountId)],
      ];
      for (const [key, run] of cases) {
        await run();
        const times: number[] = [];
        for (let i = 0; i < input.runs; i++) {
          const t = process.hrtime.bigint();
          await run();
          times.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
        captured.length = 0;
        capturing = true;
        await run();
        capturing = false;
        let rows = 0;
        let buffers = 0;
        for (const s of captured) {
          const r = await explainer.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
            `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${s.text}`,
            s.values,
          );
          const plan = r.rows[0]!["QUERY PLAN"][0]!.Plan;
          rows += rowsOf(plan);
          if (process.env.BENCH_SCALE_SEARCH_DEBUG)
            console.error(`${a.size} ${key}: ${rowsOf(plan)} rows  ${s.text.replace(/\s+/g, " ").slice(0, 400)}`);
          buffers += (plan["Shared Hit Blocks"] ?? 0) + (plan["Shared Read Blocks"] ?? 0);
        }
        const sorted = times.sort((x, y) => x - y);
        out.push({ key, size: a.size, ms: sorted[Math.floor(sorted.length / 2)]!, rows, buffers, statements: captured.length });
      }
    }
  } finally {
    await explainer.end();
    await disconnectDb();
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
