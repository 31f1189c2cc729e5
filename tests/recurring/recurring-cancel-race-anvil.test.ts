/**
 * A cancel racing the broadcast never pays (issue 24), on anvil with the real contract, relayer and
 * executor. fast-check picks, per run: where the API cancel (PATCH /v2/payouts/recurring/{id}
 * {"action":"cancel"}) is fired — while the sweep dry-runs the payment, while it reserves the
 * relayer nonce (so between the recorded intent and the broadcast), during the broadcast itself,
 * or after the sweep returned with the trigger in the pool — with a random delay, whether the hook
 * waits for the cancel to finish, whether the sweep crashes right after the broadcast (the row
 * stays `intent`), and whether blocks are mined as transactions arrive (automine) or only later.
 *
 * Checked after every run, once the pool is mined and the sweeps have converged:
 * - nothing is paid in a block after the cancel's answer; with automine off (nothing mined during
 *   the race) nothing is paid at all: the trigger, when it was broadcast, was replaced by the
 *   relayer's cancelSchedule at its nonce;
 * - the contract says cancelled, the schedule's onChainCancel is `confirmed`, and the relayer's own
 *   triggerPayment of the next index reverts ScheduleIsCancelled;
 * - no trigger is broadcast once the cancel is committed (read from a connection of its own right
 *   after each broadcast, while the sweep still holds the schedule's row lock);
 * - the database never counts more payments than the contract, and no relayer transaction is left
 *   in the pool.
 *
 * Seed: RECURRING_RACE_SEED=<n> replays fast-check's choices (timing differs from run to run).
 */
import fc from "fast-check";
import pg from "pg";
import { type Address, createPublicClient, erc20Abi, type Hex, type PublicClient, parseEventLogs, http as viemHttp } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as activate, PATCH as manage } from "@/app/v2/payouts/recurring/[id]/route";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { recurringPaymentsAbi } from "@/contracts/generated/abis.generated";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import type { ChainSchedule, RecurringChain } from "@/lib/recurring/chain";
import { sweepChainCancels } from "@/lib/recurring/chain-cancel";
import { type EvmRecurringChain, evmRecurringChain } from "@/lib/recurring/evm-chain";
import { sweepRecurringChain } from "@/lib/recurring/executor";
import type { SchedulePermit } from "@/lib/recurring/permit";
import type { Devnet } from "@/scripts/devnet";
import { chainTime, moveDevnetClock } from "@/scripts/devnet/time";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { recurringAnvil } from "@/tests/helpers/recurring-anvil";
import { testDatabaseUrl } from "@/tests/helpers/test-db-url";

const SEED = process.env.RECURRING_RACE_SEED ? Number(process.env.RECURRING_RACE_SEED) : undefined;
const RUNS = 40;

let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let onAnvil: ReturnType<typeof recurringAnvil>;
let payer: { key: Hex; address: Address };
/** A connection of its own, outside the sweep's transaction: what the API sees committed. */
let outside: pg.Client;
const totals = { runs: 0, broadcasts: 0, replacedByCancel: 0, paidBeforeCancel: 0, stoppedBeforeBroadcast: 0, crashes: 0 };

const rpc = <T>(method: string, params: unknown[] = []) => pub.request({ method, params } as never) as Promise<T>;
const auth = () => ({ "x-client-id": a.clientId });
const iso = (t: number) => new Date(t * 1000).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

type Hook = "simulate" | "nextNonce" | "send" | "after";

/** The real chain, calling `hook` at the executor's steps (the cancel is fired from there). */
class HookChain implements RecurringChain {
  readonly network: string;
  broadcast: string | null = null;
  constructor(
    readonly inner: EvmRecurringChain,
    readonly hook: (at: Hook) => Promise<void>,
    readonly crashAfterSend: boolean,
    readonly violations: string[],
  ) {
    this.network = inner.network;
  }
  latestBlockTime = () => this.inner.latestBlockTime();
  isPaid = (s: ChainSchedule, i: number) => this.inner.isPaid(s, i);
  lastPaidIndex = (s: ChainSchedule) => this.inner.lastPaidIndex(s);
  isCancelled = (s: ChainSchedule) => this.inner.isCancelled(s);
  receipt = (h: string) => this.inner.receipt(h);
  nonceUsed = (n: number) => this.inner.nonceUsed(n);
  cancel = (s: ChainSchedule, n: number, o?: { replaces?: string; outbid?: boolean }) => this.inner.cancel(s, n, o);
  async simulate(s: ChainSchedule, i: number) {
    const r = await this.inner.simulate(s, i);
    await this.hook("simulate");
    return r;
  }
  async nextNonce() {
    const n = await this.inner.nextNonce();
    await this.hook("nextNonce");
    return n;
  }
  async send(s: ChainSchedule, i: number, nonce: number, replaces?: string) {
    await this.hook("send");
    const hash = await this.inner.send(s, i, nonce, replaces);
    this.broadcast = hash;
    // The broadcast happened while the schedule was still active for everyone: a cancel either
    // committed before it (and nothing was sent) or is still waiting for it.
    const seen = await outside.query<{ status: string }>(`SELECT "status" FROM "RecurringSchedule" WHERE "id" = $1`, [s.id]);
    if (seen.rows[0]?.status !== "active") this.violations.push(`trigger broadcast while the schedule was ${seen.rows[0]?.status}`);
    totals.broadcasts++;
    if (this.crashAfterSend) {
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

function permitOf(values: Record<string, unknown>): SchedulePermit {
  const v = values as unknown as SchedulePermit & Record<string, string>;
  return {
    ...v,
    amount: BigInt(v.amount),
    feeAmount: BigInt(v.feeAmount),
    relayerFee: BigInt(v.relayerFee),
    nonce: BigInt(v.nonce),
    deadline: BigInt(v.deadline),
  };
}

/** The server clock follows the chain's (schedules start "now" on chain and are not in the past on the server). */
async function alignClock() {
  const base = (await chainTime(devnet.rpcUrl)) * 1000;
  const at = Date.now();
  setClock(() => base + (Date.now() - at));
}

/** A schedule of 2 payments, signed and active, its first payment due now on chain. */
async function dueSchedule() {
  await alignClock();
  const start = (await chainTime(devnet.rpcUrl)) + 30;
  const res = await call(createPayout, "/v2/payouts", {
    method: "POST",
    headers: auth(),
    json: {
      payee: devnet.accounts.payee.address,
      amount: "1",
      invoiceCurrency: "USDC-sepolia",
      paymentCurrency: "USDC-sepolia",
      recurrence: { payer: payer.address, startDate: iso(start), frequency: "DAILY", totalPayments: 2 },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.transactions).toEqual([]); // the payer approved plenty up front
  const signature = await onAnvil.signPermit(payer.key, res.body.recurringPaymentPermit);
  const activated = await call(activate, `/v2/payouts/recurring/${res.body.id}`, {
    method: "POST",
    headers: auth(),
    params: { id: res.body.id },
    json: { permitSignature: signature },
  });
  expect(activated.status, JSON.stringify(activated.body)).toBe(201);
  await moveDevnetClock(devnet.rpcUrl, { kind: "at", timestamp: start + 1 });
  await alignClock();
  const permit = permitOf(res.body.recurringPaymentPermit.values);
  const key = (await pub.readContract({
    address: devnet.contracts.recurringPayments,
    abi: recurringPaymentsAbi,
    functionName: "scheduleKey",
    args: [payer.address, permit.scheduleId],
  })) as Hex;
  return { id: res.body.id as string, permit, signature, key };
}

const cancelApi = (id: string) =>
  call(manage, `/v2/payouts/recurring/${id}`, { method: "PATCH", headers: auth(), params: { id }, json: { action: "cancel" } });

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: viemHttp(devnet.rpcUrl), pollingInterval: 50 }) as PublicClient;
  await resetDb();
  outside = new pg.Client({ connectionString: testDatabaseUrl() });
  await outside.connect();
  a = await makeIntegrator();
  onAnvil = recurringAnvil(devnet, pub, auth);
  payer = await onAnvil.newPayer(1_000_000_000n);
  const approve = await onAnvil.walletOf(payer.key).writeContract({
    address: devnet.tokens.USDC,
    abi: erc20Abi,
    functionName: "approve",
    args: [devnet.contracts.recurringPayments, 10n ** 15n],
  });
  await pub.waitForTransactionReceipt({ hash: approve });
}, 60_000);

afterAll(async () => {
  setClock(null);
  await outside?.end();
  await rpc("evm_setAutomine", [true]).catch(() => {});
  await stopDevnet(devnet);
});

describe("a cancel racing the broadcast (property on anvil)", () => {
  it("never pays after the cancel; the relayer can no longer trigger the schedule", async () => {
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          hook: fc.constantFrom<Hook>("simulate", "nextNonce", "nextNonce", "send", "send", "after"),
          delayMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 40 })),
          waitForCancel: fc.boolean(),
          crashAfterSend: fc.boolean(),
          automine: fc.constantFrom(false, false, false, true),
        }),
        async (p) => {
          totals.runs++;
          const s = await dueSchedule();
          const violations: string[] = [];
          if (!p.automine) await rpc("evm_setAutomine", [false]);
          let cancelAnswer: Awaited<ReturnType<typeof cancelApi>> | null = null;
          let answeredAtBlock = -1n;
          const fire = deferred();
          const done = deferred();
          // Started here, outside the sweep's database transaction (an API request has its own).
          const cancelling = (async () => {
            await fire.promise;
            if (p.delayMs > 0) await sleep(p.delayMs);
            cancelAnswer = await cancelApi(s.id);
            answeredAtBlock = await pub.getBlockNumber();
            done.resolve();
          })();
          let fired = false;
          const hook = async (at: Hook) => {
            if (fired || at !== p.hook) return;
            fired = true;
            fire.resolve();
            // Waiting inside the locked broadcast would deadlock with the cancel's UPDATE: only before it.
            if (p.waitForCancel && at !== "send") await done.promise;
          };
          const chain = new HookChain(chainOrThrow(), hook, p.crashAfterSend, violations);
          const sweep = await sweepRecurringChain(chain, { leaseMs: 60_000, limit: 5 }).catch((err: Error) => err);
          if (!fired) {
            fired = true;
            fire.resolve(); // "after", or the sweep never reached the hook
          }
          await cancelling;
          if (sweep instanceof Error) violations.push(`sweep threw: ${sweep.message}`);
          const answer = cancelAnswer as Awaited<ReturnType<typeof cancelApi>> | null;
          if (answer?.status !== 200) violations.push(`cancel answered ${answer?.status}: ${JSON.stringify(answer?.body)}`);

          // Converge: mine what is pending, let the sweeps (the on-chain cancel's retries) finish.
          await rpc("evm_setAutomine", [true]);
          await rpc("evm_mine");
          for (let i = 0; i < 6; i++) {
            await alignClock();
            const pool = await rpc<{ pending: string; queued: string }>("txpool_status");
            const row = await db().recurringSchedule.findUniqueOrThrow({ where: { id: s.id } });
            if (row.chainCancel === "confirmed" && Number(pool.pending) + Number(pool.queued) === 0) break;
            await sweepChainCancels(chainOrThrow());
            await sweepRecurringChain(chainOrThrow(), { leaseMs: 1 });
            await rpc("evm_mine");
          }

          const logs = await pub.getLogs({ address: devnet.contracts.recurringPayments, fromBlock: 0n });
          const paid = parseEventLogs({ abi: recurringPaymentsAbi, logs, eventName: "PaymentTriggered" }).filter(
            (l) => l.args.key === s.key,
          );
          for (const l of paid) {
            if (!p.automine)
              violations.push(`paid (index ${l.args.index}, block ${l.blockNumber}) though nothing was mined before the cancel`);
            else if (l.blockNumber > answeredAtBlock)
              violations.push(
                `paid (index ${l.args.index}) in block ${l.blockNumber}, after the cancel answered at block ${answeredAtBlock}`,
              );
          }
          if (paid.length > 0) totals.paidBeforeCancel++;
          const read = (functionName: "isCancelled" | "lastPaidIndex") =>
            pub.readContract({ address: devnet.contracts.recurringPayments, abi: recurringPaymentsAbi, functionName, args: [s.key] });
          const [cancelled, lastPaid] = await Promise.all([read("isCancelled"), read("lastPaidIndex")]);
          if (cancelled !== true) violations.push("not cancelled on chain");
          const row = await db().recurringSchedule.findUniqueOrThrow({ where: { id: s.id } });
          if (row.status !== "cancelled") violations.push(`status ${row.status}`);
          if (row.chainCancel !== "confirmed") violations.push(`onChainCancel ${row.chainCancel} (${row.cancelError ?? "no error"})`);
          if (row.processedPayments > Number(lastPaid))
            violations.push(`DB counts ${row.processedPayments} paid, the contract ${lastPaid}`);
          const pool = await rpc<{ pending: string; queued: string }>("txpool_status");
          if (Number(pool.pending) + Number(pool.queued) > 0) violations.push(`pool not empty: ${JSON.stringify(pool)}`);
          // The relayer key itself can no longer take the next payment.
          const next = Number(lastPaid) + 1;
          // Its due time reached (NotDueYet is checked before the cancellation).
          const due = s.permit.dueTimes[next - 1]!;
          if ((await chainTime(devnet.rpcUrl)) < due) await moveDevnetClock(devnet.rpcUrl, { kind: "at", timestamp: due });
          const relayer = privateKeyToAccount(devnet.accounts.relayer.privateKey);
          const dryRun = await pub
            .simulateContract({
              address: devnet.contracts.recurringPayments,
              abi: recurringPaymentsAbi,
              functionName: "triggerPayment",
              args: [s.permit, s.signature, next],
              account: relayer,
            })
            .then(() => "would pay")
            .catch((err: Error) => (/ScheduleIsCancelled/.test(err.message) ? "ScheduleIsCancelled" : err.message.split("\n")[0]!));
          if (dryRun !== "ScheduleIsCancelled") violations.push(`relayer trigger of index ${next}: ${dryRun}`);
          if (chain.broadcast && row.cancelNonce !== null) {
            const trigger = await pub.getTransaction({ hash: chain.broadcast as Hex }).catch(() => null);
            if (trigger === null) totals.replacedByCancel++;
          }
          if (!chain.broadcast && sweep && !(sweep instanceof Error) && sweep.claimed > 0) totals.stoppedBeforeBroadcast++;
          expect(violations, JSON.stringify(p)).toEqual([]);
        },
      ),
      { numRuns: RUNS, endOnFailure: true, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
    console.info(`recurring cancel race on anvil: ${JSON.stringify(totals)} in ${Math.round(performance.now() - started)} ms`);
    // The interesting interleavings happened: triggers broadcast and replaced by the cancel, and cancels that stopped the send.
    expect(totals.replacedByCancel).toBeGreaterThan(0);
    expect(totals.stoppedBeforeBroadcast).toBeGreaterThan(0);
  }, 300_000);
});
