import { describe, expect, it, vi } from "vitest";
import {
  isBusy,
  type PlanStep,
  type RunPhase,
  runPlan,
  runStatusMessage,
  stepLabels,
  stepsFor,
  stepsOfRun,
  type TxSender,
} from "@/components/pay/lib/plan";
import type { PaymentPagePlan } from "@/lib/secure-payments/page-types";

const tx = (n: number) => ({
  to: `0x${String(n).padStart(40, "0")}`,
  data: "0x" as const,
  value: { type: "BigNumber" as const, hex: "0x0" as const },
});

function plan(count: number, payIndex: number): PaymentPagePlan {
  return {
    transactions: Array.from({ length: count }, (_, i) => tx(i)),
    metadata: {
      stepsRequired: count,
      needsApproval: payIndex > 0,
      approvalTransactionIndex: payIndex > 0 ? 0 : null,
      paymentTransactionIndex: payIndex,
      hasEnoughBalance: true,
      hasEnoughGas: true,
    },
  };
}

const labels = { approve: "Approve USDC", pay: "Pay 12.5 USDC" };

describe("stepsFor", () => {
  it("names approvals before the payment and fee transfers after it", () => {
    expect(stepsFor(plan(1, 0), labels).map((s) => [s.kind, s.label])).toEqual([["pay", "Pay 12.5 USDC"]]);
    expect(stepsFor(plan(2, 1), labels).map((s) => [s.kind, s.label])).toEqual([
      ["approve", "Approve USDC"],
      ["pay", "Pay 12.5 USDC"],
    ]);
    expect(stepsFor(plan(5, 2), labels).map((s) => [s.kind, s.label])).toEqual([
      ["approve", "Approve USDC (1 of 2)"],
      ["approve", "Approve USDC (2 of 2)"],
      ["pay", "Pay 12.5 USDC"],
      ["fee", "Send fee (1 of 2)"],
      ["fee", "Send fee (2 of 2)"],
    ]);
    expect(stepsFor(plan(2, 0), labels).map((s) => s.label)).toEqual(["Pay 12.5 USDC", "Send fee"]);
    expect(stepsFor(plan(2, 1), labels).every((s) => s.status === "ready" && s.txHash === null)).toBe(true);
  });

  it("keeps a confirmed approval shown on a retry whose plan no longer needs it", () => {
    const confirmed: PlanStep = { kind: "approve", label: "Approve USDC", status: "confirmed", txHash: "0xa" };
    const previous: PlanStep[] = [confirmed, { kind: "pay", label: "Pay 12.5 USDC", status: "ready", txHash: null }];
    expect(stepsOfRun(plan(1, 0), labels, previous)).toEqual([
      confirmed,
      { kind: "pay", label: "Pay 12.5 USDC", status: "ready", txHash: null },
    ]);
    // A plan that asks for the approval again starts afresh.
    expect(stepsOfRun(plan(2, 1), labels, previous).map((s) => s.status)).toEqual(["ready", "ready"]);
  });
});

describe("stepLabels", () => {
  const data = { currency: { symbol: "USDC" }, totalAmount: "1234.5", subStatus: null, recipients: ["0xpayee"] } as const;
  it("names the amount the next transaction sends, grouped", () => {
    expect(stepLabels(data as never)).toEqual({ approve: "Approve USDC", pay: "Pay 1,234.5 USDC" });
  });
  it("after a short fee with every amount received, asks for the missing fee alone", () => {
    expect(stepLabels({ ...data, totalAmount: "5", subStatus: "fee_short", recipients: [] } as never).pay).toBe(
      "Pay the missing fee (5 USDC)",
    );
  });
});

/** A wallet that answers in order and records what the page asked. */
function fakeSender(fail?: { at: number; error: unknown; when: "send" | "wait" }) {
  const log: string[] = [];
  let n = 0;
  const sender: TxSender = {
    send: vi.fn(async (t) => {
      const i = n++;
      log.push(`send ${t.to.slice(-1)}`);
      if (fail?.when === "send" && fail.at === i) throw fail.error;
      return `0xhash${i}`;
    }),
    wait: vi.fn(async (hash) => {
      log.push(`wait ${hash}`);
      if (fail?.when === "wait" && `0xhash${fail.at}` === hash) throw fail.error;
    }),
    paymentSubmitted: vi.fn((hash) => void log.push(`submitted ${hash}`)),
  };
  return { sender, log };
}

function recorder() {
  const steps: PlanStep[][] = [];
  const phases: RunPhase[] = [];
  const payments: string[] = [];
  return {
    steps,
    phases,
    payments,
    on: { steps: (s: PlanStep[]) => steps.push(s), phase: (p: RunPhase) => phases.push(p), paymentTx: (h: string) => payments.push(h) },
  };
}

describe("runPlan", () => {
  it("sends each transaction after the previous one is mined, and reports the payment as soon as the wallet returns it", async () => {
    const p = plan(3, 1);
    const { sender, log } = fakeSender();
    const r = recorder();
    const outcome = await runPlan(p, stepsOfRun(p, labels, []), sender, r.on);
    expect(outcome).toEqual({ ok: true });
    expect(log).toEqual(["send 0", "wait 0xhash0", "send 1", "submitted 0xhash1", "wait 0xhash1", "send 2", "wait 0xhash2"]);
    expect(r.phases).toEqual(["running", "payment_submitted", "payment_confirmed"]);
    expect(r.payments).toEqual(["0xhash1"]);
    const last = r.steps.at(-1)!;
    expect(last.map((s) => [s.kind, s.status, s.txHash])).toEqual([
      ["approve", "confirmed", "0xhash0"],
      ["pay", "confirmed", "0xhash1"],
      ["fee", "confirmed", "0xhash2"],
    ]);
    // Each step went ready → waiting_wallet → submitted → confirmed.
    expect(r.steps.map((s) => s[1]!.status)).toEqual([
      "ready",
      "ready",
      "ready",
      "ready",
      "waiting_wallet",
      "submitted",
      "confirmed",
      "confirmed",
      "confirmed",
      "confirmed",
    ]);
  });

  it("stops at a rejected step, puts it back to ready and sends nothing after it", async () => {
    const p = plan(2, 1);
    const rejection = Object.assign(new Error("User rejected the request."), { code: 4001 });
    const { sender, log } = fakeSender({ at: 1, error: rejection, when: "send" });
    const r = recorder();
    const outcome = await runPlan(p, stepsOfRun(p, labels, []), sender, r.on);
    expect(outcome).toEqual({ ok: false, error: rejection });
    expect(log).toEqual(["send 0", "wait 0xhash0", "send 1"]);
    expect(r.steps.at(-1)!.map((s) => s.status)).toEqual(["confirmed", "ready"]);
    expect(r.phases).toEqual(["running"]);
    expect(sender.paymentSubmitted).not.toHaveBeenCalled();
  });

  it("a payment that reverts after submission keeps its hash (the link is watched) and ends the run", async () => {
    const p = plan(1, 0);
    const reverted = new Error("The transaction failed on chain (it was reverted).");
    const { sender } = fakeSender({ at: 0, error: reverted, when: "wait" });
    const r = recorder();
    const outcome = await runPlan(p, stepsOfRun(p, labels, []), sender, r.on);
    expect(outcome).toEqual({ ok: false, error: reverted });
    expect(r.payments).toEqual(["0xhash0"]);
    expect(r.steps.at(-1)!.map((s) => [s.status, s.txHash])).toEqual([["submitted", "0xhash0"]]);
  });

  it("a retry after a confirmed approval starts at the payment, below the carried approval", async () => {
    const p = plan(1, 0);
    const carried: PlanStep = { kind: "approve", label: "Approve USDC", status: "confirmed", txHash: "0xold" };
    const { sender, log } = fakeSender();
    const r = recorder();
    await runPlan(p, stepsOfRun(p, labels, [carried]), sender, r.on);
    expect(log).toEqual(["send 0", "submitted 0xhash0", "wait 0xhash0"]);
    expect(r.steps.at(-1)!.map((s) => [s.kind, s.status, s.txHash])).toEqual([
      ["approve", "confirmed", "0xold"],
      ["pay", "confirmed", "0xhash0"],
    ]);
  });
});

describe("runStatusMessage and isBusy", () => {
  const base = { steps: [] as PlanStep[], error: null, merchantName: "Demo platform", planLoading: false, hasPlan: true };
  const step = (status: PlanStep["status"]): PlanStep => ({ kind: "pay", label: "Pay 5 USDC", status, txHash: null });
  it("says what the payer waits for at each phase", () => {
    expect(runStatusMessage({ ...base, phase: "running", steps: [step("waiting_wallet")] })).toBe(
      "Pay 5 USDC: confirm the request in your wallet.",
    );
    expect(runStatusMessage({ ...base, phase: "running", steps: [step("submitted")] })).toBe(
      "Pay 5 USDC: submitted, waiting for confirmation.",
    );
    expect(runStatusMessage({ ...base, phase: "payment_submitted" })).toBe("Payment submitted. Waiting for it to be confirmed on chain…");
    expect(runStatusMessage({ ...base, phase: "payment_confirmed" })).toBe("Payment mined. Confirming it for Demo platform…");
    expect(runStatusMessage({ ...base, phase: "payment_confirmed", merchantName: null })).toBe(
      "Payment mined. Confirming it for the recipient…",
    );
    expect(runStatusMessage({ ...base, phase: "failed", error: "boom" })).toBe("boom");
    expect(runStatusMessage({ ...base, phase: "idle", planLoading: true, hasPlan: false })).toBe("Preparing your payment…");
    expect(runStatusMessage({ ...base, phase: "idle" })).toBe("");
  });
  it("is busy from the first wallet request until the link settles", () => {
    expect((["idle", "running", "rejected", "failed", "payment_submitted", "payment_confirmed"] as RunPhase[]).filter(isBusy)).toEqual([
      "running",
      "payment_submitted",
      "payment_confirmed",
    ]);
  });
});
