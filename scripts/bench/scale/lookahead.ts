/**
 * `npm run bench -- scale lookahead`: the dunning look-ahead's cost curve (issue 32 item 4) at 10^3,
 * 10^4 and 10^5 active schedules, each due within the day with its own (short) payer, seeded with
 * SQL on its own database (BENCH_SCALE_LOOKAHEAD_DATABASE_URL, default duebill_bench_scale_lookahead),
 * on a devnet with Multicall3. Per size: the look-ahead's wall time, its eth_calls, the rows it
 * wrote (reminders + outbox events + schedules' progress) and the idle second pass. The rule: time
 * grows no faster than the work (≤ 1.5 × linear from 10^4 to 10^5) and eth_calls stay within the
 * multicall bound. The seeding and the measurement are scripts/bench/lookahead.ts's.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import type { Curve, CurvePoint, CurveResult } from "../curve";

const url = process.env.BENCH_SCALE_LOOKAHEAD_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/duebill_bench_scale_lookahead";
const SIZES = [1_000, 10_000, 100_000];

async function freshDatabase(): Promise<void> {
  const u = new URL(url);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${u.pathname.slice(1)}" WITH (FORCE)`);
  await c.query(`CREATE DATABASE "${u.pathname.slice(1)}"`);
  await c.end();
  const root = path.resolve(__dirname, "../../..");
  execFileSync(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url },
    stdio: "ignore",
  });
}

async function measure(): Promise<CurveResult> {
  await freshDatabase();
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = url;
  process.env.LOG_LEVEL ??= "warn";
  const { disconnectDb } = await import("@/lib/db");
  await disconnectDb(); // a client made for another database is not reused
  const { measureLookahead } = await import("../lookahead");
  const points: CurvePoint[] = [];
  let boundsOk = true;
  try {
    for (const n of SIZES) {
      const r = await measureLookahead({ schedules: n });
      boundsOk &&= r.ok;
      points.push({
        work: `10^${Math.log10(n)} schedules`,
        size: n,
        ms: r.seconds * 1000,
        extra: {
          eth_calls: r.ethCalls,
          bound: r.maxEthCalls,
          // Written: one reminder row and one outbox event per warning, one progress update per schedule.
          rows_written: 2 * r.warnings + r.schedules,
          "read s": r.readSeconds,
          "write s": r.writeSeconds,
          "2nd pass ms": r.secondPassMs,
          load: `${r.load.before.toFixed(1)}→${r.load.after.toFixed(1)}`,
        },
      });
    }
  } finally {
    await disconnectDb();
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
  const [, mid, big] = points;
  const slope = mid && big ? big.ms / mid.ms / (big.size / mid.size) : Number.NaN;
  return {
    name: "Dunning look-ahead (anvil, Multicall3): schedules due within the day, all short",
    points,
    rule: `each size within its eth_call bound, 10^4 → 10^5 time ≤ 1.5 × linear (this run ${slope.toFixed(2)} ×)`,
    ok: boundsOk && slope <= 1.5,
  };
}

export default { key: "lookahead", measure } satisfies Curve;
