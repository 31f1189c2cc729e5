/**
 * Cost curve (issue 33 item 4): the detection sweep with 10^3, 10^5 and 10^6 OPEN requests. A devnet
 * holds a fixed block range with PAID_COUNT real payments (fee-proxy transfers under the references of
 * PAID_COUNT requests); the open requests are seeded in bulk with SQL (one INSERT … SELECT
 * generate_series per step, indexes as in the schema) on this curve's own database
 * (BENCH_SCALE_DETECTION_DATABASE_URL, default duebill_bench_scale_detection). At each size the
 * payments are un-recorded and the cursor set back before the range, then one sweep of the network
 * (sweepDetectionNetwork + the cross-chain payer attribution sweepDetection runs after it) records
 * them again: its time (median of RUNS) and the rows Postgres read for it (pg_stat_user_tables
 * seq_tup_read + idx_tup_fetch, read after the pool closed so every backend flushed its counters).
 * Rule: 10^6 within 2× of 10^3 — the sweep depends on the logs in the range, not on the open requests.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { createPublicClient, createWalletClient, erc20Abi, http, maxUint256, zeroAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { erc20FeeProxyAbi } from "@/lib/chain/abis";
import { computePaymentReference, referenceTopic } from "@/lib/payments/reference";
import { startDevnet } from "../../devnet";
import { type Curve, type CurvePoint, medianOf } from "../curve";

const root = path.resolve(__dirname, "../../..");
const DB_URL = process.env.BENCH_SCALE_DETECTION_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/duebill_bench_scale_detection";
const SIZES = [1_000, 100_000, 1_000_000];
const PAID_COUNT = Number(process.env.BENCH_SCALE_DETECTION_PAYMENTS ?? 20);
const RUNS = 3;
const ACCOUNT = "acc_bench_scale_detection";

async function sql<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: DB_URL });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    // Ending the session flushes its statistics: the next pg_stat read sees them.
    await c.end();
  }
}

async function prepareDatabase(): Promise<void> {
  const admin = new URL(DB_URL);
  const name = admin.pathname.slice(1);
  admin.pathname = "/postgres";
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.query(`CREATE DATABASE "${name}"`);
  await c.end();
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: DB_URL },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (r.status !== 0) throw new Error("prisma migrate deploy failed on the detection curve's database");
}

/**
 * Open requests ids `from`..`to` (pending, nothing paid), one INSERT … SELECT generate_series. The
 * table's secondary indexes are dropped for the insert and built again from their own definitions
 * (pg_indexes) after it: one sort per index instead of a million index insertions; the same indexes
 * as the schema's when the sweep runs.
 */
async function seedOpen(from: number, to: number, r: { token: string; payee: string }): Promise<void> {
  const indexes = await sql<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'PaymentRequest'
       AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE conrelid = '"PaymentRequest"'::regclass)`,
  );
  for (const i of indexes) await sql(`DROP INDEX "${i.name}"`);
  await sql(
    `INSERT INTO "PaymentRequest" (id, "accountId", kind, network, "invoiceCurrency", "paymentCurrency", "tokenAddress",
       amount, "expectedAmount", payee, salt, "paymentReference", "referenceHash", "createdAt", "updatedAt")
     SELECT '01' || md5('open' || g) || md5('id' || g), $1, 'request', 'sepolia', 'USDC-sepolia', 'USDC-sepolia', $2,
       '1', 1000000, $3, substr(md5('salt' || g), 1, 16), '0x' || substr(md5('ref' || g), 1, 16),
       '0x' || md5('hash' || g) || md5('more' || g), now(), now()
     FROM generate_series($4::int, $5::int) g`,
    [ACCOUNT, r.token, r.payee, from, to],
  );
  for (const i of indexes) await sql(i.def);
  await sql(`VACUUM ANALYZE "PaymentRequest"`);
}

/** Rows Postgres read from user tables so far (sequential tuples read + tuples fetched by index). */
async function rowsRead(): Promise<number> {
  await new Promise((res) => setTimeout(res, 300));
  const [row] = await sql<{ n: string }>(
    `SELECT pg_stat_clear_snapshot(), (SELECT COALESCE(sum(COALESCE(seq_tup_read, 0) + COALESCE(idx_tup_fetch, 0)), 0)::bigint FROM pg_stat_user_tables) AS n`,
  );
  return Number(row?.n ?? 0);
}

async function measure() {
  await prepareDatabase();
  const devnet = await startDevnet({ port: 0 });
  try {
    process.env.DATABASE_URL = DB_URL;
    process.env.CHAIN_CONFIG = JSON.stringify(devnet.chainConfig());
    process.env.LOG_LEVEL ??= "warn";
    process.env.APP_SECRET ??= "duebill-bench-app-secret-not-for-production-use";
    const { reloadEnv } = await import("@/lib/env");
    const { resetChainConfig } = await import("@/lib/chain/config");
    const { db, disconnectDb } = await import("@/lib/db");
    const { evmEventSource } = await import("@/lib/detection/evm-source");
    const { sweepDetectionNetwork, attributeCrossChainPayers } = await import("@/lib/detection/sweep");
    await disconnectDb();
    reloadEnv();
    resetChainConfig();

    const token = devnet.tokens.USDC;
    const payee = devnet.accounts.payee.address;
    await sql(`INSERT INTO "Account" (id, name, "updatedAt") VALUES ($1, 'Bench detection curve', now())`, [ACCOUNT]);
    // The paid requests, and their payments on chain: approve once, then one fee-proxy transfer each.
    const paid = Array.from({ length: PAID_COUNT }, (_, i) => {
      const id = `01${i.toString(16).padStart(64, "a")}`;
      const salt = `5a17${i.toString(16).padStart(12, "0")}`;
      const paymentReference = computePaymentReference(id, salt, payee);
      return { id, salt, paymentReference, referenceHash: referenceTopic(paymentReference) };
    });
    for (const p of paid)
      await sql(
        `INSERT INTO "PaymentRequest" (id, "accountId", kind, network, "invoiceCurrency", "paymentCurrency", "tokenAddress",
           amount, "expectedAmount", payee, salt, "paymentReference", "referenceHash", "updatedAt")
         VALUES ($1, $2, 'request', 'sepolia', 'USDC-sepolia', 'USDC-sepolia', $3, '1', 1000000, $4, $5, $6, $7, now())`,
        [p.id, ACCOUNT, token, payee, p.salt, p.paymentReference, p.referenceHash],
      );
    const wallet = createWalletClient({
      account: privateKeyToAccount(devnet.accounts.payer.privateKey),
      chain: devnet.chain,
      transport: http(devnet.rpcUrl),
    });
    const pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) });
    const proxy = devnet.contracts.erc20FeeProxy;
    const approved = await pub.waitForTransactionReceipt({
      hash: await wallet.writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [proxy, maxUint256] }),
    });
    let lastBlock = approved.blockNumber;
    for (const p of paid) {
      const hash = await wallet.writeContract({
        address: proxy,
        abi: erc20FeeProxyAbi,
        functionName: "transferFromWithReferenceAndFee",
        args: [token, payee, 1_000_000n, p.paymentReference as `0x${string}`, 0n, zeroAddress],
      });
      lastBlock = (await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 })).blockNumber;
    }
    // The cursor goes back to the approval's block: the range is every payment's block.
    const before = await pub.getBlock({ blockNumber: approved.blockNumber });
    const source = evmEventSource("sepolia");
    if (!source) throw new Error("no event source for the devnet");
    const ids = paid.map((p) => p.id);

    /** Back to "not yet detected": the range's payments and what recording them wrote, gone; the cursor before the range. */
    const unrecord = async () => {
      await sql(`DELETE FROM "OutboxEvent" WHERE "requestId" = ANY($1)`, [ids]);
      await sql(`DELETE FROM "Payment" WHERE "requestId" = ANY($1)`, [ids]); // receipts cascade
      await sql(`DELETE FROM "PaymentDaily" WHERE "accountId" = $1`, [ACCOUNT]);
      await sql(
        `UPDATE "PaymentRequest" SET status = 'pending', "amountPaid" = 0, "subStatus" = NULL, "paidAt" = NULL, payer = NULL WHERE id = ANY($1)`,
        [ids],
      );
      await sql(
        `INSERT INTO "ChainCursor" (network, "lastBlock", "lastBlockHash", "updatedAt") VALUES ('sepolia', $1, $2, now())
         ON CONFLICT (network) DO UPDATE SET "lastBlock" = EXCLUDED."lastBlock", "lastBlockHash" = EXCLUDED."lastBlockHash"`,
        [before.number.toString(), before.hash],
      );
    };

    const points: CurvePoint[] = [];
    let seeded = 0;
    for (const size of SIZES) {
      const t0 = performance.now();
      await seedOpen(seeded + 1, size, { token, payee });
      const seedMs = performance.now() - t0;
      seeded = size;
      const times: number[] = [];
      const reads: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        await unrecord();
        // A warm pool (its connections open), as in the running worker.
        await Promise.all([1, 2, 3, 4].map(() => db().$queryRaw`SELECT 1`));
        const rows0 = await rowsRead();
        const start = performance.now();
        const r = await sweepDetectionNetwork(source);
        await attributeCrossChainPayers();
        times.push(performance.now() - start);
        await disconnectDb();
        reads.push((await rowsRead()) - rows0);
        if (r.recorded !== PAID_COUNT || BigInt(r.toBlock ?? -1) < lastBlock)
          throw new Error(
            `sweep recorded ${r.recorded} of ${PAID_COUNT} payments up to block ${r.toBlock} (last payment's block ${lastBlock})`,
          );
      }
      const paidNow = await sql<{ n: string }>(
        `SELECT count(*)::bigint AS n FROM "PaymentRequest" WHERE id = ANY($1) AND status = 'paid'`,
        [ids],
      );
      if (Number(paidNow[0]?.n) !== PAID_COUNT) throw new Error("the swept payments did not leave their requests paid");
      points.push({
        work: `10^${Math.log10(size)} open requests`,
        size,
        ms: medianOf(times),
        extra: { "rows read": medianOf(reads), logs: PAID_COUNT, "seed s": (seedMs / 1000).toFixed(1) },
      });
    }
    await disconnectDb();
    return points;
  } finally {
    await devnet.stop();
  }
}

export default {
  key: "detection",
  async measure() {
    const points = await measure();
    const ok = (points.at(-1)?.ms ?? Number.NaN) <= 2 * (points[0]?.ms ?? Number.NaN);
    return {
      name: `Detection sweep over ${PAID_COUNT} payments in a fixed block range, by open requests (median of ${RUNS})`,
      points,
      rule: "10^6 within 2× of 10^3",
      ok,
    };
  },
} satisfies Curve;
