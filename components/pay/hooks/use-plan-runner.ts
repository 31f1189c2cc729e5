"use client";

import { useCallback, useRef, useState } from "react";
import { describeError, isUserRejection, REJECTED_MESSAGE } from "@/components/shared/wallet-errors";
import type { PaymentPagePlan } from "@/lib/secure-payments/page-types";

export type PlanTx = PaymentPagePlan["transactions"][number];
export type StepStatus = "ready" | "waiting_wallet" | "submitted" | "confirmed";

export interface PlanStep {
  /** fee: a fee-only transfer after the payment (a fee plan with several fee addresses). */
  kind: "approve" | "pay" | "fee";
  label: string;
  status: StepStatus;
  txHash: string | null;
}

/**
 * idle → running → payment_submitted → payment_confirmed; any step can end the run in
 * `rejected` (the payer said no in the wallet) or `failed` (anything else), both retryable.
 */
export type RunPhase = "idle" | "running" | "rejected" | "failed" | "payment_submitted" | "payment_confirmed";

/** How one chain family sends a transaction and waits for it to be mined. */
export interface TxSender {
  send(tx: PlanTx): Promise<string>;
  /** Resolves once mined successfully; rejects when it reverted or could not be confirmed. */
  wait(hash: string): Promise<void>;
  /** The payment's hash, as soon as the wallet returns it (the page records it: "processing"). */
  paymentSubmitted?(hash: string): void;
}

export interface StepLabels {
  approve: string;
  pay: string;
}

/**
 * One step per transaction: every index before the payment is an approval (or an allowance reset);
 * any after it is a fee-only transfer to another fee address of the link's fee plan.
 */
export function stepsFor(plan: PaymentPagePlan, labels: StepLabels): PlanStep[] {
  const payIndex = plan.metadata.paymentTransactionIndex;
  const approvals = payIndex;
  const fees = plan.transactions.length - payIndex - 1;
  let n = 0;
  return plan.transactions.map((_, i) => {
    if (i === payIndex) return { kind: "pay", label: labels.pay, status: "ready", txHash: null };
    if (i > payIndex) {
      const k = i - payIndex;
      return { kind: "fee", label: fees > 1 ? `Send fee (${k} of ${fees})` : "Send fee", status: "ready", txHash: null };
    }
    n++;
    return {
      kind: "approve",
      label: approvals > 1 ? `${labels.approve} (${n} of ${approvals})` : labels.approve,
      status: "ready",
      txHash: null,
    };
  });
}

/** Sends a plan's transactions strictly in order, each one mined before the next is asked for. */
export function usePlanRunner() {
  const [steps, setSteps] = useState<PlanStep[]>([]);
  const [phase, setPhase] = useState<RunPhase>("idle");
  const [error, setError] = useState<string | null>(null);
  /** Set once the payment is submitted and kept through later failures: the link is watched from then on. */
  const [paymentTx, setPaymentTx] = useState<string | null>(null);
  const running = useRef(false);
  const lastSteps = useRef<PlanStep[]>([]);

  const run = useCallback(async (plan: PaymentPagePlan, labels: StepLabels, sender: TxSender) => {
    if (running.current) return;
    running.current = true;
    const fresh = stepsFor(plan, labels);
    // A retry after a confirmed approval gets a plan without it: keep showing it as done.
    const carried = fresh.some((s) => s.kind === "approve")
      ? []
      : lastSteps.current.filter((s) => s.kind === "approve" && s.status === "confirmed");
    let current: PlanStep[] = [...carried, ...fresh];
    const update = (i: number, patch: Partial<PlanStep>) => {
      current = current.map((s, j) => (j === i ? { ...s, ...patch } : s));
      lastSteps.current = current;
      setSteps(current);
    };
    lastSteps.current = current;
    setSteps(current);
    setError(null);
    setPhase("running");
    let at = carried.length;
    try {
      for (const tx of plan.transactions) {
        const isPayment = current[at]?.kind === "pay";
        update(at, { status: "waiting_wallet" });
        const hash = await sender.send(tx);
        update(at, { status: "submitted", txHash: hash });
        // Detection may see the payment before our receipt poll does: start watching the link now.
        if (isPayment) {
          sender.paymentSubmitted?.(hash);
          setPaymentTx(hash);
          setPhase("payment_submitted");
        }
        await sender.wait(hash);
        update(at, { status: "confirmed" });
        if (isPayment) setPhase("payment_confirmed");
        at++;
      }
    } catch (err) {
      const rejected = isUserRejection(err);
      if (current[at]?.status === "waiting_wallet") update(at, { status: "ready" });
      setError(rejected ? REJECTED_MESSAGE : describeError(err));
      setPhase(rejected ? "rejected" : "failed");
    } finally {
      running.current = false;
    }
  }, []);

  return { steps, phase, error, paymentTx, run };
}
