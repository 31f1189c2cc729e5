import { explorerTxUrl } from "@/components/pay/lib/format";
import type { PlanStep, StepStatus } from "@/components/pay/lib/plan";
import { shortenAddress } from "@/components/shared/format";
import { Address } from "@/components/ui/address";

const STATUS_TEXT: Record<StepStatus, string> = {
  ready: "Not started",
  waiting_wallet: "Waiting for your wallet — confirm the request there",
  submitted: "Submitted — waiting for confirmation",
  confirmed: "Confirmed",
};

function Marker({ n, status }: { n: number; status: StepStatus }) {
  if (status === "confirmed") {
    return (
      <span
        aria-hidden="true"
        className="flex size-7 shrink-0 items-center justify-center rounded-full bg-emerald-600 text-sm font-semibold text-white"
      >
        ✓
      </span>
    );
  }
  const busy = status === "waiting_wallet" || status === "submitted";
  return (
    <span
      aria-hidden="true"
      className={`relative flex size-7 shrink-0 items-center justify-center rounded-full text-sm font-semibold ${
        busy ? "bg-indigo-600 text-white" : "bg-slate-100 text-slate-600 ring-1 ring-slate-300"
      }`}
    >
      {busy ? <span className="absolute inset-0 animate-ping rounded-full bg-indigo-400 opacity-40 motion-reduce:hidden" /> : null}
      {n}
    </span>
  );
}

/** The plan's transactions as numbered steps, with where each one stands and its explorer link (the dashboard's refunds too). */
export function PlanSteps({
  steps,
  explorerPrefix,
  label = "Payment steps",
}: {
  steps: PlanStep[];
  explorerPrefix: string;
  /** The list's accessible name. */
  label?: string;
}) {
  return (
    <ol className="space-y-3" aria-label={label}>
      {steps.map((step, i) => {
        const url = step.txHash ? explorerTxUrl(explorerPrefix, step.txHash) : null;
        const active = step.status === "waiting_wallet" || step.status === "submitted";
        return (
          <li
            key={`${step.kind}-${step.label}`}
            aria-current={active ? "step" : undefined}
            data-step={step.kind}
            data-status={step.status}
            className={`flex items-start gap-3 rounded-xl p-3 ring-1 ${active ? "bg-indigo-50/60 ring-indigo-200" : "bg-white ring-slate-200"}`}
          >
            <Marker n={i + 1} status={step.status} />
            <div className="min-w-0">
              <p className="font-medium text-slate-900">
                <span className="sr-only">Step {i + 1}: </span>
                {step.label}
              </p>
              <p className="text-sm text-slate-600">{STATUS_TEXT[step.status]}</p>
              {step.txHash ? (
                <p className="mt-1 font-mono text-xs text-slate-600">
                  {url ? (
                    <a
                      href={url}
                      target="_blank"
                      rel="noopener noreferrer"
                      title={step.txHash}
                      className="rounded text-indigo-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-indigo-600"
                    >
                      View transaction {shortenAddress(step.txHash, 10)}
                      <span className="sr-only"> (opens the block explorer in a new tab)</span>
                    </a>
                  ) : (
                    // No explorer knows this chain (the devnet): the hash itself, wrapping in groups inside the card.
                    <Address value={step.txHash} className="" />
                  )}
                </p>
              ) : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
