"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { WalletLoadingCard } from "@/components/ui/loading-card";
import type { OnboardingPageData } from "@/lib/orchestrators/onboarding-page";

function Loading() {
  return <WalletLoadingCard title="Connect wallet" />;
}

// Each wallet stack stays out of the page's first-load JS and loads only when chosen, as on the pay page.
const OnboardingPanel = dynamic(() => import("./onboarding-panel").then((m) => m.OnboardingPanel), { ssr: false, loading: Loading });
const TronOnboardingPanel = dynamic(() => import("./tron-onboarding-panel").then((m) => m.TronOnboardingPanel), {
  ssr: false,
  loading: Loading,
});

const KINDS = [
  { kind: "evm", label: "EVM wallet", hint: "MetaMask, Rabby, Coinbase Wallet…" },
  { kind: "tron", label: "TronLink", hint: "Tron" },
] as const;

/** Which kind of wallet receives the payouts (EVM by default; the choice only when both kinds' networks are watched), then that wallet's flow. */
export function OnboardingLoader({ data, cookie }: { data: OnboardingPageData; cookie: string | null }) {
  const hasEvm = data.currencies.some((c) => c.kind === "evm");
  const hasTron = data.currencies.some((c) => c.kind === "tron");
  const [kind, setKind] = useState<"evm" | "tron">(hasEvm || !hasTron ? "evm" : "tron");
  // Only the networks this deployment watches are offered (a payment elsewhere would never be seen).
  if (!hasEvm && !hasTron)
    return (
      <Alert role="status" tone="warning">
        This service does not watch any network for payments yet, so there is nowhere to receive them. Ask {data.orchestrator.name} to try
        again later.
      </Alert>
    );
  return (
    <>
      {hasEvm && hasTron ? (
        <fieldset className="flex gap-2" aria-label="Wallet type">
          <legend className="sr-only">Wallet type</legend>
          {KINDS.map((k) => (
            <label
              key={k.kind}
              className="flex min-h-11 flex-1 cursor-pointer flex-col justify-center rounded-xl bg-white px-3 py-2 ring-1 ring-slate-200 has-[:checked]:ring-2 has-[:checked]:ring-indigo-600 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600"
            >
              <input
                type="radio"
                name="wallet-kind"
                value={k.kind}
                checked={kind === k.kind}
                onChange={() => setKind(k.kind)}
                className="sr-only"
              />
              <span className="text-sm font-semibold text-slate-900">{k.label}</span>
              <span className="text-xs text-slate-500">{k.hint}</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      {kind === "tron" ? <TronOnboardingPanel data={data} /> : <OnboardingPanel data={data} cookie={cookie} />}
    </>
  );
}
