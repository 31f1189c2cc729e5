/**
 * A permit renewed while the executor holds a stale read of its schedule. The executor claims the
 * schedule (deadline D), the payer's renewal is stored (deadline and signature replaced, guarded by
 * D, as lib/recurring/permit-renewal.ts writes it), then the executor — still holding the row it read
 * with D, already past on chain — reaches its deadline_passed pause. The renewed schedule must stay
 * active (no failure code, its failure count untouched) and the next sweep must pay it under the
 * renewed permit. A schedule that is not renewed is paused by the same path (the control that shows
 * the path was taken).
 *
 * The chain is a stand-in with the contract's deadline rule (a trigger past the permit's deadline
 * reverts SignatureExpired → deadline_passed); the renewal is stored from its isCancelled read, the
 * executor's last chain call before it judges the deadline.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ulid } from "@/lib/ids";
import type { ChainSchedule, RecurringChain, SimulationResult } from "@/lib/recurring/chain";
import { sweepRecurringChain } from "@/lib/recurring/executor";
import { resetDb } from "@/tests/helpers/db";
import { makeAccount } from "@/tests/helpers/factories";

const DAY = 86_400;
const DUE = 1_900_000_000;
const OLD_DEADLINE = DUE + 3_600;
/** The chain's time: past the old deadline, well before the renewed one. */
const NOW = OLD_DEADLINE + 60;
const NEW_DEADLINE = NOW + 30 * DAY;
const OLD_SIGNATURE = `0x${"11".repeat(65)}`;
const NEW_SIGNATURE = `0x${"22".repeat(65)}`;

class RenewingChain implements RecurringChain {
  readonly network = "base";
  /** Schedules whose renewal is stored the first time the executor reads their on-chain state. */
  readonly renewOnRead = new Set<string>();
  readonly sent: { id: string; index: number; deadline: number; signature: string | null }[] = [];
  private nonces = 0;

  async latestBlockTime() {
    return NOW;
  }
  async isPaid() {
    return false;
  }
  async lastPaidIndex() {
    return 0;
  }
  async isCancelled(s: ChainSchedule) {
    if (this.renewOnRead.delete(s.id)) {
      const stored = await db().recurringSchedule.updateMany({
        where: { id: s.id, deadline: OLD_DEADLINE, status: "active" },
        data: { deadline: NEW_DEADLINE, permitSignature: NEW_SIGNATURE },
      });
      expect(stored.count).toBe(1);
    }
    return false;
  }
  async simulate(s: ChainSchedule): Promise<SimulationResult> {
    return NOW > s.deadline ? { ok: false, reason: "deadline_passed", message: "SignatureExpired" } : { ok: true };
  }
  async send(s: ChainSchedule, index: number) {
    this.sent.push({ id: s.id, index, deadline: s.deadline, signature: s.permitSignature });
    return `0x${this.sent.length.toString(16).padStart(64, "0")}`;
  }
  async receipt() {
    return "pending" as const;
  }
  async nextNonce() {
    return this.nonces++;
  }
  async nonceUsed() {
    return false;
  }
}

let accountId = "";

async function activeSchedule(): Promise<string> {
  const id = ulid();
  await db().recurringSchedule.create({
    data: {
      id,
      accountId,
      network: "base",
      chainId: 8453,
      contract: "0xcontract",
      token: "0xtoken",
      invoiceCurrency: "USDC-base",
      paymentCurrency: "USDC-base",
      frequency: "WEEKLY",
      startDate: new Date(DUE * 1000),
      payer: "0xpayer",
      payee: "0xpayee",
      amount: "1000000",
      feeAmount: "0",
      totalPayments: 2,
      dueTimes: [DUE, DUE + 7 * DAY],
      deadline: OLD_DEADLINE,
      nonce: "1",
      scheduleId: `0x${id.toLowerCase().padStart(64, "0")}`,
      permitSignature: OLD_SIGNATURE,
      status: "active",
      nextDueAt: new Date(DUE * 1000),
    },
  });
  return id;
}

beforeEach(async () => {
  await resetDb();
  accountId = (await makeAccount()).id;
});

describe("a permit renewed between the executor's read and its deadline_passed pause", () => {
  it("leaves the renewed schedule active; the next sweep pays it under the renewed permit", async () => {
    const chain = new RenewingChain();
    const renewed = await activeSchedule();
    const control = await activeSchedule();
    chain.renewOnRead.add(renewed);

    await sweepRecurringChain(chain, { concurrency: 1 });
    const after = await db().recurringSchedule.findUniqueOrThrow({ where: { id: renewed } });
    expect(after).toMatchObject({ status: "active", failureCode: null, failureCount: 0, deadline: NEW_DEADLINE, leaseUntil: null });
    // The control went down the same path with nothing renewed: paused once, for its deadline.
    expect(await db().recurringSchedule.findUniqueOrThrow({ where: { id: control } })).toMatchObject({
      status: "paused",
      failureCode: "deadline_passed",
      failureCount: 1,
    });
    expect(chain.sent).toEqual([]);

    await sweepRecurringChain(chain, { concurrency: 1 });
    expect(chain.sent).toEqual([{ id: renewed, index: 1, deadline: NEW_DEADLINE, signature: NEW_SIGNATURE }]);
    expect(await db().recurringSchedule.findUniqueOrThrow({ where: { id: renewed } })).toMatchObject({
      status: "active",
      failureCode: null,
      failureCount: 0,
    });
  });
});
