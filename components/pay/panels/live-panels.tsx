"use client";

import type { ReactNode } from "react";
import { useLiveLink } from "@/components/pay/hooks/live-link";
import type { PendingState } from "@/components/ui/status-badge";
import { StatusBadge } from "@/components/ui/status-badge";
import type { CheckoutStatus } from "@/lib/operations/checkout-schemas";
import { LinkOutcome, PaymentReceived } from "./link-outcome";
import { PaidPanel } from "./paid-panel";
import { WrongAmountNote } from "./wrong-amount-note";

/**
 * The pay panels of a link with something due, until the page learns (from any of its polls) that
 * nothing is: then every panel gives way at once to the one outcome — payment received, complete,
 * or closed — instead of each panel showing its own while the others still offer to pay.
 */
export function LivePanels({ children }: { children: ReactNode }) {
  const live = useLiveLink();
  const phase = live?.state.phase ?? "due";
  if (!live || phase === "due") return <>{children}</>;
  const { view } = live.state;
  let outcome: ReactNode;
  if (phase === "received") outcome = <PaymentReceived />;
  else if (phase === "completed")
    outcome = (
      <PaidPanel
        payerAddress={view.payerAddress}
        txHash={view.txHash}
        explorerPrefix={view.network.explorerTxUrl}
        completedAt={view.completedAt}
        receiptUrl={view.receiptUrl}
        redirectUrl={view.redirectUrl}
        redirectLabel={view.redirectLabel}
      />
    );
  else outcome = <LinkOutcome status={phase} />;
  return (
    <div role="status" aria-live="polite" className="space-y-4">
      {outcome}
      {phase === "received" ? null : <WrongAmountNote facts={view} />}
    </div>
  );
}

/** The summary's status badge: the server's, until the page's live view knows better (received, paid, closed). */
export function LiveStatusBadge({ status, pending }: { status: CheckoutStatus; pending?: PendingState }) {
  const live = useLiveLink();
  const phase = live?.state.phase;
  if (!phase || phase === "due") return <StatusBadge status={status} pending={pending} />;
  if (phase === "received") return <StatusBadge status="pending" pending="received" />;
  return <StatusBadge status={phase} />;
}
