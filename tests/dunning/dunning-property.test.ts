/**
 * Issue 32's property, on an in-process chain with the contract's rules (strict order, due times
 * against the block time, the deadline, balance and allowance, a relayer mempool keyed by nonce):
 * random balance and allowance changes (drops, top-ups, allowance revoked and renewed), clock jumps
 * from seconds to weeks (through retry times and grace ends), random dunning policies per account
 * and per schedule (grace 0 to 3 days, backing-off intervals), 4 concurrent sweeps, crashes on both
 * sides of a broadcast, paused schedules unpaused. Checked on every send and at the end:
 * - no transaction is broadcast unless the last read of that schedule (its dry run) said it would
 *   pay (a replacement of a stuck transaction re-sends the same one and is exempt);
 * - no period is paid twice, before its due time, out of order, or after the permit's deadline;
 * - a schedule pauses for a shortfall only once its grace period (from the first failed attempt)
 *   is over, and each retry happens no earlier than the time the previous attempt set for it;
 * - every attempt is recorded with the reason the chain gave.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { ulid } from "@/lib/ids";
import type { ChainSchedule, FailureReason, ReceiptStatus, RecurringChain, SimulationResult } from "@/lib/recurring/chain";
import { sweepRecurringChain } from "@/lib/recurring/executor";
import { dueTimes } from "@/lib/recurring/schedule";
import { resetDb } from "@/tests/helpers/db";
import { makeAccount } from "@/tests/helpers/factories";
import { mulberry32 } from "@/tests/helpers/prng";

const DAY = 86_400;
const BIG = 10n ** 12n;

interface Tx {
  hash: string;
  scheduleId: string;
  index: number;
  nonce: number;
}

class Chain implements RecurringChain {
  readonly network = "base";
  time = 0;
  readonly lastPaid = new Map<string, number>();
  readonly balance = new Map<string, bigint>();
  readonly allowance = new Map<string, bigint>();
  readonly mempool = new Map<number, Tx>();
  readonly receipts = new Map<string, "success" | "reverted">();
  readonly usedNonces = new Set<number>();
  readonly defs = new Map<string, ChainSchedule>();
  readonly payments: { scheduleId: string; index: number; time: number }[] = [];
  readonly violations: string[] = [];
  /** The last dry run of each schedule: its index and whether it would pay. */
  readonly lastRead = new Map<string, { index: number; ok: boolean; reason?: FailureReason }>();
  nonces = 0;
  txs = 0;
  sends = 0;

  cost = (s: ChainSchedule) => BigInt(s.amount) + BigInt(s.feeAmount);
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
  check(s: ChainSchedule, index: number): { reason: FailureReason; message: string; missing?: bigint } | null {
    const last = this.lastPaid.get(s.id) ?? 0;
    if (this.time > s.deadline) return { reason: "deadline_passed", message: "SignatureExpired" };
    if (index <= last) return { reason: "already_paid", message: "AlreadyPaid" };
    if (index > last + 1 || index > s.totalPayments) return { reason: "unknown", message: "InvalidIndex" };
    if (this.time < s.dueTimes[index - 1]!) return { reason: "not_due", message: "NotDueYet" };
    const bal = this.balance.get(s.payer) ?? 0n;
    if (bal < this.cost(s)) return { reason: "insufficient_balance", message: "balance", missing: this.cost(s) - bal };
    const all = this.allowance.get(s.payer) ?? 0n;
    if (all < this.cost(s)) return { reason: "insufficient_allowance", message: "allowance", missing: this.cost(s) - all };
    return null;
  }
  async simulate(s: ChainSchedule, index: number): Promise<SimulationResult> {
    const f = this.check(s, index);
    this.lastRead.set(s.id, { index, ok: f === null, reason: f?.reason });
    return f ? { ok: false, ...f } : { ok: true };
  }
  async send(s: ChainSchedule, index: number, nonce: number, replaces?: string) {
    if (this.usedNonces.has(nonce)) throw new Error("nonce too low");
    this.sends++;
    const read = this.lastRead.get(s.id);
    if (!replaces && !(read?.ok && read.index === index))
      this.violations.push(
        `${s.id}#${index}: broadcast after a read that said ${read ? (read.reason ?? `index ${read.index}`) : "nothing"}`,
      );
    const tx: Tx = { hash: `0xtx${++this.txs}`, scheduleId: s.id, index, nonce };
    this.mempool.set(nonce, tx);
    this.defs.set(s.id, s);
    return tx.hash;
  }
  async receipt(hash: string): Promise<ReceiptStatus> {
    const r = this.receipts.get(hash);
    if (r) return r;
    for (const t of this.mempool.values()) if (t.hash === hash) return "pending";
    return "unknown";
  }
  async nextNonce() {
    return this.nonces++;
  }
  async nonceUsed(nonce: number) {
    return this.usedNonces.has(nonce);
  }
  /** A block `advance` seconds on: every pending transaction is mined (or reverts by the rules). */
  mine(advance: number) {
    this.time += advance;
    for (const [nonce, tx] of [...this.mempool].sort((x, y) => x[0] - y[0])) {
      this.mempool.delete(nonce);
      this.usedNonces.add(nonce);
      const s = this.defs.get(tx.scheduleId)!;
      if (this.check(s, tx.index)) {
        this.receipts.set(tx.hash, "reverted");
        continue;
      }
      this.receipts.set(tx.hash, "success");
      this.lastPaid.set(s.id, tx.index);
      this.balance.set(s.payer, (this.balance.get(s.payer) ?? 0n) - this.cost(s));
      this.allowance.set(s.payer, (this.allowance.get(s.payer) ?? 0n) - this.cost(s));
      this.payments.push({ scheduleId: s.id, index: tx.index, time: this.time });
    }
  }
}

/** Crashes the executor just before a broadcast or just after it (before it is recorded). */
class Crashing implements RecurringChain {
  readonly network = "base";
  crashes = 0;
  constructor(
    readonly inner: Chain,
    readonly rand: () => number,
  ) {}
  latestBlockTime = () => this.inner.latestBlockTime();
  isPaid = (s: ChainSchedule, i: number) => this.inner.isPaid(s, i);
  lastPaidIndex = (s: ChainSchedule) => this.inner.lastPaidIndex(s);
  isCancelled = () => this.inner.isCancelled();
  simulate = (s: ChainSchedule, i: number) => this.inner.simulate(s, i);
  receipt = (h: string) => this.inner.receipt(h);
  nextNonce = () => this.inner.nextNonce();
  nonceUsed = (n: number) => this.inner.nonceUsed(n);
  async send(s: ChainSchedule, i: number, nonce: number, replaces?: string) {
    const r = this.rand();
    if (r < 0.07) {
      this.crashes++;
      throw new Error("crash before the broadcast");
    }
    const hash = await this.inner.send(s, i, nonce, replaces);
    if (r < 0.14) {
      this.crashes++;
      throw new Error("crash after the broadcast");
    }
    return hash;
  }
}

const policyArb = fc.record({
  graceSeconds: fc.constantFrom(0, 3_600, DAY, 3 * DAY),
  retryIntervals: fc.constantFrom([300], [300, 3_600], [600, 7_200, 43_200], [3_600, DAY]),
});
const scheduleArb = fc.record({
  startOffset: fc.integer({ min: 0, max: 10 * DAY }),
  frequency: fc.constantFrom("DAILY" as const, "WEEKLY" as const),
  totalPayments: fc.integer({ min: 2, max: 4 }),
  deadlineSlack: fc.integer({ min: 0, max: 5 * DAY }),
  ownPolicy: fc.option(policyArb, { freq: 3 }),
  amount: fc.integer({ min: 1, max: 1_000 }),
});
const RUNS = 12;
const ROUNDS = 30;
const SWEEPS = 4;
const LEASE_MS = 1_000;
const T0 = Date.UTC(2028, 0, 1) / 1000;

const totals = { schedules: 0, sends: 0, payments: 0, attempts: 0, pastDue: 0, pausedAfterGrace: 0, crashes: 0, violations: 0 };
let fakeMs = Date.UTC(2026, 0, 1);

beforeAll(async () => {
  await resetDb();
  setClock(() => fakeMs);
});
afterAll(() => setClock(null));

describe("dunning (property: random balances, clock jumps, concurrent sweeps, crashes)", () => {
  it("never broadcasts what a read showed would revert; never pays twice, early, out of order or after the deadline; pauses only after grace", async () => {
    await fc.assert(
      fc.asyncProperty(
        policyArb,
        fc.array(scheduleArb, { minLength: 12, maxLength: 12 }),
        fc.integer(),
        async (accountPolicy, specs, seed) => {
          const rand = mulberry32(seed);
          const chain = new Chain();
          const crashing = new Crashing(chain, rand);
          chain.time = T0;
          await db().recurringAttempt.deleteMany({});
          await db().recurringSchedule.deleteMany({});
          await db().dunningSettings.deleteMany({});
          const accountId = (await makeAccount()).id;
          await db().dunningSettings.create({
            data: { accountId, ...accountPolicy, retryIntervals: [...accountPolicy.retryIntervals], reminderLeadTimes: [] },
          });
          const rows = specs.map((sp, n) => {
            const times = dueTimes(new Date((T0 + sp.startOffset) * 1000), sp.frequency, sp.totalPayments);
            const payer = `0xpayer${n % 5}`;
            chain.balance.set(payer, BIG);
            chain.allowance.set(payer, BIG);
            return {
              id: ulid(),
              accountId,
              network: "base",
              chainId: 8453,
              contract: "0xcontract",
              token: "0xtoken",
              invoiceCurrency: "USDC-base",
              paymentCurrency: "USDC-base",
              frequency: sp.frequency,
              startDate: new Date(times[0]! * 1000),
              payer,
              payee: `0xpayee${n}`,
              amount: String(sp.amount),
              feeAmount: "0",
              totalPayments: sp.totalPayments,
              dueTimes: times,
              deadline: times[times.length - 1]! + sp.deadlineSlack,
              nonce: String(n),
              scheduleId: `0x${n.toString(16).padStart(64, "0")}`,
              status: "active" as const,
              nextDueAt: new Date(times[0]! * 1000),
              ...(sp.ownPolicy ? { dunningPolicy: sp.ownPolicy } : {}),
            };
          });
          await db().recurringSchedule.createMany({ data: rows });
          const byId = new Map(rows.map((r, n) => [r.id, { ...r, policy: specs[n]!.ownPolicy ?? accountPolicy }]));

          for (let round = 0; round < ROUNDS; round++) {
            for (const p of [...chain.balance.keys()]) {
              const r = rand();
              if (r < 0.15) chain.balance.set(p, BigInt(Math.floor(rand() * 500)));
              else if (r < 0.22) chain.allowance.set(p, 0n);
              else if (r < 0.45) {
                chain.balance.set(p, BIG);
                chain.allowance.set(p, BIG);
              }
            }
            if (rand() < 0.2)
              await db().recurringSchedule.updateMany({
                where: { status: "paused", accountId },
                data: { status: "active", failureCode: null, failureReason: null, pastDueIndex: null, pastDueSince: null },
              });
            fakeMs += 2 * LEASE_MS;
            await Promise.all(Array.from({ length: SWEEPS }, () => sweepRecurringChain(crashing, { leaseMs: LEASE_MS, limit: 5 })));
            // Paused for a shortfall only after the grace period from its first failed attempt.
            for (const p of await db().recurringSchedule.findMany({ where: { accountId, status: "paused" } })) {
              const s = byId.get(p.id)!;
              if (p.failureCode !== "insufficient_balance" && p.failureCode !== "insufficient_allowance") continue;
              const since = p.pastDueSince ? p.pastDueSince.getTime() / 1000 : null;
              if (since === null || chain.time < since + s.policy.graceSeconds)
                chain.violations.push(`${p.id}: paused at ${chain.time}, grace from ${since} of ${s.policy.graceSeconds}s not over`);
            }
            totals.pastDue += await db().recurringSchedule.count({ where: { accountId, status: "active", pastDueIndex: { not: null } } });
            const w = rand();
            chain.mine(w < 0.4 ? Math.floor(rand() * 900) : w < 0.8 ? Math.floor(rand() * DAY) : Math.floor(rand() * 6 * DAY));
          }

          const seen = new Set<string>();
          for (const p of chain.payments) {
            const s = byId.get(p.scheduleId)!;
            const key = `${p.scheduleId}#${p.index}`;
            if (seen.has(key)) chain.violations.push(`${key}: paid twice`);
            seen.add(key);
            if (p.time < s.dueTimes[p.index - 1]!) chain.violations.push(`${key}: paid early`);
            if (p.time > s.deadline) chain.violations.push(`${key}: paid after the deadline`);
            if (p.index > 1 && !seen.has(`${p.scheduleId}#${p.index - 1}`)) chain.violations.push(`${key}: paid out of order`);
          }
          // Retries on the policy: each attempt no earlier than the time the previous one set.
          const attempts = await db().recurringAttempt.findMany({ orderBy: [{ scheduleId: "asc" }, { index: "asc" }, { attempt: "asc" }] });
          for (let i = 1; i < attempts.length; i++) {
            const [prev, cur] = [attempts[i - 1]!, attempts[i]!];
            if (prev.scheduleId !== cur.scheduleId || prev.index !== cur.index || !prev.nextRetryAt) continue;
            if (cur.at < prev.nextRetryAt)
              chain.violations.push(`${cur.scheduleId}#${cur.index}: attempt ${cur.attempt} before its retry time`);
          }
          for (const at of attempts)
            if (at.reason !== "insufficient_balance" && at.reason !== "insufficient_allowance")
              chain.violations.push(`${at.scheduleId}: attempt recorded with ${at.reason}`);
          totals.schedules += rows.length;
          totals.sends += chain.sends;
          totals.payments += chain.payments.length;
          totals.attempts += attempts.length;
          totals.crashes += crashing.crashes;
          totals.pausedAfterGrace += await db().recurringSchedule.count({
            where: { accountId, status: "paused", failureCode: { in: ["insufficient_balance", "insufficient_allowance"] } },
          });
          totals.violations += chain.violations.length;
          expect(chain.violations).toEqual([]);
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
    console.info(`dunning property: ${JSON.stringify(totals)}`);
    // The runs must have exercised what they claim to check.
    expect(totals.payments).toBeGreaterThan(50);
    expect(totals.attempts).toBeGreaterThan(20);
    expect(totals.pastDue).toBeGreaterThan(0);
    expect(totals.pausedAfterGrace).toBeGreaterThan(0);
    expect(totals.crashes).toBeGreaterThan(0);
  }, 300_000);
});
