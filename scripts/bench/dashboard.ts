/**
 * Dashboard pages at scale, part of `npm run bench` (alone: `npm run bench -- dashboard`), issue 14:
 * server response time (sequential GETs, wall clock until the last byte of the streamed HTML) of
 * GET /dashboard (overview) and GET /dashboard/payments (first page, newest first) for a signed-in
 * user of an account with 100 000 payments, and, as a baseline in the same run, of an account with
 * ~100. A third account holds other payments, so every query's account scoping matters.
 *
 * Seeds its own database (BENCH_DASHBOARD_DATABASE_URL, default duebill_bench_dashboard, recreated
 * and migrated by the caller): requests and payments are written by INSERT … SELECT over
 * generate_series, spread over 60 days, 7 networks and their currencies, 1 request in 10 paid in
 * two parts, 2 % still pending; then VACUUM ANALYZE (the steady state of a table autovacuum keeps).
 * Starts the production build (scripts/runtime/server.mjs) against it; the rounds alternate between the
 * four cases so drift hits all of them alike. Also counts, from pg_stat, the rows Postgres read in
 * Payment and PaymentRequest per render of each large-account page.
 *
 * Issue 29: the same run times GET /v2/request?walletAddress= (the request list, first page of 20)
 * for the payee of the large account's EVM requests (~81 000 of its ~92 000 requests match) and of
 * the small one, with the same session and target.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import path from "node:path";
import pg from "pg";

export const dashboardDbUrl = process.env.BENCH_DASHBOARD_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/duebill_bench_dashboard";
const PAYMENTS = Number(process.env.BENCH_DASHBOARD_PAYMENTS ?? 100_000);
const BASELINE_PAYMENTS = 100;
const OTHER_PAYMENTS = Number(process.env.BENCH_DASHBOARD_OTHER_PAYMENTS ?? 30_000);
const RUNS = Number(process.env.BENCH_DASHBOARD_RUNS ?? 30);
const WARMUP = 5;
const TARGET_MS = 150;
const DAYS = 60;
/** The payee of every seeded EVM request (the Tron ones have their own). */
const EVM_PAYEE = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const REQUEST_LIST_PATH = `/v2/request?walletAddress=${EVM_PAYEE}`;

/** (network, currency id, token address, decimals): realistic rows that tokenOf() resolves. */
const CURRENCIES: [string, string, string, number][] = [
  ["base", "USDC-base", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", 6],
  ["mainnet", "USDC-mainnet", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", 6],
  ["mainnet", "USDT-mainnet", "0xdAC17F958D2ee523a2206206994597C13D831ec7", 6],
  ["arbitrum-one", "USDC-arbitrum-one", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", 6],
  ["optimism", "USDT-optimism", "0x94b008aA00579c1307B0EF2c499aD98a8ce58e58", 6],
  ["matic", "USDC-matic", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", 6],
  ["bsc", "USDT-bsc", "0x55d398326f99059fF775485246999027B3197955", 18],
  ["tron", "USDT-tron", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", 6],
];

export interface PageTiming {
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

export interface DashboardBenchResult {
  at: string;
  load: { before: number; after: number; cores: number };
  payments: number;
  baselinePayments: number;
  otherPayments: number;
  seedSeconds: number;
  runs: number;
  targetMs: number;
  overview: { large: PageTiming; baseline: PageTiming; ok: boolean };
  paymentsList: { large: PageTiming; baseline: PageTiming; ok: boolean };
  /** GET /v2/request?walletAddress= (issue 29), first page. */
  requestList: { large: PageTiming; baseline: PageTiming; ok: boolean };
  /** Rows read per render of the large account's page (pg_stat: sequential + index tuples), by table. */
  rowsReadPerRender: { overview: Record<string, number>; paymentsList: Record<string, number>; requestList: Record<string, number> };
  ok: boolean;
}

export interface Seeded {
  accountId: string;
  token: string;
}

export async function seedAccount(c: pg.Client, name: string, payments: number, withUser: boolean): Promise<Seeded> {
  const accountId = `acc_${randomBytes(8).toString("hex")}`;
  await c.query(`INSERT INTO "Account" ("id", "name", "updatedAt") VALUES ($1, $2, now())`, [accountId, name]);
  const cur = CURRENCIES.map((_, k) => `(${k}, $${k * 4 + 1}, $${k * 4 + 2}, $${k * 4 + 3}, $${k * 4 + 4}::int)`).join(", ");
  const curParams = CURRENCIES.flat();
  const n = CURRENCIES.length;
  // Groups of 11 payments over 10 requests: the 10th request of each group is paid in two parts.
  const requests = Math.floor(payments / 11) * 10 + Math.min(payments % 11, 10);
  const pending = Math.ceil(requests / 50);
  const p = n * 4;
  await c.query(
    `WITH cur(k, network, currency, token, decimals) AS (VALUES ${cur})
     INSERT INTO "PaymentRequest" ("id", "accountId", "kind", "network", "invoiceCurrency", "paymentCurrency", "tokenAddress",
       "amount", "expectedAmount", "payee", "salt", "paymentReference", "referenceHash", "reference", "customerInfo",
       "status", "createdAt", "updatedAt")
     SELECT '01' || md5($${p + 1} || g) || md5($${p + 1} || 'b' || g), $${p + 1}, 'request', cur.network, cur.currency, cur.currency, cur.token,
       trim_scale((10 + (g::bigint * 7919) % 4990) / 10.0)::text,
       ((10 + (g::bigint * 7919) % 4990) * 10::numeric ^ (cur.decimals - 1))::numeric(78, 0),
       CASE WHEN cur.network = 'tron' THEN 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' ELSE '${EVM_PAYEE}' END,
       substr(md5('salt' || g), 1, 16), '0x' || substr(md5($${p + 1} || 'ref' || g), 1, 16), '0x' || md5($${p + 1} || 'h' || g) || md5($${p + 1} || 'i' || g),
       'INV-' || lpad(g::text, 6, '0'), CASE WHEN g % 3 = 0 THEN jsonb_build_object('email', 'buyer' || g || '@example.com') END,
       'pending',
       -- paid requests were created shortly before their payments; the pending ones are recent
       now() - make_interval(secs => CASE WHEN g < $${p + 3}::int THEN $${p + 2}::float8 * g / $${p + 3}::int + 600 ELSE (g - $${p + 3}::int) * 300 END),
       now()
     FROM generate_series(0, $${p + 3}::int + $${p + 4}::int - 1) g JOIN cur ON cur.k = g % ${n}`,
    [...curParams, accountId, DAYS * 86_400, requests, pending],
  );
  // Payment g belongs to request (g / 11) * 10 + least(g % 11, 9); g = 0 is the newest.
  await c.query(
    `WITH src AS (
       SELECT g, (g / 11) * 10 + least(g % 11, 9) AS r, g % 11 >= 9 AS half FROM generate_series(0, $2::int - 1) g
     )
     INSERT INTO "Payment" ("id", "requestId", "accountId", "network", "txHash", "logIndex", "blockNumber", "blockHash", "payer", "payee",
       "tokenAddress", "amount", "feeAmount", "feeAddress", "proxyAddress", "blockTime")
     SELECT upper(substr(md5($1 || 'p' || src.g), 1, 26)), pr."id", pr."accountId", pr."network",
       '0x' || md5($1 || 't' || src.g) || md5($1 || 'u' || src.g), (src.g % 4)::int, 20000000 + $2::int - src.g,
       '0x' || md5($1 || 'bh' || src.g) || md5($1 || 'bi' || src.g),
       CASE WHEN pr."network" = 'tron' THEN 'T' || substr(md5('payer' || src.g % 5000), 1, 33) ELSE '0x' || substr(md5('payer' || src.g % 5000) || md5('payer-' || src.g % 5000), 1, 40) END,
       pr."payee", pr."tokenAddress",
       CASE WHEN src.half THEN pr."expectedAmount" / 2 ELSE pr."expectedAmount" END,
       CASE WHEN src.g % 5 = 0 THEN pr."expectedAmount" / 1000 ELSE 0 END,
       CASE WHEN src.g % 5 = 0 THEN '0x90F79bf6EB2c4f870365E785982E1f101E93b906' END,
       '0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814',
       now() - make_interval(secs => $3::float8 * src.g / $2::int)
     FROM src JOIN "PaymentRequest" pr ON pr."id" = '01' || md5($1 || src.r) || md5($1 || 'b' || src.r)`,
    [accountId, payments, DAYS * 86_400],
  );
  await c.query(
    `UPDATE "PaymentRequest" pr SET "amountPaid" = s.paid, "paidAt" = s.last, "payer" = s.payer,
       "status" = (CASE WHEN s.paid >= pr."expectedAmount" THEN 'paid' ELSE 'partially_paid' END)::"RequestStatus"
     FROM (SELECT "requestId", sum("amount") AS paid, max("blockTime") AS last, min("payer") AS payer FROM "Payment" WHERE "accountId" = $1 GROUP BY 1) s
     WHERE pr."accountId" = $1 AND pr."id" = s."requestId"`,
    [accountId],
  );
  // The per-day rollup, as lib/detection/record-payment.ts insertPayment keeps it.
  await c.query(
    `INSERT INTO "PaymentDaily" ("accountId", "day", "network", "currency", "kind", "count", "amount")
     SELECT p."accountId", p."blockTime"::date, pr."network", pr."paymentCurrency", pr."kind", count(*), sum(p."amount")
     FROM "Payment" p JOIN "PaymentRequest" pr ON pr."id" = p."requestId" WHERE p."accountId" = $1 GROUP BY 1, 2, 3, 4, 5`,
    [accountId],
  );
  let token = "";
  if (withUser) {
    token = randomBytes(32).toString("base64url");
    const userId = `usr_${randomBytes(8).toString("hex")}`;
    await c.query(`INSERT INTO "User" ("id", "accountId", "email", "updatedAt") VALUES ($1, $2, $3, now())`, [
      userId,
      accountId,
      `${name.toLowerCase().replace(/\W+/g, "-")}@bench.example`,
    ]);
    await c.query(
      `INSERT INTO "Session" ("id", "tokenHash", "userId", "accountId", "kind", "expiresAt") VALUES ($1, $2, $3, $4, 'email', now() + interval '1 day')`,
      [`ses_${randomBytes(8).toString("hex")}`, createHash("sha256").update(token, "utf8").digest("hex"), userId, accountId],
    );
  }
  return { accountId, token };
}

function get(port: number, pathName: string, token: string): Promise<{ ms: number; status: number; body: string }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, path: pathName, method: "GET", headers: { cookie: `session_token=${token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (d: Buffer) => chunks.push(d));
        res.on("end", () =>
          resolve({
            ms: Number(process.hrtime.bigint() - started) / 1e6,
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

async function timed(port: number, pathName: string, token: string): Promise<number> {
  const r = await get(port, pathName, token);
  if (r.status !== 200) throw new Error(`GET ${pathName}: ${r.status}`);
  return r.ms;
}

async function waitReady(port: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await get(port, "/api/bench/empty", "")).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("server did not become ready");
}

function stats(xs: number[]): PageTiming {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => Number((s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? Number.NaN).toFixed(1));
  return { medianMs: at(0.5), p95Ms: at(0.95), maxMs: Number((s.at(-1) ?? Number.NaN).toFixed(1)) };
}

/** Rows read so far in Payment and PaymentRequest: sequential tuples + index entries. */
async function rowsRead(c: pg.Client): Promise<Record<string, number>> {
  const r = await c.query<{ table: string; n: string }>(
    `SELECT t.relname AS table, coalesce(t.seq_tup_read, 0) + coalesce((SELECT sum(i.idx_tup_read) FROM pg_stat_user_indexes i WHERE i.relid = t.relid), 0) AS n
     FROM pg_stat_user_tables t WHERE t.relname IN ('Payment', 'PaymentRequest')`,
  );
  return Object.fromEntries(r.rows.map((x) => [x.table, Number(x.n)]));
}

/** Rows read per render: renders `n` times, then waits for the server's backends to flush their counters. */
async function rowsPerRender(c: pg.Client, port: number, pathName: string, token: string, n = 5): Promise<Record<string, number>> {
  const settle = async () => {
    // Idle backends flush their table counters within ~10 s (PGSTAT_IDLE_INTERVAL).
    let last = await rowsRead(c);
    for (let i = 0; i < 24; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      const now = await rowsRead(c);
      if (i >= 11 && JSON.stringify(now) === JSON.stringify(last)) return now;
      last = now;
    }
    return last;
  };
  const before = await settle();
  for (let i = 0; i < n; i++) await timed(port, pathName, token);
  const after = await settle();
  return Object.fromEntries(Object.keys(after).map((k) => [k, Math.round(((after[k] ?? 0) - (before[k] ?? 0)) / n)]));
}

/**
 * The whole case. `prepare` recreates and migrates the database at dashboardDbUrl; `env` is the
 * production server's environment (DATABASE_URL is overridden here).
 */
export async function measureDashboard(opts: {
  root: string;
  env: NodeJS.ProcessEnv;
  port: number;
  prepare: () => Promise<void>;
}): Promise<DashboardBenchResult> {
  const os = await import("node:os");
  const loadBefore = os.loadavg()[0] ?? 0;
  await opts.prepare();
  const c = new pg.Client({ connectionString: dashboardDbUrl });
  await c.connect();
  const server: { p?: ChildProcess } = {};
  try {
    const seedStart = Date.now();
    const large = await seedAccount(c, "Large merchant", PAYMENTS, true);
    await seedAccount(c, "Other merchant", OTHER_PAYMENTS, false);
    const small = await seedAccount(c, "Small merchant", BASELINE_PAYMENTS, true);
    await c.query(`VACUUM ANALYZE`);
    const seedSeconds = Number(((Date.now() - seedStart) / 1000).toFixed(1));
    const counted = await c.query<{ n: string }>(`SELECT count(*) AS n FROM "Payment"`);
    console.log(`dashboard bench: seeded ${counted.rows[0]?.n} payments in ${seedSeconds} s`);

    server.p = spawn(
      process.execPath,
      [path.join(opts.root, "scripts/runtime/server.mjs"), "--port", String(opts.port), "--hostname", "127.0.0.1"],
      { cwd: opts.root, env: { ...opts.env, DATABASE_URL: dashboardDbUrl }, stdio: ["ignore", "ignore", "inherit"] },
    );
    await waitReady(opts.port);
    // The pages show what they should (a redirect to /sign-in or another account's list would time nothing useful).
    const list = await get(opts.port, "/dashboard/payments", large.token);
    if (list.status !== 200 || !list.body.includes(`${PAYMENTS} payments`))
      throw new Error(`/dashboard/payments: ${list.status}, no "${PAYMENTS} payments"`);
    const overview = await get(opts.port, "/dashboard", large.token);
    if (overview.status !== 200 || !overview.body.includes("Recent payments")) throw new Error(`/dashboard: ${overview.status}`);
    const requests = await get(opts.port, REQUEST_LIST_PATH, large.token);
    const listed = requests.status === 200 ? (JSON.parse(requests.body) as { requests: unknown[]; pagination: { total: number } }) : null;
    if (listed?.requests.length !== 20 || listed.pagination.total < PAYMENTS / 2)
      throw new Error(`${REQUEST_LIST_PATH}: ${requests.status} ${requests.body.slice(0, 200)}`);

    const cases = [
      { key: "overview.large", path: "/dashboard", token: large.token },
      { key: "list.large", path: "/dashboard/payments", token: large.token },
      { key: "overview.baseline", path: "/dashboard", token: small.token },
      { key: "list.baseline", path: "/dashboard/payments", token: small.token },
      { key: "requests.large", path: REQUEST_LIST_PATH, token: large.token },
      { key: "requests.baseline", path: REQUEST_LIST_PATH, token: small.token },
    ];
    for (const k of cases) for (let i = 0; i < WARMUP; i++) await timed(opts.port, k.path, k.token);
    const times = new Map<string, number[]>(cases.map((k) => [k.key, []]));
    for (let i = 0; i < RUNS; i++) {
      for (const k of i % 2 === 0 ? cases : [...cases].reverse()) times.get(k.key)!.push(await timed(opts.port, k.path, k.token));
    }
    const rowsOverview = await rowsPerRender(c, opts.port, "/dashboard", large.token);
    const rowsList = await rowsPerRender(c, opts.port, "/dashboard/payments", large.token);
    const rowsRequests = await rowsPerRender(c, opts.port, REQUEST_LIST_PATH, large.token);
    const t = (k: string) => stats(times.get(k)!);
    const ov = { large: t("overview.large"), baseline: t("overview.baseline") };
    const li = { large: t("list.large"), baseline: t("list.baseline") };
    const ovOk = ov.large.medianMs <= TARGET_MS && ov.large.p95Ms <= TARGET_MS;
    const liOk = li.large.medianMs <= TARGET_MS && li.large.p95Ms <= TARGET_MS;
    const rq = { large: t("requests.large"), baseline: t("requests.baseline") };
    const rqOk = rq.large.medianMs <= TARGET_MS && rq.large.p95Ms <= TARGET_MS;
    return {
      at: new Date().toISOString(),
      load: { before: loadBefore, after: os.loadavg()[0] ?? 0, cores: os.cpus().length },
      payments: PAYMENTS,
      baselinePayments: BASELINE_PAYMENTS,
      otherPayments: OTHER_PAYMENTS,
      seedSeconds,
      runs: RUNS,
      targetMs: TARGET_MS,
      overview: { ...ov, ok: ovOk },
      paymentsList: { ...li, ok: liOk },
      requestList: { ...rq, ok: rqOk },
      rowsReadPerRender: { overview: rowsOverview, paymentsList: rowsList, requestList: rowsRequests },
      ok: ovOk && liOk && rqOk,
    };
  } finally {
    server.p?.kill("SIGTERM");
    await c.end();
  }
}

/** Prints the table; true when both pages meet the target. */
export function printDashboard(r: DashboardBenchResult): boolean {
  const row = (name: string, x: PageTiming) =>
    `  ${name.padEnd(48)} ${String(x.medianMs).padStart(7)} ${String(x.p95Ms).padStart(7)} ${String(x.maxMs).padStart(7)}`;
  const verdict = (ok: boolean) => `(target median and p95 ≤ ${r.targetMs} ms) ${ok ? "OK" : "OVER"}`;
  console.log(
    `\nDashboard server response time, ${r.runs} sequential GETs each after ${WARMUP} warm-up (load ${r.load.before.toFixed(2)} → ${r.load.after.toFixed(2)} on ${r.load.cores} cores):`,
  );
  console.log(`  ${"".padEnd(48)} ${"median".padStart(7)} ${"p95".padStart(7)} ${"max".padStart(7)}  ms`);
  console.log(row(`GET /dashboard, ${r.payments} payments`, r.overview.large), ` ${verdict(r.overview.ok)}`);
  console.log(row(`GET /dashboard, ${r.baselinePayments} payments (baseline)`, r.overview.baseline));
  console.log(row(`GET /dashboard/payments, ${r.payments} payments`, r.paymentsList.large), ` ${verdict(r.paymentsList.ok)}`);
  console.log(row(`GET /dashboard/payments, ${r.baselinePayments} payments (baseline)`, r.paymentsList.baseline));
  console.log(row(`GET /v2/request?walletAddress=, ${r.payments} payments`, r.requestList.large), ` ${verdict(r.requestList.ok)}`);
  console.log(row(`GET /v2/request?walletAddress=, ${r.baselinePayments} payments (baseline)`, r.requestList.baseline));
  const rows = (x: Record<string, number>) =>
    Object.entries(x)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ");
  console.log(
    `  Rows read per render (${r.payments} payments): overview ${rows(r.rowsReadPerRender.overview)}; list ${rows(r.rowsReadPerRender.paymentsList)}; ` +
      `request list ${rows(r.rowsReadPerRender.requestList)}`,
  );
  return r.ok;
}
