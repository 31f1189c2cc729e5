import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { ulid } from "@/lib/ids";
import type { ChainSchedule, FailureReason, ReceiptStatus, RecurringChain, SimulationResult } from "@/lib/recurring/chain";
import { sweepRecurringChain } from "@/lib/recurring/executor";
import { dueTimes, FREQUENCIES, type Frequency } from "@/lib/recurring/schedule";
import { resetDb } from "@/tests/helpers/db";
import { makeAccount } from "@/tests/helpers/factories";
import { mulberry32 } from "@/tests/helpers/prng";

const DAY = 86_400;

interface Tx {
  hash: string;
  scheduleId: string;
  index: number;
  nonce: number;
}

/**
 * The contract's rules (contracts/src/DuebillRecurringPayments.sol) in process: strict order, due
 * times against the block time, the deadline, cancellation, balance and allowance; plus a
 * relayer mempool keyed by nonce (same nonce = replacement) whose transactions the test mines,
 * delays or drops. Every send is checked against the invariants at the moment it is made.
 */
class SimChain implements RecurringChain {
  readonly network = "base";
  time: number;
  readonly lastPaid = new Map<string, number>();
  readonly cancelled = new Set<string>();
  readonly balance = new Map<string, bigint>();
  readonly allowance = new Map<string, bigint>();
  readonly mempool = new Map<number, Tx>();
  readonly receipts = new Map<string, "success" | "reverted">();
  readonly usedNonces = new Set<number>();
  readonly payments: { scheduleId: string; index: number; time: number }[] = [];
  readonly violations: string[] = [];
  /** Every transaction ever broadcast for (schedule, index): only replacements (same nonce) may overlap. */
  readonly broadcast = new Map<string, Tx[]>();
  lastSimulation = new Map<string, FailureReason>();
  nonces = 0;
  txs = 0;
  sends = 0;

  constructor(time: number) {
    this.time = time;
  }

  private cost(s: ChainSchedule): bigint {
    return BigInt(s.amount) + BigInt(s.feeAmount);
  }

  async latestBlockTime() {
    return this.time;
  }
  async isPaid(s: ChainSchedule, index: number) {
    return (this.lastPaid.get(s.id) ?? 0) >= index;
  }
  async lastPaidIndex(s: ChainSchedule) {
    return this.lastPaid.get(s.id) ?? 0;
  }
  async isCancelled(s: ChainSchedule) {
    return this.cancelled.has(s.id);
  }

  /** triggerPayment's checks, in the contract's order; null when it would pay. */
  check(s: ChainSchedule, index: number): { reason: FailureReason; message: string } | null {
    const last = this.lastPaid.get(s.id) ?? 0;
    if (this.cancelled.has(s.id)) return { reason: "cancelled_on_chain", message: "ScheduleCancelled" };
    if (this.time > s.deadline) return { reason: "deadline_passed", message: "DeadlinePassed" };
    if (index < 1 || index > s.totalPayments) return { reason: "unknown", message: "IndexOutOfBounds" };
    if (index <= last) return { reason: "already_paid", message: "AlreadyPaid" };
    if (index > last + 1) return { reason: "unknown", message: "PaymentOutOfOrder" };
    if (this.time < s.dueTimes[index - 1]!) return { reason: "not_due", message: "NotDueYet" };
    if ((this.balance.get(s.payer) ?? 0n) < this.cost(s))
      return { reason: "insufficient_balance", message: "ERC20: transfer amount exceeds balance" };
    if ((this.allowance.get(s.payer) ?? 0n) < this.cost(s))
      return { reason: "insufficient_allowance", message: "ERC20: insufficient allowance" };
    return null;
  }

  async simulate(s: ChainSchedule, index: number): Promise<SimulationResult> {
    const f = this.check(s, index);
    if (f) this.lastSimulation.set(s.id, f.reason);
    return f ? { ok: false, ...f } : { ok: true };
  }

  async send(s: ChainSchedule, index: number, nonce: number) {
    if (this.usedNonces.has(nonce)) throw new Error("nonce too low");
    this.sends++;
    const key = `${s.id}#${index}`;
    const last = this.lastPaid.get(s.id) ?? 0;
    if (index <= last) this.violations.push(`${key}: sent after it was paid`);
    if (index > last + 1) this.violations.push(`${key}: sent out of order (lastPaid ${last})`);
    if (index > s.totalPayments) this.violations.push(`${key}: past totalPayments`);
    if (this.time < s.dueTimes[index - 1]!) this.violations.push(`${key}: sent before due`);
    if (this.time > s.deadline) this.violations.push(`${key}: sent past the deadline`);
    const earlier = this.broadcast.get(key) ?? [];
    for (const t of earlier) {
      const live = this.mempool.get(t.nonce)?.hash === t.hash;
      if (live && t.nonce !== nonce) this.violations.push(`${key}: second transaction while ${t.hash} may still be mined`);
    }
    const tx: Tx = { hash: `0xtx${++this.txs}`, scheduleId: s.id, index, nonce };
    earlier.push(tx);
    this.broadcast.set(key, earlier);
    this.mempool.set(nonce, tx); // replaces whatever had this nonce
    this.defs.set(s.id, s);
    return tx.hash;
  }
  readonly defs = new Map<string, ChainSchedule>();

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

  /** One block: each pending transaction is mined, kept for later or dropped. */
  mine(rand: () => number, advance: number) {
    this.time += advance;
    for (const [nonce, tx] of [...this.mempool].sort((a, b) => a[0] - b[0])) {
      const r = rand();
      if (r < 0.1) continue; // delayed
      this.mempool.delete(nonce);
      if (r < 0.18) continue; // dropped
      this.usedNonces.add(nonce);
      const s = this.defs.get(tx.scheduleId)!;
      const f = this.check(s, tx.index);
      if (f) {
        this.receipts.set(tx.hash, "reverted");
        if (f.reason === "already_paid" || f.message === "PaymentOutOfOrder" || f.reason === "not_due") {
          this.violations.push(`${tx.scheduleId}#${tx.index}: mined and reverted ${f.message}`);
        }
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

/** Crashes the executor between "intent recorded" and the send, or between the send and "sent recorded". */
class CrashingChain implements RecurringChain {
  readonly network = "base";
  crashesBefore = 0;
  crashesAfter = 0;
  constructor(
    readonly inner: SimChain,
    readonly rand: () => number,
  ) {}
  latestBlockTime = () => this.inner.latestBlockTime();
  isPaid = (s: ChainSchedule, i: number) => this.inner.isPaid(s, i);
  lastPaidIndex = (s: ChainSchedule) => this.inner.lastPaidIndex(s);
  isCancelled = (s: ChainSchedule) => this.inner.isCancelled(s);
  simulate = (s: ChainSchedule, i: number) => this.inner.simulate(s, i);
  receipt = (h: string) => this.inner.receipt(h);
  nextNonce = () => this.inner.nextNonce();
  nonceUsed = (n: number) => this.inner.nonceUsed(n);
  async send(s: ChainSchedule, i: number, nonce: number) {
    const r = this.rand();
    if (r < 0.08) {
      this.crashesBefore++;
      throw new Error("crash: intent recorded, not sent");
    }
    const hash = await this.inner.send(s, i, nonce);
    if (r < 0.16) {
      this.crashesAfter++;
      throw new Error("crash: sent, not recorded");
    }
    return hash;
  }
}

const specArb = fc.record({
  frequency: fc.constantFrom<Frequency>(...FREQUENCIES),
  // Month ends and a leap day (Jan 31 → Feb 29 → Mar 31; Feb 29 → Feb 28 in 2029), or any day.
  start: fc.oneof(
    fc.constantFrom("2027-11-30", "2027-12-31", "2028-01-29", "2028-01-30", "2028-01-31", "2028-02-28", "2028-02-29", "2028-03-31"),
    fc.integer({ min: 0, max: 120 }).map((d) => new Date(Date.UTC(2027, 10, 1) + d * DAY * 1000).toISOString().slice(0, 10)),
  ),
  hour: fc.integer({ min: 0, max: 23 }),
  totalPayments: fc.integer({ min: 2, max: 5 }),
  deadlineCut: fc.option(fc.integer({ min: 0, max: 3 }), { freq: 3 }),
  deadlineSlack: fc.integer({ min: 0, max: 20 * DAY }),
  amount: fc.integer({ min: 1, max: 1_000_000 }),
});
const SCHEDULES_PER_RUN = 40;
const RUNS = 26;
const ROUNDS = 12;
const SWEEPS = 8;
const LEASE_MS = 1_000;

const totals = { schedules: 0, sweeps: 0, sends: 0, payments: 0, crashes: 0, pauses: 0, violations: 0 };
let accountId = "";
let fakeMs = Date.UTC(2026, 0, 1);

beforeAll(async () => {
  await resetDb();
  accountId = (await makeAccount()).id;
  setClock(() => fakeMs);
});
afterAll(() => setClock(null));

describe("recurring executor (property: simulated chain, 8 concurrent sweeps, crashes)", () => {
  it("never pays an index twice, early, out of order, past totalPayments or past the deadline", async () => {
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(
        fc.array(specArb, { minLength: SCHEDULES_PER_RUN, maxLength: SCHEDULES_PER_RUN }),
        fc.integer(),
        async (specs, seed) => {
          const rand = mulberry32(seed);
          const chain = new SimChain(0);
          const crashing = new CrashingChain(chain, rand);
          await db().recurringSchedule.deleteMany({});
          const rows = specs.map((sp, n) => {
            const start = new Date(Date.parse(`${sp.start}T00:00:00Z`) + sp.hour * 3_600_000);
            const times = dueTimes(start, sp.frequency, sp.totalPayments);
            const cut = sp.deadlineCut === null ? times.length - 1 : Math.min(sp.deadlineCut, times.length - 1);
            const payer = `0xpayer${n % 10}`;
            chain.balance.set(payer, 10n ** 12n);
            chain.allowance.set(payer, 10n ** 12n);
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
              startDate: start,
              payer,
              payee: `0xpayee${n}`,
              amount: String(sp.amount),
              feeAmount: String(sp.amount % 7),
              totalPayments: sp.totalPayments,
              dueTimes: times,
              deadline: times[cut]! + sp.deadlineSlack,
              nonce: String(n),
              scheduleId: `0x${n.toString(16).padStart(64, "0")}`,
              status: "active" as const,
              nextDueAt: new Date(times[0]! * 1000),
            };
          });
          await db().recurringSchedule.createMany({ data: rows });
          const byId = new Map(rows.map((r) => [r.id, r]));
          // Starts lie within ~5 months of the chain's first block: catch-up for the earlier ones.
          chain.time = Date.UTC(2027, 11, 1) / 1000 + Math.floor(rand() * 90 * DAY);

          for (let round = 0; round < ROUNDS; round++) {
            const payers = [...chain.balance.keys()];
            for (const p of payers) {
              const r = rand();
              if (r < 0.05) chain.balance.set(p, BigInt(Math.floor(rand() * 1000)));
              else if (r < 0.08) chain.allowance.set(p, 0n);
              else if (r < 0.45) {
                chain.balance.set(p, 10n ** 12n);
                chain.allowance.set(p, 10n ** 12n);
              }
            }
            for (const r of rows) if (rand() < 0.01) chain.cancelled.add(r.id);
            if (rand() < 0.7) {
              await db().recurringSchedule.updateMany({
                where: { status: "paused", id: { in: rows.filter(() => rand() < 0.5).map((r) => r.id) } },
                data: { status: "active", failureCode: null, failureReason: null },
              });
            }
            fakeMs += 2 * LEASE_MS; // crashed sweeps' leases expire
            const results = await Promise.all(
              Array.from({ length: SWEEPS }, () => sweepRecurringChain(crashing, { leaseMs: LEASE_MS, limit: 25 })),
            );
            totals.sweeps += results.length;

            const paused = await db().recurringSchedule.findMany({ where: { id: { in: rows.map((r) => r.id) }, status: "paused" } });
            for (const p of paused) {
              const s = byId.get(p.id)!;
              // deadline_passed is decided without the chain (its time is past the signed deadline);
              // cancelled_on_chain is read from the contract's state; every other code is the one the
              // chain's simulation gave for that schedule.
              const pastDeadline = chain.time > s.deadline || s.dueTimes[p.processedPayments]! > s.deadline;
              const ok =
                p.failureCode === "deadline_passed"
                  ? pastDeadline
                  : p.failureCode === "cancelled_on_chain"
                    ? chain.cancelled.has(p.id)
                    : p.failureCode === chain.lastSimulation.get(p.id);
              if (!ok) chain.violations.push(`${p.id}: paused with ${p.failureCode}, chain said ${chain.lastSimulation.get(p.id)}`);
              if (!p.failureReason) chain.violations.push(`${p.id}: paused without a readable reason`);
            }
            // Time warps: a block a few minutes on, or days to months at once.
            const w = rand();
            chain.mine(rand, w < 0.4 ? Math.floor(rand() * 3600) : w < 0.8 ? Math.floor(rand() * 10 * DAY) : Math.floor(rand() * 60 * DAY));
          }

          const finalRows = await db().recurringSchedule.findMany({ where: { id: { in: rows.map((r) => r.id) } } });
          for (const f of finalRows) {
            const lastPaid = chain.lastPaid.get(f.id) ?? 0;
            if (f.processedPayments > lastPaid) chain.violations.push(`${f.id}: DB says ${f.processedPayments} paid, chain ${lastPaid}`);
            if (f.status === "completed" && lastPaid !== f.totalPayments) chain.violations.push(`${f.id}: completed at ${lastPaid}`);
          }
          const seen = new Set<string>();
          for (const p of chain.payments) {
            const s = byId.get(p.scheduleId)!;
            const key = `${p.scheduleId}#${p.index}`;
            if (seen.has(key)) chain.violations.push(`${key}: paid twice`);
            seen.add(key);
            if (p.time < s.dueTimes[p.index - 1]! || p.time > s.deadline || p.index > s.totalPayments)
              chain.violations.push(`${key}: paid out of bounds`);
            if (p.index > 1 && !seen.has(`${p.scheduleId}#${p.index - 1}`)) chain.violations.push(`${key}: paid out of order`);
          }
          totals.schedules += rows.length;
          totals.sends += chain.sends;
          totals.payments += chain.payments.length;
          totals.crashes += crashing.crashesBefore + crashing.crashesAfter;
          totals.pauses += await db().recurringSchedule.count({ where: { id: { in: rows.map((r) => r.id) }, failureCode: { not: null } } });
          totals.violations += chain.violations.length;
          expect(chain.violations).toEqual([]);
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
    console.info(`recurring executor property: ${JSON.stringify(totals)} in ${Math.round(performance.now() - started)} ms`);
    expect(totals.schedules).toBeGreaterThanOrEqual(1000);
    expect(totals.payments).toBeGreaterThan(0);
    expect(totals.crashes).toBeGreaterThan(0);
  }, 120_000);
});
