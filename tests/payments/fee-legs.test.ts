/**
 * The fee rule's arithmetic against vectors worked out by hand (issue #24): how a fee plan splits
 * a request into legs per destination, and where a request stands after given payments.
 */
import { describe, expect, it } from "vitest";
import { type FeePlan, splitByPlan } from "@/lib/fees/fee-plan";
import { feeLegsOf, feeProgress, payableOf } from "@/lib/payments/fee-legs";

const A = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const B = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
const dec = (n: bigint | number) => ({ toFixed: () => String(n) });

function plan(entries: { usd: string; bearer: "payer" | "payee"; evm?: string; tron?: string }[], gross = "100.00"): FeePlan {
  return {
    version: 1,
    flow: "get_paid",
    defaultFeeBearer: "payer",
    grossAmountUsd: gross,
    netRecipientAmountUsd: gross,
    payerTotalAmountUsd: gross,
    totalFeesUsd: "0.00",
    payeeBorneFeesUsd: "0.00",
    payerBorneFeesUsd: "0.00",
    fees: entries.map((e) => ({
      type: "platform",
      label: "fee",
      feeBearer: e.bearer,
      feeBearerSource: "fee_config",
      percentageBps: 0,
      capUsd: null,
      calculatedAmountUsd: e.usd,
      destinationResolver: "fee_config",
      destinationRef: { ...(e.evm ? { evmAddress: e.evm } : {}), ...(e.tron ? { tronAddress: e.tron } : {}) },
      configSource: "fee_config:x",
    })),
  };
}

describe("splitByPlan", () => {
  it("one leg per destination: 3 % to A and 2 % to B of a 100 USDC plan, on a 40 USDC request", () => {
    // 40 USDC = 40_000_000 units; 3.00 of 100.00 → 1_200_000; 2.00 → 800_000.
    const s = splitByPlan(
      plan([
        { usd: "3.00", bearer: "payer", evm: A },
        { usd: "2.00", bearer: "payer", evm: B },
      ]),
      A,
      40_000_000n,
    );
    expect(s).toEqual({
      toPayee: 40_000_000n,
      fee: 2_000_000n,
      feeAddress: A,
      legs: [
        { address: A, amount: 1_200_000n },
        { address: B, amount: 800_000n },
      ],
    });
  });

  it("entries to one address add up; a payee-borne entry comes out of what the payee gets", () => {
    const s = splitByPlan(
      plan(
        [
          { usd: "1.00", bearer: "payee", evm: A },
          { usd: "0.50", bearer: "payer", evm: A.toLowerCase() },
        ],
        "10.00",
      ),
      A,
      10_000_000n,
    );
    expect(s).toEqual({ toPayee: 9_000_000n, fee: 1_500_000n, feeAddress: A, legs: [{ address: A, amount: 1_500_000n }] });
  });

  it("an entry without an address on the request's chain goes to the plan's fee address; Tron entries use their Tron address", () => {
    const tron = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";
    const s = splitByPlan(
      plan([
        { usd: "1.00", bearer: "payer", tron },
        { usd: "1.00", bearer: "payer", evm: B },
      ]),
      tron,
      100_000_000n,
      "tron",
    );
    expect(s.legs).toEqual([{ address: tron, amount: 2_000_000n }]);
  });

  it("no plan or no fee address: no fee", () => {
    expect(splitByPlan(null, null, 5n)).toEqual({ toPayee: 5n, fee: 0n, feeAddress: null, legs: [] });
  });
});

describe("feeProgress", () => {
  const legs = [
    { address: A, amount: 3_000_000n },
    { address: B, amount: 2_000_000n },
  ];
  const pay = (feeAddress: string | null, fee: bigint) => ({ feeAddress, feeAmount: dec(fee) });

  it("amount paid, fees paid: paid", () => {
    const p = feeProgress(100_000_000n, 100_000_000n, legs, [pay(A, 3_000_000n), pay(B.toLowerCase(), 2_000_000n)]);
    expect(p).toMatchObject({ paid: true, subStatus: null, owedAmount: 0n });
  });

  it("amount paid, fee 0: fee_short with each whole leg missing", () => {
    const p = feeProgress(100_000_000n, 100_000_000n, legs, [pay(A, 0n)]);
    expect(p.paid).toBe(false);
    expect(p.subStatus).toBe("fee_short");
    expect(p.legs.map((l) => l.missing)).toEqual([3_000_000n, 2_000_000n]);
  });

  it("over-paying one leg pays no other; a fee to a stranger counts for nothing", () => {
    const p = feeProgress(100_000_000n, 100_000_000n, legs, [
      pay(A, 9_000_000n),
      pay("0x000000000000000000000000000000000000dEaD", 2_000_000n),
    ]);
    expect(p.legs.map((l) => [l.owed, l.missing])).toEqual([
      [0n, 0n],
      [2_000_000n, 2_000_000n],
    ]);
    expect(payableOf({ feeAddress: A }, p)).toEqual({ amount: 0n, feeAmount: 2_000_000n, feeAddress: B, extraFeeLegs: [] });
  });

  it("a partial amount owes its share, rounded down: 1/3 paid owes 1_000_000 and 666_666", () => {
    const p = feeProgress(3_000_000n, 1_000_000n, legs, [pay(A, 1_000_000n), pay(B, 666_666n)]);
    expect(p).toMatchObject({ paid: false, subStatus: null, owedAmount: 2_000_000n });
    const short = feeProgress(3_000_000n, 1_000_000n, legs, [pay(A, 1_000_000n), pay(B, 666_665n)]);
    expect(short.subStatus).toBe("fee_short");
    expect(short.legs[1]!.missing).toBe(1n);
    // What is asked next: the rest of the amount, the rest of leg A with it, the rest of leg B after it.
    expect(payableOf({ feeAddress: A }, short)).toEqual({
      amount: 2_000_000n,
      feeAmount: 2_000_000n,
      feeAddress: A,
      extraFeeLegs: [{ address: B, amount: 1_333_335n }],
    });
  });

  it("a conversion payment's fee counts in the invoice currency (invoiceFeeAmount), not the token", () => {
    const p = feeProgress(
      100_00000000n,
      100_00000000n,
      [{ address: A, amount: 2_00000000n }],
      [{ feeAddress: A, feeAmount: dec(2_160_000n), invoiceFeeAmount: dec(2_00000000n) }],
    );
    expect(p.paid).toBe(true);
  });

  it("a request without a fee has no legs: its amount alone decides", () => {
    expect(feeLegsOf({ feeLegs: null, feeAmount: dec(0), feeAddress: A })).toEqual([]);
    expect(feeProgress(10n, 10n, [], [])).toMatchObject({ paid: true, subStatus: null });
    expect(feeProgress(10n, 9n, [], [])).toMatchObject({ paid: false, subStatus: null, owedAmount: 1n });
  });
});
