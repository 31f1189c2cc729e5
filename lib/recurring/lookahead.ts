import type { PublicClient } from "viem";
import { db } from "@/lib/db";
import { type DunningPolicy, type DunningPolicyInput, MAX_LEAD_SECONDS, mergePolicy } from "@/lib/recurring/dunning-policy";
import { positionKey, readPositions } from "@/lib/recurring/lookahead-reads";
import { type Shortfall, writeUpcomingFailures } from "@/lib/recurring/upcoming-event";

/** A schedule the look-ahead considers (its next payment is due within the longest lead time). */
export interface LookaheadRow {
  id: string;
  accountId: string;
  clientId: string | null;
  token: string;
  payer: string;
  cost: string;
  processedPayments: number;
  totalPayments: number;
  deadline: number;
  nextDueAt: Date;
  dunningPolicy: unknown;
  payerToken: string | null;
  paymentCurrency: string;
  network: string;
}

export interface LookaheadChain {
  network: string;
  client: PublicClient;
  /** The recurring contract (the spender whose allowance is checked). */
  contract: string;
  relayer: string;
  /** Gas one triggerPayment may use. */
  gasPerPayment: bigint;
}

export interface LookaheadResult {
  considered: number;
  checked: number;
  warnings: number;
  ethCalls: number;
  mode: string;
  /** Wall time in the chain reads and in writing warnings (ms). */
  readMs: number;
  writeMs: number;
}

/**
 * The look-ahead (issue 32): before each due payment, at each of the policy's lead times (default
 * 3 days and 1 day before), read the payer's balance and allowance to the contract and the relayer's
 * gas, and when a payment would fail write one `payment.upcoming_failure` per (schedule, period,
 * lead time, reason). Reads are batched (lookahead-reads.ts). Each schedule is read at most once
 * per lead time and period: `lookaheadDue` / `lookaheadNextAt` say which due time it last looked at
 * and when it looks again, so a sweep over 100 000 schedules only touches those whose lead time was
 * crossed since. Times are the chain's (the latest block's), as the executor's.
 *
 * Bounded work per batch: the candidates are read by keyset (after the previous batch's last
 * (nextDueAt, id), so a sweep reads each row once, not the batches before it again), the chain reads
 * are multicalls, and the writes are a few set-based statements per batch (upcoming-event.ts,
 * saveProgress). The next batch's candidates and chain reads run while this batch's warnings are
 * written (the node and the database work at once); a batch's progress is saved only after its
 * warnings are, so a crash re-reads it rather than losing a warning.
 */
export async function lookAhead(chain: LookaheadChain, chainTime: number, opts: { batch?: number; maxBatches?: number } = {}) {
  const batch = opts.batch ?? 2_000;
  const result: LookaheadResult = { considered: 0, checked: 0, warnings: 0, ethCalls: 0, mode: "", readMs: 0, writeMs: 0 };
  const policies = new Map<string, Promise<Partial<DunningPolicy> | null>>();
  const gas = relayerGasOnce(chain, result);
  let next: Promise<Batch | null> = readBatch(chain, chainTime, batch, null, policies, gas, result);
  for (let b = 0; b < (opts.maxBatches ?? 100); b++) {
    const current = await next;
    if (!current) break;
    const more = current.rows.length === batch && b + 1 < (opts.maxBatches ?? 100);
    const last = current.rows[current.rows.length - 1]!;
    next = more ? readBatch(chain, chainTime, batch, { due: last.nextDueAt, id: last.id }, policies, gas, result) : Promise.resolve(null);
    // Keep the prefetch from rejecting unobserved while this batch writes; awaited (and thrown) above next time.
    next.catch(() => undefined);
    const t1 = performance.now();
    result.warnings += await writeUpcomingFailures(current.shortfalls);
    result.writeMs += performance.now() - t1;
    await saveProgress(current.plans.map((p) => ({ id: p.r.id, due: p.r.nextDueAt, nextAt: p.nextAt })));
    if (!more) break;
  }
  return result;
}

interface Batch {
  rows: LookaheadRow[];
  plans: { r: LookaheadRow; lead: number | null; nextAt: Date }[];
  shortfalls: Shortfall[];
}

/** The relayer's gas balance and the gas price, read once per sweep (when a batch first needs them). */
function relayerGasOnce(chain: LookaheadChain, result: LookaheadResult) {
  let p: Promise<{ balance: bigint; perPayment: bigint }> | null = null;
  return () => {
    p ??= Promise.all([chain.client.getBalance({ address: chain.relayer as `0x${string}` }), chain.client.getGasPrice()]).then(
      ([balance, gasPrice]) => {
        result.ethCalls += 2;
        return { balance, perPayment: chain.gasPerPayment * gasPrice };
      },
    );
    return p;
  };
}

/** One batch: its candidates, the lead time each is at, the chain reads of those to check, and what would fail. */
async function readBatch(
  chain: LookaheadChain,
  chainTime: number,
  limit: number,
  after: { due: Date; id: string } | null,
  policies: Map<string, Promise<Partial<DunningPolicy> | null>>,
  relayerGas: () => Promise<{ balance: bigint; perPayment: bigint }>,
  result: LookaheadResult,
): Promise<Batch | null> {
  const rows = await candidates(chain.network, chainTime, limit, after);
  if (rows.length === 0) return null;
  result.considered += rows.length;
  const plans = await Promise.all(rows.map(async (r) => ({ r, ...plan(r, await policyOf(r, policies), chainTime) })));
  const toCheck = plans.filter((p) => p.lead !== null);
  const shortfalls: Shortfall[] = [];
  if (toCheck.length === 0) return { rows, plans, shortfalls };
  const t0 = performance.now();
  const read = await readPositions(
    chain.client,
    chain.contract,
    toCheck.map(({ r }) => ({ token: r.token, owner: r.payer })),
  );
  const gas = await relayerGas();
  result.readMs += performance.now() - t0;
  result.ethCalls += read.calls;
  result.mode = read.mode;
  for (const { r, lead } of toCheck) {
    const pos = read.positions.get(positionKey(r.token, r.payer));
    if (!pos) continue;
    result.checked++;
    const cost = BigInt(r.cost);
    const base = { schedule: r, index: r.processedPayments + 1, lead: lead!, due: r.nextDueAt };
    if (pos.balance < cost) shortfalls.push({ ...base, reason: "insufficient_balance", missing: cost - pos.balance });
    if (pos.allowance < cost) shortfalls.push({ ...base, reason: "insufficient_allowance", missing: cost - pos.allowance });
    if (r.deadline < Math.floor(r.nextDueAt.getTime() / 1000)) shortfalls.push({ ...base, reason: "permit_expiring", missing: 0n });
    if (gas.balance < gas.perPayment) shortfalls.push({ ...base, reason: "relayer_unfunded", missing: gas.perPayment - gas.balance });
  }
  return { rows, plans, shortfalls };
}

/**
 * For one schedule: the lead time to check now (the shortest one already crossed, so a sweep that
 * comes late checks once, not once per missed lead time), or null; and when to look again (the
 * next lead time to cross, else the due time itself, after which the executor takes over).
 */
export function plan(r: { nextDueAt: Date }, policy: DunningPolicy, chainTime: number): { lead: number | null; nextAt: Date } {
  const due = Math.floor(r.nextDueAt.getTime() / 1000);
  const leads = [...policy.reminderLeadTimes].sort((x, y) => y - x);
  const crossed = leads.filter((l) => due - l <= chainTime);
  const ahead = leads.filter((l) => due - l > chainTime);
  const nextLead = ahead.length > 0 ? ahead[0]! : null;
  const nextAt = new Date((nextLead === null ? due : due - nextLead) * 1000);
  return { lead: crossed.length > 0 ? crossed[crossed.length - 1]! : null, nextAt };
}

/** The policy in force; the account's settings read once per account and sweep (the promise is cached, so a batch's rows share one query). */
async function policyOf(r: LookaheadRow, cache: Map<string, Promise<Partial<DunningPolicy> | null>>): Promise<DunningPolicy> {
  let settings = cache.get(r.accountId);
  if (!settings) {
    settings = db().dunningSettings.findUnique({ where: { accountId: r.accountId } });
    cache.set(r.accountId, settings);
  }
  return mergePolicy((await settings) ?? null, (r.dunningPolicy as DunningPolicyInput | null) ?? null);
}

/**
 * Active schedules, not past due, whose next payment falls within the longest lead time, that this
 * due time has not been looked at yet or whose next look is due.
 */
async function candidates(
  network: string,
  chainTime: number,
  limit: number,
  after: { due: Date; id: string } | null,
): Promise<LookaheadRow[]> {
  const at = new Date(chainTime * 1000);
  const until = new Date((chainTime + MAX_LEAD_SECONDS) * 1000);
  // Keyset: after the previous batch's last row (the first batch: everything after `at`).
  const fromDue = after?.due ?? at;
  const fromId = after?.id ?? "";
  return db().$queryRaw<LookaheadRow[]>`
    SELECT "id", "accountId", "clientId", "token", "payer", ("amount" + "feeAmount" + "relayerFee")::text AS "cost",
      "processedPayments", "totalPayments", "deadline", "nextDueAt", "dunningPolicy", "payerToken", "paymentCurrency", "network"
    FROM "RecurringSchedule"
    WHERE "status" = 'active' AND "network" = ${network} AND "pastDueIndex" IS NULL
      AND "nextDueAt" > ${at} AND "nextDueAt" <= ${until} AND ("nextDueAt", "id") > (${fromDue}, ${fromId})
      AND ("lookaheadDue" IS DISTINCT FROM "nextDueAt" OR "lookaheadNextAt" <= ${at})
    ORDER BY "nextDueAt", "id" LIMIT ${limit}`;
}

/** Records where each schedule's look-ahead stands, in one statement per batch (only if its due time did not move meanwhile). */
async function saveProgress(rows: { id: string; due: Date; nextAt: Date }[]): Promise<void> {
  if (rows.length === 0) return;
  // Unix milliseconds, turned into UTC timestamps by Postgres (the columns are timestamps without a zone, in UTC).
  const ms = (d: Date) => d.getTime();
  await db().$executeRaw`
    UPDATE "RecurringSchedule" AS s
    SET "lookaheadDue" = to_timestamp(v.due / 1000.0) AT TIME ZONE 'UTC', "lookaheadNextAt" = to_timestamp(v.next_at / 1000.0) AT TIME ZONE 'UTC'
    FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => ms(r.due))}::bigint[], ${rows.map((r) => ms(r.nextAt))}::bigint[])
      AS v(id, due, next_at)
    WHERE s."id" = v.id AND s."nextDueAt" = to_timestamp(v.due / 1000.0) AT TIME ZONE 'UTC'`;
}
