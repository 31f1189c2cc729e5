"use client";

import dynamic from "next/dynamic";
import type { OnboardingPageData } from "@/lib/orchestrators/onboarding-page";

function Loading() {
  return (
    <section aria-busy="true" aria-label="Loading the wallet" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <p className="text-lg font-semibold text-slate-900">Connect wallet</p>
      <p role="status" className="mt-4 text-sm text-slate-600">
        Loading wallet options…
      </p>
      <div className="mt-3 h-11 animate-pulse rounded-xl bg-slate-100 motion-reduce:animate-none" />
    </section>
  );
}

// The wallet stack (wagmi, RainbowKit) stays out of the page's first-load JS, as on the pay page.
const OnboardingPanel = dynamic(() => import("./onboarding-panel").then((m) => m.OnboardingPanel), { ssr: false, loading: Loading });

export function OnboardingLoader({ data, cookie }: { data: OnboardingPageData; cookie: string | null }) {
  return <OnboardingPanel data={data} cookie={cookie} />;
}
