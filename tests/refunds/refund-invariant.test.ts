/**
 * The money invariant of refunds (issue 28), as a property (fast-check, fixed seed): random
 * sequences of payments, refunds prepared / sent (reported or not) / cancelled / landing on chain,
 * deposit-relayer returns, and re-scans of everything already seen, fed to the real recording
 * functions on the real database as detection hands them over (TransferEvent objects, no chain).
 * After every step, for every request:
 * - paid − refunded − returned ≥ 0, where paid is what the payer sent (the payments the payee
 *   received, plus what the relayer returned), refunded the payee's confirmed refunds;
 * - PaymentRequest.amountRefunded equals the sum of the confirmed payee refund rows, and the sum of
 *   the payee refund transfers that landed (each once, whatever the re-scans);
 * - one payment.refunded event per refund transfer;
 * and prepareRefund accepts an amount exactly when it is > 0 and at most what a model of the
 * ledger says remains (received − refunds confirmed, sent or prepared and not cancelled).
 * A wallet here sends only refunds that are prepared; a cancelled sent refund is one whose
 * transaction failed (it never lands). Sending more than Duebill prepared is the chain's truth,
 * recorded as such (tests/refunds/refunds-api.test.ts), and outside this invariant.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiKeyPrincipal } from "@/lib/auth/api-credentials";
import { db } from "@/lib/db";
import { recordTransfer } from "@/lib/detection/record-payment";
import type { TransferEvent } from "@/lib/detection/types";
import { AppError } from "@/lib/errors";
import type { PaymentRequest } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";
import { cancelRefund, insertRefund, markRefundSent, prepareRefund, recordRefundTransfer } from "@/lib/refunds";
import { createRequest } from "@/lib/requests/create-request";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";

const SEED = Number(process.env.FUZZ_SEED ?? 0x2828);
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const PAYEE = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const PAYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

type Action =
  | { t: "pay"; r: number; units: number }
  /**
   * share: what to ask for in permille of what the model says remains (above 1000: more than remains), "one": 1 USDC (refunds
   * of equal amounts), null: omit amount; wallet: what the wallet does at once (send and report it, send silently, nothing yet).
   */
  | { t: "prepare"; r: number; share: number | "one" | null; wallet: "report" | "silent" | "wait" }
  | { t: "send"; i: number; report: boolean }
  | { t: "cancel"; i: number }
  | { t: "land"; i: number }
  | { t: "return"; r: number; units: number }
  | { t: "rescan" };

const pay = fc.record({ t: fc.constant("pay" as const), r: fc.nat(1), units: fc.integer({ min: 1, max: 6_000_000 }) });
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 2, arbitrary: pay },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant("prepare" as const),
      r: fc.nat(1),
      share: fc.oneof(
        fc.constant(null),
        fc.constant(0),
        fc.constant("one" as const),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1001, max: 1500 }),
      ),
      wallet: fc.constantFrom("report" as const, "silent" as const, "wait" as const),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("send" as const), i: fc.nat(20), report: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("cancel" as const), i: fc.nat(20) }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant("land" as const), i: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("return" as const), r: fc.nat(1), units: fc.integer({ min: 1, max: 2_000_000 }) }) },
  { weight: 1, arbitrary: fc.constant({ t: "rescan" as const }) },
);

/** What the test believes, from the outside. */
interface Model {
  received: bigint[];
  /** Per refund (by id): its request, amount, and whether it still holds its amount / landed. */
  refunds: {
    id: string;
    r: number;
    amount: bigint;
    status: "prepared" | "sent" | "confirmed" | "cancelled";
    sender: "payee" | "relayer";
  }[];
  /** Refund transfers sent, not yet seen by detection. */
  pending: { refundId: string; ev: TransferEvent; r: number }[];
  /** Transfers detection has seen (payments and refunds), to be fed again by a re-scan. */
  seen: { ev: TransferEvent; r: number; refund: boolean }[];
  refunded: bigint[];
  returned: bigint[];
}

let account: string;
let tx = 0;

const hash = () => `0x${(++tx).toString(16).padStart(64, "0")}`;

function event(request: PaymentRequest, e: Partial<TransferEvent> & { amount: bigint; referenceHash: string }): TransferEvent {
  return {
    txHash: hash(),
    logIndex: 0,
    blockNumber: BigInt(tx),
    blockHash: `0x${"c".repeat(56)}${tx.toString(16).padStart(8, "0")}`,
    blockTime: new Date("2026-11-27T10:00:00Z"),
    proxyAddress: "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814",
    tokenAddress: request.tokenAddress,
    to: PAYEE,
    feeAmount: 0n,
    feeAddress: null,
    from: PAYER,
    ...e,
  };
}

const holding = (m: Model, r: number) =>
  m.refunds.filter((x) => x.r === r && x.sender === "payee" && x.status !== "cancelled").reduce((a, x) => a + x.amount, 0n);

/** The payee's wallet sends a refund's calldata (the transfer detection will see), reporting its hash or not. */
async function send(m: Model, requests: PaymentRequest[], refund: Model["refunds"][number], report: boolean): Promise<void> {
  const row = await db().refund.findUniqueOrThrow({ where: { id: refund.id } });
  const request = requests[refund.r]!;
  const ev = event(request, { amount: refund.amount, referenceHash: row.referenceHash, to: row.toAddress, from: PAYEE });
  if (report) {
    await markRefundSent(account, request.id, refund.id, ev.txHash);
    refund.status = "sent";
  }
  m.pending.push({ refundId: refund.id, ev, r: refund.r });
}

async function step(m: Model, requests: PaymentRequest[], a: Action): Promise<void> {
  switch (a.t) {
    case "pay": {
      const request = requests[a.r]!;
      const ev = event(request, { amount: BigInt(a.units), referenceHash: request.referenceHash });
      expect(await recordTransfer(request, ev)).toBe("recorded");
      m.received[a.r]! += BigInt(a.units);
      m.seen.push({ ev, r: a.r, refund: false });
      return;
    }
    case "prepare": {
      const left = m.received[a.r]! - holding(m, a.r);
      // A share of what remains (at least 1 unit above it when asking for more; 1 USDC when nothing remains).
      const asked =
        a.share === null
          ? null
          : a.share === "one"
            ? 1_000_000n
            : left > 0n
              ? (left * BigInt(a.share)) / 1000n + (a.share > 1000 ? 1n : 0n)
              : BigInt(a.share) * 1000n;
      const want = asked ?? left;
      const allowed = m.received[a.r]! > 0n && want > 0n && want <= left;
      try {
        const res = await prepareRefund(account, requests[a.r]!.id, asked === null ? {} : { amount: formatAmount(asked, 6) });
        expect(allowed, `prepared ${want} with ${left} left`).toBe(true);
        expect(res.refund.amount).toBe(formatAmount(want, 6));
        m.refunds.push({ id: res.refund.id, r: a.r, amount: want, status: "prepared", sender: "payee" });
        if (a.wallet !== "wait") await send(m, requests, m.refunds.at(-1)!, a.wallet === "report");
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        expect(allowed, `refused ${want} with ${left} left: ${err.message}`).toBe(false);
        if (m.received[a.r] === 0n) expect(err.status).toBe(409);
        else expect(err.errors?.[0]?.field).toBe("amount");
      }
      return;
    }
    case "send": {
      // A wallet sends each prepared refund once (sending it twice is outside the invariant: see above).
      const open = m.refunds.filter((x) => x.status === "prepared" && x.sender === "payee" && !m.pending.some((p) => p.refundId === x.id));
      const refund = open[a.i % Math.max(open.length, 1)];
      if (refund) await send(m, requests, refund, a.report);
      return;
    }
    case "cancel": {
      const open = m.refunds.filter((x) => (x.status === "prepared" || x.status === "sent") && x.sender === "payee");
      const refund = open[a.i % Math.max(open.length, 1)];
      if (!refund) return;
      await cancelRefund(account, requests[refund.r]!.id, refund.id);
      refund.status = "cancelled";
      // Its transaction, if the wallet sent one, failed: it never lands.
      m.pending = m.pending.filter((p) => p.refundId !== refund.id);
      return;
    }
    case "land": {
      const p = m.pending[a.i % Math.max(m.pending.length, 1)];
      if (!p) return;
      m.pending = m.pending.filter((x) => x !== p);
      expect(await recordRefundTransfer(requests[p.r]!, p.ev)).toBe("recorded");
      m.seen.push({ ev: p.ev, r: p.r, refund: true });
      // Detection confirms a waiting row of that reference (the reported one, else one of the same amount): the model
      // moves the row the same way — which row does not matter for the totals, only that one holding row becomes confirmed.
      const sender = m.refunds.find((x) => x.id === p.refundId)!.sender;
      const confirmed = await db().refund.findFirstOrThrow({ where: { txHash: p.ev.txHash } });
      const mine = m.refunds.find((x) => x.id === confirmed.id)!;
      expect(mine.status === "prepared" || mine.status === "sent").toBe(true);
      expect(mine.amount).toBe(p.ev.amount);
      mine.status = "confirmed";
      if (confirmed.id !== p.refundId) {
        // The wallet's transfer confirmed another waiting row of the same amount: the refund it was sent for still waits,
        // and its calldata is spent — keep the books as the database now holds them.
        const other = m.pending.find((x) => x.refundId === confirmed.id);
        if (other) other.refundId = p.refundId;
      }
      if (sender === "payee") m.refunded[p.r]! += p.ev.amount;
      else m.returned[p.r]! += p.ev.amount;
      return;
    }
    case "return": {
      // The deposit relayer returns an excess: its row is written with its transaction, then detection sees it.
      const request = requests[a.r]!;
      const txHash = hash();
      const row = await db().$transaction((t) =>
        insertRefund(t, request, { to: PAYER, amount: BigInt(a.units), reason: "excess", sender: "relayer", txHash }),
      );
      m.refunds.push({ id: row.id, r: a.r, amount: BigInt(a.units), status: "sent", sender: "relayer" });
      m.pending.push({
        refundId: row.id,
        ev: event(request, { txHash, amount: BigInt(a.units), referenceHash: row.referenceHash, to: PAYER, from: PAYEE }),
        r: a.r,
      });
      return;
    }
    case "rescan": {
      for (const s of m.seen) {
        const outcome = s.refund ? await recordRefundTransfer(requests[s.r]!, s.ev) : await recordTransfer(requests[s.r]!, s.ev);
        expect(outcome).toBe("duplicate");
      }
      return;
    }
  }
}

async function checkInvariant(m: Model, requests: PaymentRequest[]): Promise<void> {
  for (const [r, request] of requests.entries()) {
    const [row, payments, refunds, events] = await Promise.all([
      db().paymentRequest.findUniqueOrThrow({ where: { id: request.id } }),
      db().payment.findMany({ where: { requestId: request.id } }),
      db().refund.findMany({ where: { requestId: request.id } }),
      db().outboxEvent.count({ where: { requestId: request.id, type: "payment.refunded" } }),
    ]);
    const sum = (xs: { amount: { toFixed(): string } }[]) => xs.reduce((a, x) => a + BigInt(x.amount.toFixed()), 0n);
    const received = sum(payments);
    const confirmed = refunds.filter((x) => x.status === "confirmed");
    const refunded = sum(confirmed.filter((x) => x.sender === "payee"));
    const returned = sum(confirmed.filter((x) => x.sender === "relayer"));
    const paid = received + returned;
    expect(paid - refunded - returned).toBeGreaterThanOrEqual(0n);
    expect(BigInt(row.amountRefunded.toFixed())).toBe(refunded);
    expect(refunded).toBe(m.refunded[r]);
    expect(returned).toBe(m.returned[r]);
    expect(received).toBe(m.received[r]);
    expect(sum(refunds.filter((x) => x.sender === "payee" && x.status !== "cancelled"))).toBeLessThanOrEqual(received);
    expect(events).toBe(confirmed.length);
  }
}

beforeAll(async () => {
  await resetDb();
});

describe("refund money invariant (property)", () => {
  it("holds for random sequences of payments, refunds, returns and re-scans", async () => {
    await fc.assert(
      // A run starts with a payment or two (refunds need something paid), then anything in any order.
      fc.asyncProperty(
        fc.array(pay, { minLength: 1, maxLength: 3 }),
        fc.array(action, { minLength: 5, maxLength: 25, size: "medium" }),
        async (pays, rest) => {
          const actions: Action[] = [...pays, ...rest];
          await resetDb();
          const a = await makeIntegrator();
          account = a.account.id;
          // Offers of an overpayment's excess (the account's default policy) are covered by tests/refunds/offer-caps.test.ts
          // and wrong-amounts.test.ts: here the payee's own refunds and the relayer's returns are the only refunds.
          await db().account.update({ where: { id: account }, data: { excessPolicy: "keep" } });
          const requests: PaymentRequest[] = [];
          for (let i = 0; i < 2; i++) {
            const created = await createRequest(
              { kind: "apiKey", accountId: account, credentialId: a.apiKeyId, rateTier: "default" } as ApiKeyPrincipal,
              { amount: "10", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base", payee: PAYEE },
            );
            requests.push(await db().paymentRequest.findUniqueOrThrow({ where: { id: created.requestId } }));
          }
          expect(requests[0]!.tokenAddress).toBe(USDC_BASE);
          const m: Model = { received: [0n, 0n], refunds: [], pending: [], seen: [], refunded: [0n, 0n], returned: [0n, 0n] };
          for (const act of actions) {
            await step(m, requests, act);
            await checkInvariant(m, requests);
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  }, 600_000);
});
