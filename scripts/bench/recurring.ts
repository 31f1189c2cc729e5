/**
 * Recurring executor, part of `npm run bench` (alone: `npm run bench -- recurring`), issue 11:
 *  (a) throughput: N active schedules, all due, swept by the real executor (sweepRecurringChain) against
 *      an in-process chain that always simulates ok and mines each send at once; payments/s = first
 *      payments sent per second of sweep wall time (sweeps back to back, no worker interval);
 *  (b) an idle sweep: 100 000 schedules, nothing due (active with a future nextDueAt, paused,
 *      completed, other networks) and their past payments (~250 000 RecurringPayment rows);
 *      median wall time of sweepRecurringChain, the claim's plan, and the scans Postgres counted.
 * The chain implements the optional fillNonceGap/withdraw too (as the EVM chain does), so each
 * sweep runs the same statements as in production.
 * Runs against the bench DB (DATABASE_URL set by bench.ts) and deletes what it created.
 */
import os from "node:os";
import pg from "pg";
import type { ChainSchedule, ReceiptStatus, RecurringChain, SimulationResult } from "@/lib/recurring/chain";

const DAY = 86_400;
const NETWORK = "base";

export interface RecurringThroughput {
  concurrency: number;
  schedules: number;
  sent: number;
  sweeps: number;
  claimed: number;
  seconds: number;
  perSecond: number;
  /** Until every first payment is also confirmed (reconciled by a later sweep). */
  confirmed: number;
  confirmedSeconds: number;
  /** CPU (user + system) of this Node process over the run, seconds: Prisma + executor, without Postgres. */
  nodeCpuSeconds: number;
}

export interface ScanCounts {
  claimIndex: number;
  scheduleIndex: number;
  scheduleSeq: number;
  paymentIndex: number;
  paymentSeq: number;
}

export interface RecurringBenchResult {
  at: string;
  /** 1-minute load average before and after, and the cores: other processes on the machine skew these figures. */
  load: { before: number; after: number; cores: number };
  limit: number;
  maxBatches: number;
  single: RecurringThroughput;
  concurrent: RecurringThroughput;
  throughputTarget: number;
  throughputOk: boolean;
  violations: number;
  idle: {
    schedules: number;
    runs: number;
    medianMs: number;
    p95Ms: number;
    maxMs: number;
    claimedPerRun: number;
    /** Scan nodes on RecurringSchedule in EXPLAIN ANALYZE of the claim statement. */
    scanNodes: string[];
    /** RecurringPayment rows (the schedules' past payments) present during the idle sweeps. */
    paymentRows: number;
    /** Sweeps counted by `scans` (the timed runs and 3 warm-up runs). */
    countedSweeps: number;
    /** Scans Postgres counted over those sweeps, per sweep: the claim's index, and every index/sequential scan per table. */
    scansPerSweep: ScanCounts;
    plan: string[];
    targetMs: number;
    ok: boolean;
  };
}

/**
 * The chain, in process and instant: every simulation passes, send() mines at once (the index is
 * paid, its nonce used, its receipt a success), so the next sweep's reconcile confirms it. A send
 * of an index already paid or a reused nonce counts as a violation.
 */
class InstantChain implements RecurringChain {
  readonly network = NETWORK;
  readonly lastPaid = new Map<string, number>();
  readonly usedNonces = new Set<number>();
  readonly receipts = new Set<string>();
  nonces = 0;
  sends = 0;
  violations = 0;
  constructor(readonly time: number) {}
  async latestBlockTime() {
    return this.time;
  }
  async isPaid(s: ChainSchedule, index: number) {
    return (this.lastPaid.get(s.id) ?? 0) >= index;
  }
  async lastPaidIndex(s: ChainSchedule) {
    return this.lastPaid.get(s.id) ?? 0;
  }
  async isCancelled() {
    return false;
  }
  async simulate(): Promise<SimulationResult> {
    return { ok: true };
  }
  async send(s: ChainSchedule, index: number, nonce: number) {
    if (this.usedNonces.has(nonce) || (this.lastPaid.get(s.id) ?? 0) !== index - 1) this.violations++;
    this.usedNonces.add(nonce);
    this.lastPaid.set(s.id, index);
    const hash = `0x${(++this.sends).toString(16).padStart(64, "0")}`;
    this.receipts.add(hash);
    return hash;
  }
  async receipt(hash: string): Promise<ReceiptStatus> {
    return this.receipts.has(hash) ? "success" : "unknown";
  }
  async nextNonce() {
    return this.nonces++;
  }
  async nonceUsed(nonce: number) {
    return this.usedNonces.has(nonce);
  }
  /** Every send is mined at once: never a gap below a sent nonce (the EVM chain answers null without a transaction). */
  async fillNonceGap(): Promise<number | null> {
    return null;
  }
  async withdraw(nonce: number) {
    this.usedNonces.add(nonce);
    return `0x${(++this.sends).toString(16).padStart(64, "0")}`;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const round1 = (x: number) => Number(x.toFixed(1));

export async function measureRecurring(
  opts: { schedules?: number; idleSchedules?: number; runs?: number; concurrency?: number; limit?: number; maxBatches?: number } = {},
): Promise<RecurringBenchResult> {
  const N = opts.schedules ?? 2000;
  const IDLE = opts.idleSchedules ?? 100_000;
  const RUNS = opts.runs ?? 20;
  const CONCURRENCY = opts.concurrency ?? 4;
  const limit = opts.limit ?? 200;
  const maxBatches = opts.maxBatches ?? 1000;
  const { db, disconnectDb } = await import("@/lib/db");
  const { createAccount } = await import("@/lib/accounts/issue-credentials");
  const { sweepRecurringChain } = await import("@/lib/recurring/executor");
  const loadBefore = os.loadavg()[0]!;
  const account = await createAccount("bench recurring");
  const tag = `benchrec_${Date.now().toString(36)}_`;
  const now = Math.floor(Date.now() / 1000);

  /**
   * `count` schedules of 12 monthly payments (due times 30 days apart). kind "due": active on
   * base, nothing paid, the first payment due within the last hour (distinct times). kind "idle":
   * nothing due at `now` — 60 % active on base and 20 % on arbitrum-one with 0–3 payments made and
   * the next one 1 h to 30 days ahead, 10 % paused (0–3 made, the next one overdue), 10 % completed
   * (12 made) — with one confirmed RecurringPayment row per payment made.
   */
  async function insertSchedules(prefix: string, count: number, kind: "due" | "idle"): Promise<void> {
    const idle = kind === "idle";
    const processed = idle ? "CASE WHEN g % 10 = 9 THEN 12 ELSE g % 4 END" : "0";
    const next = idle
      ? `CASE g % 10 WHEN 8 THEN ${now} - ${DAY} WHEN 9 THEN ${now} - ${DAY} + 30 * ${DAY} ELSE ${now} + 3600 + (g % 720) * 3600 END`
      : `${now} - 3600 + (g * 3600 / ${count})`;
    const network = idle ? `CASE WHEN g % 10 IN (6, 7) THEN 'arbitrum-one' ELSE '${NETWORK}' END` : `'${NETWORK}'`;
    const status = idle ? `CASE g % 10 WHEN 8 THEN 'paused' WHEN 9 THEN 'completed' ELSE 'active' END` : `'active'`;
    const nextDue = `CASE WHEN p = 12 THEN NULL ELSE to_timestamp(f + p * 30 * ${DAY}) AT TIME ZONE 'UTC' END`;
    await db().$executeRawUnsafe(`
      INSERT INTO "RecurringSchedule" ("id", "accountId", "network", "chainId", "contract", "token", "invoiceCurrency",
        "paymentCurrency", "frequency", "startDate", "payer", "payee", "amount", "totalPayments", "dueTimes", "deadline",
        "nonce", "scheduleId", "status", "processedPayments", "nextDueAt", "updatedAt")
      SELECT '${prefix}' || lpad(g::text, 7, '0'), '${account.id}', ${network}, 8453, '0xcontract', '0xtoken', 'USDC-base',
        'USDC-base', 'MONTHLY', to_timestamp(f) AT TIME ZONE 'UTC', '0xpayer' || (g % 97), '0xpayee' || g, 1000000 + g, 12,
        ARRAY(SELECT (f + k * 30 * ${DAY})::int FROM generate_series(0, 11) k), (f + 400 * ${DAY})::int,
        g::text, '0x' || lpad(to_hex(g), 64, '0'), (${status})::"RecurringScheduleStatus", p, ${nextDue}, now()
      FROM (SELECT g, p, (${next})::bigint - p * 30 * ${DAY} AS f
            FROM (SELECT g, (${processed}) AS p FROM generate_series(1, ${count}) g) x) s`);
    if (!idle) return;
    await db().$executeRawUnsafe(`
      INSERT INTO "RecurringPayment" ("id", "scheduleId", "index", "status", "txHash", "txNonce", "sentAt", "confirmedAt", "createdAt")
      SELECT s."id" || '_' || k, s."id", k, 'confirmed', '0x' || md5(s."id" || k) || md5(s."id"),
        (row_number() OVER ())::int, to_timestamp(s."dueTimes"[k]) AT TIME ZONE 'UTC',
        to_timestamp(s."dueTimes"[k] + 15) AT TIME ZONE 'UTC', to_timestamp(s."dueTimes"[k]) AT TIME ZONE 'UTC'
      FROM "RecurringSchedule" s CROSS JOIN LATERAL generate_series(1, s."processedPayments") k
      WHERE s."id" LIKE '${prefix}%'`);
  }

  const deleteSchedules = (prefix: string) => db().$executeRawUnsafe(`DELETE FROM "RecurringSchedule" WHERE "id" LIKE '${prefix}%'`);

  /** Sweeps (`concurrency` at a time) until every first payment is sent, then until every one is confirmed. */
  async function throughput(prefix: string, count: number, concurrency: number, chain: InstantChain): Promise<RecurringThroughput> {
    await insertSchedules(prefix, count, "due");
    await db().$executeRawUnsafe(`ANALYZE "RecurringSchedule"`);
    const t: RecurringThroughput = {
      concurrency,
      schedules: count,
      sent: 0,
      sweeps: 0,
      claimed: 0,
      seconds: 0,
      perSecond: 0,
      confirmed: 0,
      confirmedSeconds: 0,
      nodeCpuSeconds: 0,
    };
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
    while (t.confirmed < count) {
      const results = await Promise.all(Array.from({ length: concurrency }, () => sweepRecurringChain(chain, { limit, maxBatches })));
      t.sweeps += results.length;
      const before = t.sent + t.confirmed;
      for (const r of results) {
        if (r.errors || r.paused) throw new Error(`recurring sweep: ${JSON.stringify(r)}`);
        t.sent += r.sent;
        t.confirmed += r.confirmed;
        t.claimed += r.claimed;
      }
      if (t.sent >= count && t.seconds === 0) t.seconds = elapsed();
      if (t.sent + t.confirmed === before) throw new Error(`recurring sweeps stalled at ${t.sent} sent, ${t.confirmed} confirmed`);
    }
    t.confirmedSeconds = Number(elapsed().toFixed(3));
    const used = process.cpuUsage(cpu);
    t.nodeCpuSeconds = Number(((used.user + used.system) / 1e6).toFixed(2));
    t.perSecond = Math.round(t.sent / t.seconds);
    t.seconds = Number(t.seconds.toFixed(3));
    const rows = await db().recurringPayment.count({ where: { scheduleId: { startsWith: prefix }, index: 1, status: "confirmed" } });
    if (rows !== count || t.sent !== count) throw new Error(`recurring: ${t.sent} sent, ${rows} confirmed rows of ${count}`);
    await deleteSchedules(prefix);
    return t;
  }

  try {
    const chain = new InstantChain(now);
    await throughput(`${tag}w_`, limit, 1, chain); // warm-up: connections, query plans, JIT
    const single = await throughput(`${tag}s_`, N, 1, chain);
    const concurrent = await throughput(`${tag}c_`, N, CONCURRENCY, chain);

    // (b) nothing due over IDLE schedules.
    const idlePrefix = `${tag}i_`;
    await insertSchedules(idlePrefix, IDLE, "idle");
    await db().$executeRawUnsafe(`ANALYZE "RecurringSchedule"`);
    await db().$executeRawUnsafe(`ANALYZE "RecurringPayment"`);
    const paymentRows = await db().recurringPayment.count({ where: { scheduleId: { startsWith: idlePrefix } } });
    const idleChain = new InstantChain(now);
    const plan = await explainClaim(now);
    const scanNodes = plan
      .filter((l) => /Scan/.test(l) && /RecurringSchedule/.test(l) && !/never executed/.test(l))
      .map((l) =>
        l
          .trim()
          .replace(/^->\s*/, "")
          .replace(/ on .*/, "")
          .replaceAll('"', ""),
      );
    // Postgres flushes a backend's scan counters when it exits: the pool is closed around the
    // counted sweeps (and reopened by the warm-up, which the counters therefore include).
    await disconnectDb();
    const statsBefore = await scanStats();
    for (let i = 0; i < 3; i++) await sweepRecurringChain(idleChain, { limit, maxBatches });
    const times: number[] = [];
    let claimed = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = process.hrtime.bigint();
      const r = await sweepRecurringChain(idleChain, { limit, maxBatches });
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      claimed += r.claimed;
    }
    await disconnectDb();
    const statsAfter = await scanStats(statsBefore, RUNS + 3);
    const sorted = [...times].sort((a, b) => a - b);
    const medianMs = round1(median(times));
    await deleteSchedules(idlePrefix);
    return {
      at: new Date().toISOString(),
      load: { before: round1(loadBefore), after: round1(os.loadavg()[0]!), cores: os.cpus().length },
      limit,
      maxBatches,
      single,
      concurrent,
      throughputTarget: 200,
      throughputOk: single.perSecond >= 200,
      violations: chain.violations + idleChain.violations,
      idle: {
        schedules: IDLE,
        runs: RUNS,
        medianMs,
        p95Ms: round1(sorted[Math.floor(sorted.length * 0.95)] ?? Number.NaN),
        maxMs: round1(sorted[sorted.length - 1] ?? Number.NaN),
        claimedPerRun: claimed / RUNS,
        scanNodes,
        paymentRows,
        countedSweeps: RUNS + 3,
        scansPerSweep: perSweep(statsBefore, statsAfter, RUNS + 3),
        plan,
        targetMs: 50,
        ok: medianMs < 50 && claimed === 0,
      },
    };
  } finally {
    await deleteSchedules(tag);
    await db().account.delete({ where: { id: account.id } });
  }
}

/**
 * EXPLAIN ANALYZE (rolled back) of the claim statement of lib/recurring/claim.ts, with the values a
 * sweep at `now` binds. A copy of its SQL: the scan counters of scanStats check the real one.
 */
async function explainClaim(now: number): Promise<string[]> {
  const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  try {
    await c.query("BEGIN");
    const at = new Date(now * 1000);
    const res = await c.query<{ "QUERY PLAN": string }>(
      `EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, COSTS OFF)
      UPDATE "RecurringSchedule" SET "leaseUntil" = $1
      WHERE "id" IN (
        SELECT "id" FROM "RecurringSchedule"
        WHERE "status" = 'active' AND "network" = $2 AND "nextDueAt" <= $3 AND ("leaseUntil" IS NULL OR "leaseUntil" < $4)
        ORDER BY "nextDueAt" LIMIT $5 FOR UPDATE SKIP LOCKED)
      RETURNING "id"`,
      [new Date(at.getTime() + 120_000), NETWORK, at, at, 200],
    );
    return res.rows.map((r) => r["QUERY PLAN"]);
  } finally {
    await c.query("ROLLBACK").catch(() => undefined);
    await c.end();
  }
}

const SCAN_KEYS = ["claimIndex", "scheduleIndex", "scheduleSeq", "paymentIndex", "paymentSeq"] as const;

function perSweep(before: ScanCounts, after: ScanCounts, sweeps: number): ScanCounts {
  const out = {} as ScanCounts;
  for (const k of SCAN_KEYS) out[k] = Number(((after[k] - before[k]) / sweeps).toFixed(2));
  return out;
}

/**
 * Postgres's scan counters of the two recurring tables. A backend flushes its counts when it
 * exits (asynchronously after its client left): reads until two reads 300 ms apart agree and,
 * with `previous`, until the claim index's count moved by `expected` (at most ~15 s).
 */
async function scanStats(previous?: ScanCounts, expected = 0): Promise<ScanCounts> {
  const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  try {
    const read = async (): Promise<ScanCounts> => {
      const r = await c.query<Record<string, string>>(
        `SELECT
           (SELECT coalesce(sum(idx_scan), 0) FROM pg_stat_user_indexes
             WHERE relname = 'RecurringSchedule' AND indexrelname = 'RecurringSchedule_status_network_nextDueAt_idx') AS "claimIndex",
           (SELECT coalesce(idx_scan, 0) FROM pg_stat_user_tables WHERE relname = 'RecurringSchedule') AS "scheduleIndex",
           (SELECT coalesce(seq_scan, 0) FROM pg_stat_user_tables WHERE relname = 'RecurringSchedule') AS "scheduleSeq",
           (SELECT coalesce(idx_scan, 0) FROM pg_stat_user_tables WHERE relname = 'RecurringPayment') AS "paymentIndex",
           (SELECT coalesce(seq_scan, 0) FROM pg_stat_user_tables WHERE relname = 'RecurringPayment') AS "paymentSeq"`,
      );
      const row = r.rows[0]!;
      return Object.fromEntries(SCAN_KEYS.map((k) => [k, Number(row[k])])) as unknown as ScanCounts;
    };
    let last = await read();
    for (let i = 0; i < 50; i++) {
      await new Promise((res) => setTimeout(res, 300));
      const now = await read();
      const stable = SCAN_KEYS.every((k) => now[k] === last[k]);
      if (stable && (!previous || now.claimIndex - previous.claimIndex >= expected)) return now;
      last = now;
    }
    return last;
  } finally {
    await c.end();
  }
}

/** The two summary lines of `npm run bench`; true when both targets hold. */
export function printRecurring(r: RecurringBenchResult): boolean {
  const s = r.single;
  const c = r.concurrent;
  console.log(
    `\nRecurring sweep, simulated chain (${s.schedules} due schedules, limit ${r.limit}, sweeps back to back): ${s.sent} first payments sent in ${s.seconds} s = ${s.perSecond}/s (${s.sweeps} sweeps, all confirmed after ${s.confirmedSeconds} s, Node CPU ${s.nodeCpuSeconds} s)  (target ≥ ${r.throughputTarget}/s) ${r.throughputOk ? "OK" : "UNDER"}`,
  );
  console.log(
    `  (1-min load average ${r.load.before} → ${r.load.after} on ${r.load.cores} cores)\n  ${c.concurrency} concurrent sweeps: ${c.sent} sent in ${c.seconds} s = ${c.perSecond}/s (${c.sweeps} sweeps; all confirmed after ${c.confirmedSeconds} s); violations on the simulated chain: ${r.violations}`,
  );
  const i = r.idle;
  const n = i.scansPerSweep;
  // "Indexed": the claim goes through its index and neither table is read sequentially.
  const indexed = n.claimIndex >= 1 && n.scheduleSeq === 0 && n.paymentSeq === 0;
  const nf = (x: number) => x.toLocaleString("en-US");
  console.log(
    `Recurring sweep, nothing due over ${nf(i.schedules)} schedules (${nf(i.paymentRows)} past payments): median ${i.medianMs} ms, p95 ${i.p95Ms} ms, max ${i.maxMs} ms over ${i.runs} runs  (target < ${i.targetMs} ms) ${i.ok ? "OK" : "OVER"}`,
  );
  console.log(
    `  claim plan: ${i.scanNodes.join(" + ") || "?"}; scans per sweep counted by Postgres (a parallel scan counts once per process): claim index ${n.claimIndex}, RecurringSchedule seq ${n.scheduleSeq}, RecurringPayment index ${n.paymentIndex} / seq ${n.paymentSeq}  (target: indexed) ${indexed ? "OK" : "SEQ SCAN"}`,
  );
  return r.throughputOk && i.ok && indexed && r.violations === 0;
}
