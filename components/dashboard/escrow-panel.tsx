"use client";

import { useActionState } from "react";
import type { EscrowFormState } from "@/app/dashboard/requests/escrow-actions";
import { formatUtc, groupAmount } from "@/components/shared/format";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EscrowRefund, type EscrowRefundProps } from "./escrow-refund";

export interface EscrowView {
  requestId: string;
  status: string;
  symbol: string;
  authorizedAmount: string;
  capturedAmount: string;
  capturableAmount: string;
  voidedAmount: string;
  reclaimedAmount: string;
  reclaimableAmount: string;
  refundedAmount: string;
  refundableAmount: string;
  preApprovalExpiry: string;
  authorizationExpiry: string;
  captureDeadlinePassed: boolean;
  operatorIsRelayer: boolean;
}

const STATUS: Record<string, string> = {
  created: "Waiting for the payer's authorization",
  authorized: "Authorized — not yet charged",
  partially_captured: "Partly captured",
  captured: "Captured",
  voided: "Voided",
  reclaimed: "Reclaimed by the payer",
  partially_refunded: "Partly refunded",
  refunded: "Refunded",
};

function Line({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 py-1">
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-medium text-slate-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** A request paid by authorization: amounts, deadlines, and capture, void and refund. */
export function EscrowPanel({
  view,
  action,
  refund,
}: {
  view: EscrowView;
  action: (prev: EscrowFormState, form: FormData) => Promise<EscrowFormState>;
  refund: Omit<EscrowRefundProps, "requestId" | "symbol" | "refundable">;
}) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  const s = view.symbol;
  const amt = (v: string) => `${groupAmount(v)} ${s}`;
  const canCapture = view.capturableAmount !== "0" && !view.captureDeadlinePassed;
  return (
    <div className="space-y-4 text-sm">
      <p className="font-medium text-slate-900" data-testid="escrow-status">
        {STATUS[view.status] ?? view.status}
      </p>
      <dl className="divide-y divide-slate-100">
        <Line label="Authorized" value={amt(view.authorizedAmount)} />
        <Line label="Captured" value={amt(view.capturedAmount)} testId="escrow-captured" />
        <Line label="Capturable" value={amt(view.capturableAmount)} testId="escrow-capturable" />
        {view.voidedAmount !== "0" ? <Line label="Voided" value={amt(view.voidedAmount)} testId="escrow-voided" /> : null}
        {view.reclaimableAmount !== "0" ? <Line label="Reclaimable by the payer" value={amt(view.reclaimableAmount)} /> : null}
        {view.reclaimedAmount !== "0" ? <Line label="Reclaimed" value={amt(view.reclaimedAmount)} /> : null}
        <Line label="Refunded" value={amt(view.refundedAmount)} testId="escrow-refunded" />
        <Line label="Capture deadline" value={formatUtc(view.authorizationExpiry)} testId="escrow-deadline" />
      </dl>
      {view.captureDeadlinePassed && view.reclaimableAmount !== "0" ? (
        <Alert tone="warning">The capture deadline has passed: the payer can reclaim what is left.</Alert>
      ) : null}
      {canCapture && view.operatorIsRelayer ? (
        <form action={formAction} className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="requestId" value={view.requestId} />
          <label className="grid gap-1">
            <span className="text-slate-600">Amount to capture ({s})</span>
            <input
              name="amount"
              inputMode="decimal"
              placeholder={view.capturableAmount}
              className="w-36 rounded-md border border-slate-300 px-2 py-1.5"
            />
          </label>
          <Button type="submit" name="action" value="capture" variant="compact" disabled={pending}>
            Capture
          </Button>
          <Button type="submit" name="action" value="void" variant="compact" disabled={pending}>
            Void the rest
          </Button>
        </form>
      ) : null}
      {canCapture && !view.operatorIsRelayer ? (
        <p className="text-slate-600">Your operator wallet captures and voids: use POST …/capture/calldata and …/void/calldata.</p>
      ) : null}
      {state.error ? (
        <Alert role="alert" tone="error">
          {state.error}
        </Alert>
      ) : null}
      {state.done ? (
        <p role="status" className="text-emerald-700">
          {state.done}
        </p>
      ) : null}
      {view.refundableAmount !== "0" ? (
        <EscrowRefund {...refund} requestId={view.requestId} symbol={s} refundable={view.refundableAmount} />
      ) : null}
    </div>
  );
}
