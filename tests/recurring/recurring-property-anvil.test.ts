/**
 * The recurring executor's property (tests/recurring/recurring-executor.test.ts), smaller and on the
 * REAL chain: anvil with DuebillRecurringPayments + ERC20FeeProxy, the real EvmRecurringChain and
 * the devnet relayer. Schedules are created and activated through the API (POST /v2/payouts with
 * `recurrence`, the payer approves and signs the envelope it was given, POST
 * /v2/payouts/recurring/{id}); then rounds of: payers drained, refunded or set to allowance 0,
 * paused schedules unpaused, a schedule cancelled through the API or by its payer on the contract;
 * 4 concurrent sweeps through a crash-injecting chain (a crash after the intent is recorded and
 * before the send, or after the send and before it is recorded); the chain clock warped by
 * minutes to weeks (or to a due time exactly, a second early or a little late). Some rounds run
 * with automine off (the sweeps' transactions stay pending until the warp mines them), some with
 * a running server clock (1 ms leases expire mid-sweep, so sweeps overlap on one schedule), some
 * with one EvmRecurringChain shared by the 4 sweeps (its nonce reservations) and some with one
 * per sweep (as sweepRecurring makes them).
 *
 * Checked: every send at the moment it is made (never for a paid index with a nonce that can still
 * be mined, never early, out of order, past totalPayments or the deadline, never after an API
 * cancel, never a second live transaction with another nonce for the same index); every
 * PaymentTriggered event (each (key, index) once, 1, 2, 3… in order, block time ≥ its due time
 * and ≤ the deadline, index ≤ totalPayments, nothing after a cancel); every relayer transaction
 * that reverted (only for reasons the relayer could not know: deadline, on-chain cancel, the
 * payer's balance or allowance); DB processedPayments ≤ the contract's lastPaidIndex after every
 * round; completed ⇒ all paid on chain. At the end, after clean sweeps with every payer refunded
 * and every schedule unpaused: no relayer transaction left pending or queued, the DB agrees with
 * the chain, and every active schedule has paid every due payment.
 *
 * Seed: RECURRING_PROPERTY_SEED=<n> replays a run's random choices (sweep interleavings differ).
 */
import {
  type Address,
  createPublicClient,
  decodeErrorResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  type PublicClient,
  parseEventLogs,
  http as viemHttp,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as activate, PATCH as manage } from "@/app/v2/payouts/recurring/[id]/route";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { recurringPaymentsAbi } from "@/contracts/generated/abis.generated";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import type { ChainSchedule, RecurringChain } from "@/lib/recurring/chain";
import { type EvmRecurringChain, evmRecurringChain } from "@/lib/recurring/evm-chain";
import { type SweepResult, sweepRecurringChain } from "@/lib/recurring/executor";
import { type SchedulePermit, scheduleKey } from "@/lib/recurring/permit";
import type { Devnet } from "@/scripts/devnet";
import { chainTime, moveDevnetClock } from "@/scripts/devnet/time";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { mulberry32 } from "@/tests/helpers/prng";
import { recurringAnvil } from "@/tests/helpers/recurring-anvil";

const DAY = 86_400;
const SCHEDULES = 16;
const PAYERS = 6;
const ROUNDS = 24;
const SWEEPS = 4;
/** Probability of each crash kind per send. */
const CRASH = 0.1;
const USDC = 1_000_000n;
const FUNDED = 1_000n * USDC;
/** A send is checked against the latest block's time; automined blocks move it by seconds within a sweep. */
const DEADLINE_SLACK_S = 120;
const SEED = process.env.RECURRING_PROPERTY_SEED ? Number(process.env.RECURRING_PROPERTY_SEED) >>> 0 : (Math.random() * 2 ** 32) >>> 0;

const rand = mulberry32(SEED);
const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

interface Payer {
  key: Hex;
  address: Address;
}

interface Sched {
  id: string;
  payer: Payer;
  key: Hex;
  frequency: string;
  dueTimes: number[];
  deadline: number;
  total: number;
  permit: SchedulePermit;
  /** PATCH cancel: the latest block then, and the send counter (no send of it may follow). */
  apiCancel?: { block: bigint; seq: number; queued: number };
  /** The payer's cancelSchedule on the contract: its block. */
  chainCancel?: { block: bigint };
}

interface Sent {
  id: string;
  index: number;
  nonce: number;
  hash: Hex;
  seq: number;
}

let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let onAnvil: ReturnType<typeof recurringAnvil>;
let usdc: Address;
let contract: Address;
let relayer: Address;
let startBlock = 0n;

const scheds: Sched[] = [];
const byId = new Map<string, Sched>();
const sends: Sent[] = [];
const violations: string[] = [];
/** Relayer nonces handed out by nextNonce, and those whose send crashed before reaching the node (gap diagnosis). */
const reserved = new Set<number>();
const crashedBefore = new Set<number>();
const refused = new Map<number, string>();
let seq = 0;
const totals = {
  seed: SEED,
  schedules: 0,
  payers: PAYERS,
  rounds: 0,
  sweeps: 0,
  sends: 0,
  sendErrors: 0,
  replacements: 0,
  gapsFilled: 0,
  payments: 0,
  completed: 0,
  crashes: 0,
  pauses: 0,
  apiCancels: 0,
  chainCancels: 0,
  drains: 0,
  allowanceZero: 0,
  unpaused: 0,
  slowRounds: 0,
  overlapRounds: 0,
  sharedRounds: 0,
  reverted: 0,
  violations: 0,
  revertReasons: {} as Record<string, number>,
};

/** The server clock (lib/clock): set per round; "running" rounds let it move at real speed so 1 ms leases expire mid-sweep. */
let serverMs = 0;
let running: { since: number } | null = null;

async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
  return pub.request({ method, params } as never) as Promise<T>;
}

const usdcBalance = (who: Address) => pub.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [who] });
const usdcAllowance = (who: Address) =>
  pub.readContract({ address: usdc, abi: erc20Abi, functionName: "allowance", args: [who, contract] });
const approveData = (amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [contract, amount] });

/** Back to FUNDED and a large allowance. */
async function refund(p: Payer) {
  const bal = await usdcBalance(p.address);
  if (bal < FUNDED) await onAnvil.sendFrom(devnet.accounts.payer.privateKey, usdc, onAnvil.transfer(p.address, FUNDED - bal));
  if ((await usdcAllowance(p.address)) < FUNDED) await onAnvil.sendFrom(p.key, usdc, approveData(10n ** 15n));
}

const auth = () => ({ "x-client-id": a.clientId });
const iso = (t: number) => new Date(t * 1000).toISOString();
const act = (id: string, action: string) =>
  call(manage, `/v2/payouts/recurring/${id}`, { method: "PATCH", headers: auth(), params: { id }, json: { action } });

/** A start: soon (minutes to 10 days), a month's end ahead, or Jan 31 of next year. */
function startOf(now: number): number {
  const hour = int(0, 23);
  if (rand() < 0.5) return now + int(600, 10 * DAY);
  const d = new Date(now * 1000);
  const ends: number[] = [Date.UTC(d.getUTCFullYear() + 1, 0, 31, hour) / 1000];
  for (let k = 0; k < 4; k++) {
    const t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + k + 1, 0, hour) / 1000; // last day of month +k
    if (t > now + 3_600) ends.push(t);
  }
  return pick(ends);
}

async function createSchedules(payers: Payer[]) {
  const now = await chainTime(devnet.rpcUrl);
  const d = new Date(now * 1000);
  for (let n = 0; n < SCHEDULES; n++) {
    // Schedule 0: MONTHLY from Jan 31 of next year (Feb 28/29, Mar 31…); the rest at random.
    const start = n === 0 ? Date.UTC(d.getUTCFullYear() + 1, 0, 31, 9) / 1000 : startOf(now);
    const frequency = n === 0 ? "MONTHLY" : pick(["DAILY", "WEEKLY", "MONTHLY"] as const);
    const totalPayments = n === 0 ? 3 : int(2, 5);
    const payer = n < PAYERS ? payers[n]! : pick(payers);
    const withFee = rand() < 0.3;
    const res = await call(createPayout, "/v2/payouts", {
      method: "POST",
      headers: auth(),
      json: {
        payee: devnet.accounts.payee.address,
        amount: rand() < 0.5 ? String(int(1, 20)) : `${int(1, 20)}.${int(1, 99)}`,
        invoiceCurrency: "USDC-sepolia",
        paymentCurrency: "USDC-sepolia",
        ...(withFee ? { feePercentage: "1.5", feeAddress: devnet.accounts.feeRecipient.address } : {}),
        recurrence: { payer: payer.address, startDate: iso(start), frequency, totalPayments },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const body = res.body;
    for (const tx of body.transactions) await onAnvil.sendFrom(payer.key, tx.to, tx.data);
    const activated = await call(activate, `/v2/payouts/recurring/${body.id}`, {
      method: "POST",
      headers: auth(),
      params: { id: body.id },
      json: { permitSignature: await onAnvil.signPermit(payer.key, body.recurringPaymentPermit) },
    });
    expect(activated.status, JSON.stringify(activated.body)).toBe(201);
    const v = body.recurringPaymentPermit.values;
    const permit: SchedulePermit = {
      ...v,
      amount: BigInt(v.amount),
      feeAmount: BigInt(v.feeAmount),
      relayerFee: BigInt(v.relayerFee),
      nonce: BigInt(v.nonce),
      deadline: BigInt(v.deadline),
    };
    const s: Sched = {
      id: body.id,
      payer,
      key: scheduleKey(payer.address, permit.scheduleId),
      frequency,
      dueTimes: [...permit.dueTimes],
      deadline: Number(permit.deadline),
      total: totalPayments,
      permit,
    };
    expect(s.dueTimes[0]).toBe(start);
    scheds.push(s);
    byId.set(s.id, s);
  }
}

/** Checks one send against the chain at the moment it is made (the simulated chain's send-time checks). */
async function checkSend(inner: EvmRecurringChain, s: ChainSchedule, index: number, nonce: number, replace: boolean) {
  const sc = byId.get(s.id)!;
  const label = `${s.id}#${index} (nonce ${nonce}${replace ? ", replacement" : ""})`;
  if (replace) {
    // A stuck transaction re-sent with a higher fee: only ever with the nonce it was sent with (due
    // time and deadline were checked then; past the deadline the replacement still frees the nonce).
    if (!sends.some((t) => t.id === s.id && t.index === index && t.nonce === nonce))
      violations.push(`${label}: replacement with a nonce this payment was never sent with`);
    if (sc.apiCancel) violations.push(`${label}: sent after the schedule was cancelled through the API`);
    return;
  }
  const [time, last, mined] = await Promise.all([
    inner.latestBlockTime(),
    inner.lastPaidIndex(s),
    pub.getTransactionCount({ address: relayer, blockTag: "latest" }),
  ]);
  if (index < 1 || index > sc.total) violations.push(`${label}: sent past totalPayments`);
  if (time < sc.dueTimes[index - 1]!) violations.push(`${label}: sent at ${iso(time)}, before due ${iso(sc.dueTimes[index - 1]!)}`);
  if (time > sc.deadline + DEADLINE_SLACK_S) violations.push(`${label}: sent at ${iso(time)}, past the deadline ${iso(sc.deadline)}`);
  if (sc.apiCancel) violations.push(`${label}: sent after the schedule was cancelled through the API`);
  if (mined > nonce) return; // this nonce is already used: the transaction can never be mined
  if (index <= last) violations.push(`${label}: sent after it was paid (lastPaid ${last})`);
  if (index > last + 1) violations.push(`${label}: sent out of order (lastPaid ${last})`);
  for (const t of sends) {
    if (t.id !== s.id || t.index !== index || t.nonce === nonce) continue;
    const tx = await pub.getTransaction({ hash: t.hash }).catch(() => null);
    if (tx && tx.blockNumber === null)
      violations.push(`${label}: second transaction while ${t.hash} (nonce ${t.nonce}) may still be mined`);
  }
}

/** The real chain, crashing the executor between "intent recorded" and the send, or between the send and "sent recorded". */
class CrashingChain implements RecurringChain {
  readonly network: string;
  constructor(
    readonly inner: EvmRecurringChain,
    readonly crashRate: number,
  ) {
    this.network = inner.network;
  }
  latestBlockTime = () => this.inner.latestBlockTime();
  isPaid = (s: ChainSchedule, i: number) => this.inner.isPaid(s, i);
  lastPaidIndex = (s: ChainSchedule) => this.inner.lastPaidIndex(s);
  isCancelled = (s: ChainSchedule) => this.inner.isCancelled(s);
  simulate = (s: ChainSchedule, i: number) => this.inner.simulate(s, i);
  receipt = (h: string) => this.inner.receipt(h);
  async nextNonce() {
    const n = await this.inner.nextNonce();
    reserved.add(n);
    return n;
  }
  nonceUsed = (n: number) => this.inner.nonceUsed(n);
  withdraw = (nonce: number, replaces?: string) => this.inner.withdraw(nonce, replaces);
  cancel = (s: ChainSchedule, nonce: number, o?: { replaces?: string; outbid?: boolean }) => this.inner.cancel(s, nonce, o);
  fillNonceGap = async (sent: readonly number[]) => {
    const filled = await this.inner.fillNonceGap(sent);
    if (filled !== null) totals.gapsFilled++;
    return filled;
  };
  async send(s: ChainSchedule, index: number, nonce: number, replaces?: string) {
    const replace = replaces !== undefined;
    await checkSend(this.inner, s, index, nonce, replace);
    const r = rand();
    if (r < this.crashRate) {
      totals.crashes++;
      crashedBefore.add(nonce);
      throw new Error("crash: intent recorded, not sent");
    }
    let hash: string;
    try {
      hash = await this.inner.send(s, index, nonce, replaces);
    } catch (err) {
      totals.sendErrors++; // nonce too low, replacement underpriced: the node refused it
      refused.set(nonce, (err as Error).message.split("\n")[0]!.slice(0, 80));
      throw err;
    }
    sends.push({ id: s.id, index, nonce, hash: hash as Hex, seq: ++seq });
    totals.sends++;
    if (replace) totals.replacements++;
    if (r < 2 * this.crashRate) {
      totals.crashes++;
      throw new Error("crash: sent, not recorded");
    }
    return hash;
  }
}

const chainOrThrow = () => {
  const c = evmRecurringChain("sepolia");
  if (!c) throw new Error("no recurring chain for the devnet");
  return c;
};

async function sweeps(crashRate: number, shared: boolean): Promise<SweepResult[]> {
  const one = shared ? chainOrThrow() : null;
  const results = await Promise.all(
    Array.from({ length: SWEEPS }, () =>
      sweepRecurringChain(new CrashingChain(one ?? chainOrThrow(), crashRate), { leaseMs: 1, limit: 5 }),
    ),
  );
  totals.sweeps += results.length;
  return results;
}

const cancelledOnChain = (s: Sched) =>
  pub.readContract({ address: contract, abi: recurringPaymentsAbi, functionName: "isCancelled", args: [s.key] }) as Promise<boolean>;

const lastPaidOnChain = (s: Sched) =>
  pub.readContract({ address: contract, abi: recurringPaymentsAbi, functionName: "lastPaidIndex", args: [s.key] }) as Promise<number>;

/** DB processedPayments never ahead of the contract; completed ⇒ every payment on chain. */
async function checkDbAgainstChain(when: string) {
  const rows = await db().recurringSchedule.findMany({ where: { id: { in: scheds.map((s) => s.id) } } });
  for (const r of rows) {
    const last = Number(await lastPaidOnChain(byId.get(r.id)!));
    if (r.processedPayments > last) violations.push(`${r.id} (${when}): DB says ${r.processedPayments} paid, chain ${last}`);
    if (r.status === "completed" && last !== r.totalPayments) violations.push(`${r.id} (${when}): completed at ${last}/${r.totalPayments}`);
  }
}

function setServerClock(chainSeconds: number) {
  serverMs = Math.max(serverMs + 1_000, chainSeconds * 1000);
}

/** Payers drained, refunded or set to allowance 0; paused schedules unpaused; now and then a cancel. */
async function mutate(round: number) {
  for (const p of [...new Set(scheds.map((s) => s.payer))]) {
    const r = rand();
    if (r < 0.06 || (round === 2 && p === scheds[1]!.payer)) {
      const bal = await usdcBalance(p.address);
      const keep = BigInt(int(0, 500_000)); // a few cents: below any one payment
      if (bal > keep) await onAnvil.sendFrom(p.key, usdc, onAnvil.transfer(devnet.accounts.payer.address, bal - keep));
      totals.drains++;
    } else if (r < 0.1) {
      await onAnvil.sendFrom(p.key, usdc, approveData(0n));
      totals.allowanceZero++;
    } else if (r < 0.5) {
      await refund(p);
    }
  }
  if (rand() < 0.8) {
    const paused = await db().recurringSchedule.findMany({ where: { id: { in: scheds.map((s) => s.id) }, status: "paused" } });
    for (const p of paused) {
      if (rand() < 0.5) continue;
      const res = await act(p.id, "unpause");
      expect([200, 400], JSON.stringify(res.body)).toContain(res.status); // 400: deadline passed or cancelled on chain
      if (res.status === 200) totals.unpaused++;
    }
  }
  if (rand() < 0.1) {
    const live = await db().recurringSchedule.findMany({
      where: { id: { in: scheds.map((s) => s.id) }, status: { in: ["active", "paused"] } },
    });
    if (live.length > 0) {
      const s = byId.get(pick(live).id)!;
      const res = await act(s.id, "cancel");
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const pool = await rpc<{ queued: string }>("txpool_status");
      s.apiCancel = { block: await pub.getBlockNumber(), seq, queued: Number(pool.queued) };
      totals.apiCancels++;
    }
  }
  if (rand() < 0.1) {
    // Not one cancelled through the API: the relayer cancelled that one on chain already (the payer's call would revert ScheduleIsCancelled).
    const candidates = scheds.filter((s) => !s.chainCancel && !s.apiCancel);
    if (candidates.length > 0) {
      const s = pick(candidates);
      const receipt = await onAnvil.sendFrom(
        s.payer.key,
        contract,
        encodeFunctionData({ abi: recurringPaymentsAbi, functionName: "cancelSchedule", args: [s.permit] }),
      );
      s.chainCancel = { block: receipt.blockNumber };
      totals.chainCancels++;
    }
  }
}

/** Minutes, hours to days, days to weeks, or a pending due time exactly (or a second early, or a little late). */
async function warp() {
  const now = await chainTime(devnet.rpcUrl);
  const w = rand();
  let target: number;
  if (w < 0.2) target = now + int(60, 90 * 60);
  else if (w < 0.45) target = now + int(3_600, 3 * DAY);
  else if (w < 0.75) target = now + int(3 * DAY, 21 * DAY);
  else {
    const next = await db().recurringSchedule.findFirst({
      where: { id: { in: scheds.map((s) => s.id) }, status: "active", nextDueAt: { gt: new Date(now * 1000) } },
      orderBy: { nextDueAt: "asc" },
    });
    const due = next?.nextDueAt ? next.nextDueAt.getTime() / 1000 : now + DAY;
    target = due + pick([-1, 0, 0, 1, int(2, 3_600)]);
  }
  await moveDevnetClock(devnet.rpcUrl, { kind: "at", timestamp: Math.max(target, now + 1) });
}

interface Trigger {
  key: Hex;
  index: number;
  block: bigint;
  time: number;
  hash: Hex;
}

async function blockTime(cache: Map<bigint, number>, n: bigint) {
  let t = cache.get(n);
  if (t === undefined) {
    t = Number((await pub.getBlock({ blockNumber: n })).timestamp);
    cache.set(n, t);
  }
  return t;
}

/** Every PaymentTriggered of the contract, in chain order, against the signed schedules. */
async function checkEvents(): Promise<Trigger[]> {
  const logs = await pub.getLogs({ address: contract, fromBlock: startBlock });
  const parsed = parseEventLogs({ abi: recurringPaymentsAbi, logs, eventName: "PaymentTriggered" });
  const times = new Map<bigint, number>();
  const triggers: Trigger[] = [];
  for (const l of parsed)
    triggers.push({
      key: l.args.key,
      index: Number(l.args.index),
      block: l.blockNumber,
      time: await blockTime(times, l.blockNumber),
      hash: l.transactionHash,
    });
  const byKey = new Map(scheds.map((s) => [s.key, s]));
  const paid = new Map<Hex, number>();
  for (const t of triggers) {
    const s = byKey.get(t.key);
    const label = `${s?.id ?? t.key}#${t.index} (tx ${t.hash}, block ${t.block})`;
    if (!s) {
      violations.push(`${label}: paid for an unknown schedule`);
      continue;
    }
    const last = paid.get(t.key) ?? 0;
    if (t.index <= last) violations.push(`${label}: paid twice`);
    else if (t.index !== last + 1) violations.push(`${label}: paid out of order (after ${last})`);
    paid.set(t.key, Math.max(last, t.index));
    if (t.index > s.total) violations.push(`${label}: past totalPayments ${s.total}`);
    else if (t.time < s.dueTimes[t.index - 1]!)
      violations.push(`${label}: paid at ${iso(t.time)}, before due ${iso(s.dueTimes[t.index - 1]!)}`);
    if (t.time > s.deadline) violations.push(`${label}: paid at ${iso(t.time)}, past the deadline ${iso(s.deadline)}`);
    if (s.chainCancel && t.block > s.chainCancel.block) violations.push(`${label}: paid after the payer cancelled on chain`);
    if (s.apiCancel && t.block > s.apiCancel.block) {
      const sent = sends.find((x) => x.hash.toLowerCase() === t.hash.toLowerCase());
      violations.push(
        `${label}: mined after the API cancel (block ${s.apiCancel.block}); ${sent ? `sent ${sent.seq > s.apiCancel.seq ? "after" : "before"} it` : "not a send of the executor"}; ${s.apiCancel.queued} relayer transaction(s) queued behind a missing nonce at the cancel`,
      );
    }
  }
  for (const s of scheds) {
    const onChain = Number(await lastPaidOnChain(s));
    if (onChain !== (paid.get(s.key) ?? 0)) violations.push(`${s.id}: lastPaidIndex ${onChain}, events ${paid.get(s.key) ?? 0}`);
  }
  return triggers;
}

/** Nonces below the highest one sent that never reached the node, and why (the pool waits on them). */
function gaps(): string {
  const sent = new Set(sends.map((t) => t.nonce));
  const top = Math.max(-1, ...sent);
  const out: string[] = [];
  for (let n = 0; n < top; n++) {
    if (sent.has(n)) continue;
    const why = crashedBefore.has(n)
      ? "its send crashed and it was never retried"
      : refused.has(n)
        ? `its send was refused (${refused.get(n)})`
        : reserved.has(n)
          ? "handed out by nextNonce, never sent (its intent was lost)"
          : "never handed out";
    out.push(`nonce ${n} ${why}`);
  }
  return out.length ? `missing: ${out.join("; ")}` : "no missing nonce";
}

/** The reasons a mined trigger may revert without the executor being wrong: the chain moved after its checks. */
const BENIGN_REVERTS = /^(SignatureExpired|ScheduleIsCancelled)$|insufficient (balance|allowance)/i;

/** Every relayer transaction since the start; a reverted one must have failed for a benign reason. */
async function checkRelayerTransactions() {
  const latest = await pub.getBlockNumber();
  const numbers: bigint[] = [];
  for (let n = startBlock; n <= latest; n++) numbers.push(n);
  const hashes: Hex[] = [];
  for (let i = 0; i < numbers.length; i += 25) {
    const blocks = await Promise.all(numbers.slice(i, i + 25).map((n) => pub.getBlock({ blockNumber: n, includeTransactions: true })));
    for (const b of blocks) for (const tx of b.transactions) if (tx.from.toLowerCase() === relayer.toLowerCase()) hashes.push(tx.hash);
  }
  for (const hash of hashes) {
    const r = await pub.getTransactionReceipt({ hash });
    if (r.status === "success") continue;
    totals.reverted++;
    const trace = await rpc<{ output?: Hex; error?: string }>("debug_traceTransaction", [hash, { tracer: "callTracer" }]);
    let reason = trace.error ?? "reverted";
    if (trace.output && trace.output !== "0x") {
      try {
        // Error(string) (the test token's require messages) decodes too, as errorName "Error".
        const e = decodeErrorResult({ abi: recurringPaymentsAbi, data: trace.output }) as { errorName: string; args?: readonly unknown[] };
        reason = e.errorName === "Error" ? String(e.args?.[0]) : e.errorName;
      } catch {
        reason = `undecoded ${trace.output.slice(0, 10)}`;
      }
    }
    totals.revertReasons[reason] = (totals.revertReasons[reason] ?? 0) + 1;
    if (!BENIGN_REVERTS.test(reason)) violations.push(`relayer tx ${hash} (block ${r.blockNumber}) reverted: ${reason}`);
  }
  return hashes.length;
}

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: viemHttp(devnet.rpcUrl), pollingInterval: 50 }) as PublicClient;
  usdc = devnet.tokens.USDC;
  contract = devnet.contracts.recurringPayments;
  relayer = devnet.accounts.relayer.address;
  await resetDb();
  a = await makeIntegrator();
  onAnvil = recurringAnvil(devnet, pub, auth);
  // No grace period (issue 32's dunning off): a short payment pauses at once, as these tests check;
  // retries within a grace period are tests/dunning/*.
  await db().dunningSettings.create({ data: { accountId: a.account.id, retryIntervals: [300], graceSeconds: 0, reminderLeadTimes: [] } });
}, 60_000);

afterAll(async () => {
  setClock(null);
  await stopDevnet(devnet);
});

describe("recurring executor on anvil (property: real contract and relayer, 4 concurrent sweeps, crashes)", () => {
  it("never pays an index twice, early, out of order, past totalPayments or the deadline; leaves nothing stuck", async () => {
    const started = performance.now();
    const fail = (what: string) => `${what} (seed ${SEED}; RECURRING_PROPERTY_SEED=${SEED} replays it)`;
    startBlock = await pub.getBlockNumber();
    const payers: Payer[] = [];
    for (let i = 0; i < PAYERS; i++) payers.push(await onAnvil.newPayer(FUNDED));
    await createSchedules(payers);
    totals.schedules = scheds.length;
    setClock(() => (running ? serverMs + (performance.now() - running.since) : serverMs));

    for (let round = 0; round < ROUNDS; round++) {
      totals.rounds++;
      await mutate(round);
      const slow = rand() < 0.3;
      const overlap = rand() < 0.5;
      const shared = rand() < 0.5;
      if (slow) totals.slowRounds++;
      if (overlap) totals.overlapRounds++;
      if (shared) totals.sharedRounds++;
      setServerClock(await chainTime(devnet.rpcUrl)); // crashed sweeps' 1 ms leases have expired
      if (slow) await rpc("evm_setAutomine", [false]);
      running = overlap ? { since: performance.now() } : null;
      try {
        await sweeps(CRASH, shared);
      } finally {
        if (overlap) serverMs += performance.now() - running!.since;
        running = null;
      }
      await checkDbAgainstChain(`round ${round}`);
      await warp(); // mines what a slow round left pending, at the warped time
      if (slow) await rpc("evm_setAutomine", [true]);
    }

    // Clean sweeps: every payer refunded, every schedule unpaused, no crashes; the server clock
    // moves 10 minutes a sweep, so stuck transactions are replaced (same nonce).
    for (const p of new Set(scheds.map((s) => s.payer))) await refund(p);
    const paused = await db().recurringSchedule.findMany({ where: { id: { in: scheds.map((s) => s.id) }, status: "paused" } });
    for (const p of paused) expect([200, 400]).toContain((await act(p.id, "unpause")).status);
    let pool = { pending: "0x0", queued: "0x0" };
    for (let i = 0; i < 8; i++) {
      setServerClock(await chainTime(devnet.rpcUrl));
      serverMs += 10 * 60_000;
      const results = await sweeps(0, i % 2 === 1);
      pool = await rpc<{ pending: string; queued: string }>("txpool_status");
      const busy = results.some((r) => r.sent + r.confirmed + r.paused + r.completed + r.errors > 0);
      if (i >= 2 && !busy && Number(pool.pending) + Number(pool.queued) === 0) break;
    }

    // Nothing stuck: every relayer nonce handed out is mined, nothing waits in the pool.
    const [pendingNonce, latestNonce] = await Promise.all([
      pub.getTransactionCount({ address: relayer, blockTag: "pending" }),
      pub.getTransactionCount({ address: relayer, blockTag: "latest" }),
    ]);
    const stuck: string[] = [];
    if (pendingNonce !== latestNonce) stuck.push(`relayer pending nonce ${pendingNonce} != latest ${latestNonce}`);
    if (Number(pool.pending) + Number(pool.queued) > 0)
      stuck.push(
        `txpool not empty: ${JSON.stringify(pool)} (latest nonce ${latestNonce}, nonces sent up to ${Math.max(...sends.map((s) => s.nonce))}); ${gaps()}`,
      );

    // Converged: the DB agrees with the chain, every active schedule has paid what is due.
    await checkDbAgainstChain("end");
    const now = await chainTime(devnet.rpcUrl);
    const rows = await db().recurringSchedule.findMany({ where: { id: { in: scheds.map((s) => s.id) } } });
    for (const r of rows) {
      const s = byId.get(r.id)!;
      const last = Number(await lastPaidOnChain(s));
      const due = s.dueTimes.filter((t) => t <= now).length;
      if (r.status !== "cancelled" && r.processedPayments !== last)
        stuck.push(`${r.id}: ${r.status} with processedPayments ${r.processedPayments}, chain ${last}`);
      if (r.status === "active" && last !== due) stuck.push(`${r.id}: active with ${last} paid of ${due} due`);
      if (r.status === "paused" && r.failureCode !== "deadline_passed" && r.failureCode !== "cancelled_on_chain")
        stuck.push(`${r.id}: still paused (${r.failureCode}) after a refund and unpause`);
      if (r.status === "paused" && r.failureCode === "cancelled_on_chain" && !s.chainCancel)
        violations.push(`${r.id}: paused cancelled_on_chain, never cancelled on chain`);
      // An API cancel is a cancel on chain too, done by the relayer (or by the payer before it).
      if (s.apiCancel && r.chainCancel !== "confirmed") stuck.push(`${r.id}: cancelled through the API, on-chain cancel ${r.chainCancel}`);
      if (s.apiCancel && !(await cancelledOnChain(s))) violations.push(`${r.id}: cancelled through the API, not on chain`);
      if (r.status === "completed") totals.completed++;
      totals.pauses += r.failureCount;
    }

    const triggers = await checkEvents();
    totals.payments = triggers.length;
    const relayerTxs = await checkRelayerTransactions();
    totals.violations = violations.length;
    console.info(
      `recurring property on anvil: ${JSON.stringify({ ...totals, relayerTxs, stuck: stuck.length })} in ${Math.round(performance.now() - started)} ms`,
    );
    for (const v of [...violations, ...stuck]) console.error(v);
    expect(violations, fail("violations")).toEqual([]);
    expect(stuck, fail("stuck")).toEqual([]);
    expect(totals.payments, fail("payments")).toBeGreaterThanOrEqual(10);
    expect(totals.crashes, fail("crashes")).toBeGreaterThan(0);
    expect(totals.pauses, fail("pauses")).toBeGreaterThan(0);
  }, 180_000);
});
