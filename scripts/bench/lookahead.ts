/**
 * Dunning look-ahead, part of `npm run bench` (alone: `npm run bench -- lookahead`), issue 32:
 * 100 000 active schedules seeded with SQL on a devnet (anvil, the real TestUSDC and recurring
 * contract), each due within the next day and each with its own payer, so the look-ahead reads
 * 100 000 balances and 100 000 allowances. The payers are fresh addresses: every one is short, the
 * worst case (200 000 warnings written: insufficient_balance and insufficient_allowance each).
 * Reads are batched with viem's multicall through Multicall3, put on the devnet at its canonical
 * address first (scripts/devnet/multicall3.ts). Then a second pass, with nothing newly crossed.
 * Each has its payer-page token, as a schedule created through the API has (set at creation).
 * Runs against the bench DB (DATABASE_URL set by bench.ts) and deletes what it created.
 */
import os from "node:os";

export interface LookaheadBenchResult {
  at: string;
  load: { before: number; after: number; cores: number };
  schedules: number;
  distinctPayers: number;
  seconds: number;
  perSecond: number;
  ethCalls: number;
  readsPerCall: number;
  mode: string;
  warnings: number;
  /** Of `seconds`: in the batched chain reads, and writing the warnings (reminder rows + outbox events). */
  readSeconds: number;
  writeSeconds: number;
  secondPassMs: number;
  /** Batched: at most this many eth_calls for the 2 × N reads (500 reads each, plus the relayer's gas per batch). */
  maxEthCalls: number;
  ok: boolean;
}

const DAY = 86_400;

export async function measureLookahead(opts: { schedules?: number } = {}): Promise<LookaheadBenchResult> {
  const N = opts.schedules ?? 100_000;
  const { startDevnet } = await import("@/scripts/devnet");
  const devnet = await startDevnet({ port: 0, quiet: true });
  process.env.CHAIN_CONFIG = JSON.stringify(devnet.chainConfig());
  process.env.RELAYER_PRIVATE_KEY = devnet.accounts.relayer.privateKey;
  const { reloadEnv } = await import("@/lib/env");
  const { resetChainConfig } = await import("@/lib/chain/config");
  const { resetCurrencyRegistry } = await import("@/lib/currencies/registry");
  reloadEnv();
  resetChainConfig();
  resetCurrencyRegistry();
  const { db } = await import("@/lib/db");
  const { createAccount } = await import("@/lib/accounts/issue-credentials");
  const { publicClientFor } = await import("@/lib/chain/reader");
  const { lookAhead } = await import("@/lib/recurring/lookahead");
  const { GAS_PER_TRIGGER } = await import("@/lib/recurring/relayer");
  const { chainTime } = await import("@/scripts/devnet/time");
  const loadBefore = os.loadavg()[0]!;
  const account = await createAccount("bench lookahead");
  const tag = `benchla_${Date.now().toString(36)}_`;
  try {
    const { installMulticall3 } = await import("@/scripts/devnet/multicall3");
    await installMulticall3(devnet.rpcUrl);
    const now = await chainTime(devnet.rpcUrl);
    const contract = devnet.contracts.recurringPayments;
    // Due 1 h to ~23 h ahead: both default lead times (3 days, 1 day) are crossed; one check each.
    await db().$executeRawUnsafe(`
      INSERT INTO "RecurringSchedule" ("id", "accountId", "network", "chainId", "contract", "token", "invoiceCurrency",
        "paymentCurrency", "frequency", "startDate", "payer", "payee", "amount", "totalPayments", "dueTimes", "deadline",
        "nonce", "scheduleId", "status", "processedPayments", "nextDueAt", "permitSignature", "payerToken", "updatedAt")
      SELECT '${tag}' || lpad(g::text, 7, '0'), '${account.id}', 'sepolia', 11155111, '${contract}', '${devnet.tokens.USDC}',
        'USDC-sepolia', 'USDC-sepolia', 'MONTHLY', to_timestamp(f) AT TIME ZONE 'UTC',
        '0x' || lpad(to_hex(g), 40, '0'), '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', 25000000, 12,
        ARRAY(SELECT (f + k * 30 * ${DAY})::int FROM generate_series(0, 11) k), (f + 400 * ${DAY})::int,
        g::text, '0x' || lpad(to_hex(g), 64, '0'), 'active', 0, to_timestamp(f) AT TIME ZONE 'UTC', '0x00', '${tag}' || md5(g::text), now()
      FROM (SELECT g, ${now} + 3600 + (g % 79000) AS f FROM generate_series(1, ${N}) g) s`);
    await db().$executeRawUnsafe(`ANALYZE "RecurringSchedule"`);
    const chain = {
      network: "sepolia",
      client: publicClientFor("sepolia")!,
      contract,
      relayer: devnet.accounts.relayer.address,
      gasPerPayment: GAS_PER_TRIGGER,
    };
    const t0 = performance.now();
    const first = await lookAhead(chain, now, { batch: 2_000, maxBatches: 1_000 });
    const seconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const second = await lookAhead(chain, now, { batch: 2_000, maxBatches: 1_000 });
    const secondPassMs = Math.round(performance.now() - t1);
    if (second.considered !== 0) throw new Error(`second pass considered ${second.considered} schedules`);
    const maxEthCalls = Math.ceil((2 * N) / 500) + 2 * Math.ceil(N / 2_000);
    return {
      at: new Date().toISOString(),
      load: { before: loadBefore, after: os.loadavg()[0]!, cores: os.cpus().length },
      schedules: N,
      distinctPayers: N,
      seconds: Number(seconds.toFixed(1)),
      perSecond: Math.round(first.checked / seconds),
      ethCalls: first.ethCalls,
      readsPerCall: Math.round((2 * first.checked) / Math.max(1, first.ethCalls - 2)),
      mode: first.mode,
      warnings: first.warnings,
      readSeconds: Number((first.readMs / 1000).toFixed(1)),
      writeSeconds: Number((first.writeMs / 1000).toFixed(1)),
      secondPassMs,
      maxEthCalls,
      // Bounded: every schedule read once, in batches; the warnings written once; an idle pass is cheap.
      ok: first.checked === N && first.warnings === 2 * N && first.ethCalls <= maxEthCalls && secondPassMs < 5_000,
    };
  } finally {
    await db().$executeRawUnsafe(`DELETE FROM "RecurringReminder" WHERE "scheduleId" LIKE '${tag}%'`);
    await db().$executeRawUnsafe(`DELETE FROM "OutboxEvent" WHERE "accountId" = '${account.id}'`);
    await db().$executeRawUnsafe(`DELETE FROM "RecurringSchedule" WHERE "id" LIKE '${tag}%'`);
    await db().account.delete({ where: { id: account.id } });
    await devnet.stop();
  }
}

export function printLookahead(r: LookaheadBenchResult): boolean {
  console.log(
    `\nDunning look-ahead on anvil: ${r.schedules.toLocaleString("en-US")} active schedules due within a day, ${r.distinctPayers.toLocaleString("en-US")} payers (all short): ${r.seconds} s = ${r.perSecond} schedules/s (reads ${r.readSeconds} s in ${r.ethCalls} eth_calls, ${r.mode} multicall, ${r.readsPerCall} reads each; ${r.warnings.toLocaleString("en-US")} warnings written in ${r.writeSeconds} s); second pass ${r.secondPassMs} ms  (target: ≤ ${r.maxEthCalls} eth_calls, second pass < 5 s) ${r.ok ? "OK" : "OVER"}`,
  );
  console.log(`  (1-min load average ${r.load.before} → ${r.load.after} on ${r.load.cores} cores)`);
  return r.ok;
}
