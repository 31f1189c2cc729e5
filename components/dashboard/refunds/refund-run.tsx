"use client";

import { type ReactNode, useCallback, useState } from "react";
import { usePlanRunner } from "@/components/pay/hooks/use-plan-runner";
import { isBusy, type StepLabels, stepsFor, type TxSender } from "@/components/pay/lib/plan";
import { PlanSteps } from "@/components/pay/panels/plan-steps";
import { groupAmount, shortenAddress } from "@/components/shared/format";
import { walletErrorMessage } from "@/components/shared/wallet-errors";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { PaymentPagePlan } from "@/lib/secure-payments/page-types";
import type { RefundWalletProps } from "./refund-types";

/** Addresses compared as the chain does: EVM case-insensitively, Tron's base58 exactly. */
export const sameWallet = (a: string, b: string) => (a.startsWith("0x") ? a.toLowerCase() === b.toLowerCase() : a === b);

/**
 * Sends one refund from the connected wallet: its transactions are read fresh from the server at
 * each start (a confirmed approval is not asked again), sent strictly in order with each mined
 * before the next (the pay page's runner), and the refund transfer's hash is reported as soon as
 * the wallet returns it (status sent: detection confirms it from the chain).
 */
export function useRefundRun({ requestId, job, symbol, actions, onSent }: RefundWalletProps) {
  const runner = usePlanRunner();
  const [plan, setPlan] = useState<PaymentPagePlan | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [short, setShort] = useState(false);
  const labels: StepLabels = {
    approve: `Approve ${symbol}`,
    pay: `Refund ${groupAmount(job.amount)} ${symbol} to ${shortenAddress(job.toAddress)}`,
  };

  const report = useCallback(
    async (hash: string) => {
      const out = await actions.markSent({ requestId, refundId: job.refundId, txHash: hash });
      if (out.error) setError(`The refund was sent (${hash}) but could not be recorded: ${out.error}`);
      else onSent(hash);
    },
    [actions, requestId, job.refundId, onSent],
  );

  /** `before` runs once the plan is known and before the wallet is asked (switching its network). */
  const start = async (sender: TxSender, before?: () => Promise<void>) => {
    setError(null);
    setShort(false);
    setLoading(true);
    let current: PaymentPagePlan;
    try {
      const res = await actions.plan({ requestId, refundId: job.refundId });
      if (!res.plan) {
        setError(res.error ?? "Could not prepare the refund's transactions.");
        return;
      }
      current = res.plan;
      setPlan(current);
      if (!current.metadata.hasEnoughBalance) {
        setShort(true);
        return;
      }
      await before?.();
    } catch (err) {
      setError(walletErrorMessage(err));
      return;
    } finally {
      setLoading(false);
    }
    await runner.run(current, labels, { ...sender, paymentSubmitted: (hash) => void report(hash) });
  };

  return { runner, plan, error, loading, short, labels, start };
}

type Run = ReturnType<typeof useRefundRun>;

/** The refund's steps, the one button that sends them, and where the run stands. */
export function RefundRunView({
  run,
  symbol,
  amount,
  nativeSymbol,
  explorerPrefix,
  onStart,
}: {
  run: Run;
  symbol: string;
  amount: string;
  nativeSymbol: string;
  explorerPrefix: string;
  onStart: () => void;
}) {
  const { runner, plan } = run;
  const idle = runner.phase === "idle";
  const busy = isBusy(runner.phase) || run.loading;
  const retryable = runner.phase === "rejected" || runner.phase === "failed" || Boolean(run.error) || run.short;
  const done = runner.phase === "payment_confirmed" || (runner.phase === "payment_submitted" && !run.error);
  const steps = idle && plan ? stepsFor(plan, run.labels) : runner.steps;
  const active = runner.steps.find((s) => s.status === "waiting_wallet" || s.status === "submitted");
  let message: ReactNode = "";
  if (run.loading) message = "Preparing the refund's transactions…";
  else if (runner.phase === "running" && active)
    message =
      active.status === "waiting_wallet"
        ? `${active.label}: confirm it in your wallet.`
        : `${active.label}: submitted, waiting for it to be mined.`;
  else if (runner.phase === "payment_submitted") message = "Refund sent. Waiting for it to be mined; this page updates by itself.";
  else if (runner.phase === "payment_confirmed")
    message = "Refund mined. Duebill confirms it as soon as it sees the transfer; this page updates by itself.";
  const error = run.error ?? (runner.phase === "rejected" || runner.phase === "failed" ? runner.error : null);
  return (
    <div className="space-y-3">
      {steps.length > 0 ? <PlanSteps steps={steps} explorerPrefix={explorerPrefix} label="Refund steps" /> : null}
      {run.short ? (
        <Alert role="alert" tone="warning">
          This wallet holds less than {groupAmount(amount)} {symbol}: add funds to it, then try again.
        </Alert>
      ) : null}
      {idle && plan?.metadata.hasEnoughBalance && !plan.metadata.hasEnoughGas ? (
        <Alert as="p" tone="warning">
          This wallet may not hold enough {nativeSymbol} to pay the network fee.
        </Alert>
      ) : null}
      {error ? (
        <Alert as="p" role="alert" className="[overflow-wrap:anywhere]">
          {error}
        </Alert>
      ) : null}
      {done ? null : (
        <Button variant="compact" disabled={busy} onClick={onStart}>
          {busy
            ? "Refund in progress…"
            : retryable
              ? "Try again"
              : plan?.metadata.needsApproval
                ? "Approve and send refund"
                : "Send refund"}
        </Button>
      )}
      <p role="status" aria-live="polite" className="min-h-5 text-sm text-slate-600">
        {message}
      </p>
    </div>
  );
}
