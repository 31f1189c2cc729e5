"use client";

import type { CrossChainPlanInfo } from "@/components/pay/lib/api";
import { groupAmount } from "@/components/shared/format";
import type { Checkout, CheckoutCrossChainSource } from "@/lib/operations/checkout-schemas";

/** "Pay from another chain": one button per source chain and token the routing provider serves. */
export function CrossChainPicker({
  sources,
  onPick,
}: {
  sources: CheckoutCrossChainSource[];
  onPick: (s: CheckoutCrossChainSource, token: string) => void;
}) {
  return (
    <section aria-labelledby="cross-chain-title" className="mt-2 border-t border-slate-200 pt-4">
      <h3 id="cross-chain-title" className="text-sm font-medium text-slate-900">
        Pay from another chain
      </h3>
      <p className="mt-1 text-xs text-slate-500">Your stablecoins are bridged and the payee is paid on this network.</p>
      <div className="mt-3 flex flex-wrap gap-2">
        {sources.flatMap((s) =>
          s.tokens.map((token) => (
            <button
              key={`${s.chain}-${token}`}
              type="button"
              onClick={() => onPick(s, token)}
              className="rounded-full px-3 py-1.5 text-sm font-medium text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              {token} on {s.network.name}
            </button>
          )),
        )}
      </div>
    </section>
  );
}

/** What the payer spends on the source chain, what the payee receives, and the way back. */
export function CrossChainSummary(p: {
  data: Checkout;
  sourceName: string;
  token: string;
  plan: CrossChainPlanInfo | undefined;
  disabled: boolean;
  onCancel: () => void;
}) {
  return (
    <div data-testid="cross-chain-summary" className="mb-4 rounded-lg bg-indigo-50 px-3 py-2.5 text-sm text-indigo-950">
      <p>
        Cross-chain from <strong>{p.sourceName}</strong> with {p.token}
        {p.plan ? (
          <>
            : you send{" "}
            <strong className="whitespace-nowrap">
              {groupAmount(p.plan.sourceAmount)} {p.plan.sourceToken}
            </strong>{" "}
            (bridge fee included)
          </>
        ) : null}
        . The payee receives {groupAmount(p.data.totalAmount)} {p.data.currency.symbol} on {p.data.network.name}.
      </p>
      <button
        type="button"
        disabled={p.disabled}
        onClick={p.onCancel}
        className="mt-1 text-sm font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-600 disabled:opacity-50"
      >
        Pay on {p.data.network.name} instead
      </button>
    </div>
  );
}
