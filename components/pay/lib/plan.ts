import { groupAmount } from "@/components/shared/format";
import type { Checkout } from "@/lib/operations/checkout-schemas";
import type { PaymentPagePlan } from "@/lib/secure-payments/page-types";

/**
 * The pay panels' plan logic, free of React: the steps of a plan, the run through them (each
 * transaction mined before the next is asked for), and the words shown while it runs.
 */

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

/** The steps' labels on the link's own network; when every amount arrived and only a fee came short, that fee alone. */
export function stepLabels(data: Pick<Checkout, "currency" | "totalAmount" | "subStatus" | "recipients">): StepLabels {
  const symbol = data.currency.symbol;
  const due = `${groupAmount(data.totalAmount)} ${symbol}`;
  const feeOnly = data.subStatus === "fee_short" && data.recipients.length === 0;
  return { approve: `Approve ${symbol}`, pay: feeOnly ? `Pay the missing fee (${due})` : `Pay ${due}` };
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

/** The steps of a new run: a retry after a confirmed approval gets a plan without it, which stays shown as done. */
export function stepsOfRun(plan: PaymentPagePlan, labels: StepLabels, previous: readonly PlanStep[]): PlanStep[] {
  const fresh = stepsFor(plan, labels);
  const carried = fresh.some((s) => s.kind === "approve") ? [] : previous.filter((s) => s.kind === "approve" && s.status === "confirmed");
  return [...carried, ...fresh];
}

/** What a run reports as it goes: the steps after each change, the phase, the payment's hash. */
export interface RunEvents {
  steps(steps: PlanStep[]): void;
  phase(phase: RunPhase): void;
  paymentTx(hash: string): void;
}

/** The end of a run: done, or stopped by the error (the caller words it and says rejected or failed). */
export type RunOutcome = { ok: true } | { ok: false; error: unknown };

/**
 * Sends a plan's transactions strictly in order, each one mined before the next is asked for.
 * `initial` are the run's steps (stepsOfRun): carried approvals first, then one per transaction.
 */
export async function runPlan(plan: PaymentPagePlan, initial: PlanStep[], sender: TxSender, on: RunEvents): Promise<RunOutcome> {
  let current = initial;
  const update = (i: number, patch: Partial<PlanStep>) => {
    current = current.map((s, j) => (j === i ? { ...s, ...patch } : s));
    on.steps(current);
  };
  on.steps(current);
  on.phase("running");
  let at = initial.length - plan.transactions.length;
  try {
    for (const tx of plan.transactions) {
      const isPayment = current[at]?.kind === "pay";
      update(at, { status: "waiting_wallet" });
      const hash = await sender.send(tx);
      update(at, { status: "submitted", txHash: hash });
      // Detection may see the payment before our receipt poll does: start watching the link now.
      if (isPayment) {
        sender.paymentSubmitted?.(hash);
        on.paymentTx(hash);
        on.phase("payment_submitted");
      }
      await sender.wait(hash);
      update(at, { status: "confirmed" });
      if (isPayment) on.phase("payment_confirmed");
      at++;
    }
    return { ok: true };
  } catch (error) {
    if (current[at]?.status === "waiting_wallet") update(at, { status: "ready" });
    return { ok: false, error };
  }
}

/** The payer's wallet is busy with the link: no disconnect, no second run. */
export function isBusy(phase: RunPhase): boolean {
  return phase === "running" || phase === "payment_submitted" || phase === "payment_confirmed";
}

/** The line under the pay button while nothing else is said (errors are shown on their own). */
export function runStatusMessage(args: {
  phase: RunPhase;
  steps: readonly PlanStep[];
  error: string | null;
  merchantName: string | null;
  planLoading: boolean;
  hasPlan: boolean;
}): string {
  const { phase, steps } = args;
  const active = steps.find((s) => s.status === "waiting_wallet" || s.status === "submitted");
  if (phase === "running" && active) {
    return active.status === "waiting_wallet"
      ? `${active.label}: confirm the request in your wallet.`
      : `${active.label}: submitted, waiting for confirmation.`;
  }
  if (phase === "payment_submitted") return "Payment submitted. Waiting for it to be confirmed on chain…";
  if (phase === "payment_confirmed") return `Payment mined. Confirming it for ${args.merchantName ?? "the recipient"}…`;
  if (phase === "rejected" || phase === "failed") return args.error ?? "";
  if (args.planLoading && !args.hasPlan) return "Preparing your payment…";
  return "";
}
