import { type StepLabels, stepsFor, type usePlanRunner } from "@/components/pay/hooks/use-plan-runner";
import { groupAmount } from "@/components/shared/format";
import type { PaymentPageData, PaymentPagePlan } from "@/lib/secure-payments/page-types";
import { primaryButtonClass, secondaryButtonClass } from "./paid-panel";
import { PlanSteps } from "./plan-steps";

export interface PlanPanelProps {
  data: PaymentPageData;
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
}

export function stepLabels(data: PaymentPageData): StepLabels {
  const symbol = data.currency.symbol;
  // What the next transaction sends; when every amount arrived and only a fee came short, that fee alone.
  const due = `${groupAmount(data.totalAmount)} ${symbol}`;
  const feeOnly = data.subStatus === "fee_short" && data.recipients.length === 0;
  return { approve: `Approve ${symbol}`, pay: feeOnly ? `Pay the missing fee (${due})` : `Pay ${due}` };
}

function statusMessage(p: PlanPanelProps): string {
  const { phase, steps } = p.runner;
  const active = steps.find((s) => s.status === "waiting_wallet" || s.status === "submitted");
  if (phase === "running" && active) {
    return active.status === "waiting_wallet"
      ? `${active.label}: confirm the request in your wallet.`
      : `${active.label}: submitted, waiting for confirmation.`;
  }
  if (phase === "payment_submitted") return "Payment submitted. Waiting for it to be confirmed on chain…";
  if (phase === "payment_confirmed") return `Payment mined. Confirming it for ${p.data.merchant?.name ?? "the recipient"}…`;
  if (phase === "rejected" || phase === "failed") return p.runner.error ?? "";
  if (p.planLoading && !p.plan) return "Preparing your payment…";
  return "";
}

/** After connecting on the right network: the plan's steps, the pay button, progress and the outcome. */
export function PlanPanel(props: PlanPanelProps) {
  const { data, plan, runner } = props;
  const labels = props.crossChain?.labels ?? stepLabels(data);
  const idle = runner.phase === "idle";
  const steps = idle && plan ? stepsFor(plan, labels) : runner.steps;
  const retryable = runner.phase === "rejected" || runner.phase === "failed";
  const busy = runner.phase === "running" || runner.phase === "payment_submitted" || runner.phase === "payment_confirmed";
  const short = !busy && plan !== undefined && !plan.metadata.hasEnoughBalance;
  const message = statusMessage(props);

  return (
    <div className="space-y-4">
      {props.planError ? (
        <div role="alert" className="rounded-xl bg-rose-50 p-3 text-sm text-rose-800 ring-1 ring-rose-200 [overflow-wrap:anywhere]">
          <p>{props.planError}</p>
          <button type="button" onClick={props.onReloadPlan} className={`${secondaryButtonClass} mt-3`}>
            Try again
          </button>
        </div>
      ) : null}
      {steps.length > 0 && !short ? <PlanSteps steps={steps} explorerPrefix={props.crossChain ? "" : data.network.explorerTxUrl} /> : null}
      {short ? (
        <div role="alert" className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
          <p className="font-semibold">Insufficient balance</p>
          <p className="mt-1">
            This wallet holds less than{" "}
            {props.crossChain?.need ?? `${groupAmount(data.totalAmount)} ${data.currency.symbol} on ${data.network.name}`}. Add funds or
            connect another wallet, then check again.
          </p>
          <button type="button" onClick={props.onReloadPlan} className={`${secondaryButtonClass} mt-3`}>
            Check again
          </button>
        </div>
      ) : null}
      {idle && plan?.metadata.hasEnoughBalance && !plan.metadata.hasEnoughGas ? (
        <p className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
          This wallet may not hold enough {props.nativeSymbol} to pay the network fee.
        </p>
      ) : null}
      {retryable && !short ? (
        <div role="alert" className="rounded-xl bg-rose-50 p-3 text-sm text-rose-800 ring-1 ring-rose-200 [overflow-wrap:anywhere]">
          {runner.error}
        </div>
      ) : null}
      {plan && !short && !props.planError && (idle || retryable || busy) ? (
        <button
          type="button"
          className={`${primaryButtonClass} sm:w-full`}
          disabled={busy || (props.planLoading && !retryable)}
          onClick={() => props.onPay(retryable)}
        >
          {busy ? "Payment in progress…" : retryable ? "Try again" : plan.metadata.needsApproval ? `Approve and pay` : labels.pay}
        </button>
      ) : null}
      <p role="status" aria-live="polite" className="min-h-5 text-sm text-slate-600">
        {retryable ? "" : message}
      </p>
    </div>
  );
}
