import type { usePlanRunner } from "@/components/pay/hooks/use-plan-runner";
import { isBusy, runStatusMessage, type StepLabels, stepLabels, stepsFor } from "@/components/pay/lib/plan";
import { groupAmount } from "@/components/shared/format";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { Checkout } from "@/lib/operations/checkout-schemas";
import type { PaymentPagePlan } from "@/lib/secure-payments/page-types";
import { PlanSteps } from "./plan-steps";

export { stepLabels };

export interface PlanPanelProps {
  data: Checkout;
  plan: PaymentPagePlan | undefined;
  planLoading: boolean;
  planError: string | null;
  onReloadPlan: () => void;
  runner: ReturnType<typeof usePlanRunner>;
  /** Starts (or, after a rejection or failure, restarts with a fresh plan) the transactions. */
  onPay: (retry: boolean) => void;
  nativeSymbol: string;
  /** Cross-chain: the steps' labels and what the wallet must hold on the source chain. */
  crossChain?: { labels: StepLabels; need: string };
  /** Another way to pay is offered first (gasless): this pay button is the secondary action. */
  secondary?: boolean;
}

/** After connecting on the right network: the plan's steps, the pay button, progress and the outcome. */
export function PlanPanel(props: PlanPanelProps) {
  const { data, plan, runner } = props;
  const labels = props.crossChain?.labels ?? stepLabels(data);
  const idle = runner.phase === "idle";
  const steps = idle && plan ? stepsFor(plan, labels) : runner.steps;
  const retryable = runner.phase === "rejected" || runner.phase === "failed";
  const busy = isBusy(runner.phase);
  const short = !busy && plan !== undefined && !plan.metadata.hasEnoughBalance;
  const message = runStatusMessage({
    phase: runner.phase,
    steps: runner.steps,
    error: runner.error,
    merchantName: data.merchant?.name ?? null,
    planLoading: props.planLoading,
    hasPlan: plan !== undefined,
  });

  return (
    <div className="space-y-4">
      {props.planError ? (
        <Alert role="alert" className="[overflow-wrap:anywhere]">
          <p>{props.planError}</p>
          <Button variant="secondary" onClick={props.onReloadPlan} className="mt-3">
            Try again
          </Button>
        </Alert>
      ) : null}
      {steps.length > 0 && !short ? <PlanSteps steps={steps} explorerPrefix={props.crossChain ? "" : data.network.explorerTxUrl} /> : null}
      {short ? (
        <Alert role="alert" tone="warning">
          <p className="font-semibold">Insufficient balance</p>
          <p className="mt-1">
            This wallet holds less than{" "}
            {props.crossChain?.need ?? `${groupAmount(data.totalAmount)} ${data.currency.symbol} on ${data.network.name}`}. Add funds or
            connect another wallet, then check again.
          </p>
          <Button variant="secondary" onClick={props.onReloadPlan} className="mt-3">
            Check again
          </Button>
        </Alert>
      ) : null}
      {idle && plan?.metadata.hasEnoughBalance && !plan.metadata.hasEnoughGas ? (
        <Alert as="p" tone="warning">
          This wallet may not hold enough {props.nativeSymbol} to pay the network fee.
        </Alert>
      ) : null}
      {retryable && !short ? (
        <Alert role="alert" className="[overflow-wrap:anywhere]">
          {runner.error}
        </Alert>
      ) : null}
      {plan && !short && !props.planError && (idle || retryable || busy) ? (
        <Button
          block
          variant={props.secondary ? "secondary" : "primary"}
          disabled={busy || (props.planLoading && !retryable)}
          onClick={() => props.onPay(retryable)}
        >
          {busy ? "Payment in progress…" : retryable ? "Try again" : plan.metadata.needsApproval ? `Approve and pay` : labels.pay}
        </Button>
      ) : null}
      <p role="status" aria-live="polite" className="min-h-5 text-sm text-slate-600">
        {retryable ? "" : message}
      </p>
    </div>
  );
}
