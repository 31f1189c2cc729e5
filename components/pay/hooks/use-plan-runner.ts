"use client";

import { useCallback, useRef, useState } from "react";
import { type PlanStep, type RunPhase, runPlan, type StepLabels, stepsOfRun, type TxSender } from "@/components/pay/lib/plan";
import { isUserRejection, walletErrorMessage } from "@/components/shared/wallet-errors";
import type { PaymentPagePlan } from "@/lib/secure-payments/page-types";

export type { TxSender };

/** Sends a plan's transactions strictly in order, each one mined before the next is asked for (lib/plan runPlan). */
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
    setError(null);
    try {
      const outcome = await runPlan(plan, stepsOfRun(plan, labels, lastSteps.current), sender, {
        steps: (s) => {
          lastSteps.current = s;
          setSteps(s);
        },
        phase: setPhase,
        paymentTx: setPaymentTx,
      });
      if (!outcome.ok) {
        setError(walletErrorMessage(outcome.error));
        setPhase(isUserRejection(outcome.error) ? "rejected" : "failed");
      }
    } finally {
      running.current = false;
    }
  }, []);

  return { steps, phase, error, paymentTx, run };
}
