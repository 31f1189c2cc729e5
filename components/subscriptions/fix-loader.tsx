"use client";

import dynamic from "next/dynamic";
import type { PayerSchedulePage } from "@/lib/recurring/payer-page";

function Loading() {
  return (
    <section aria-busy="true" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <p className="text-lg font-semibold text-slate-900">Manage with your wallet</p>
      <p role="status" className="mt-4 text-sm text-slate-600">
        Loading…
      </p>
    </section>
  );
}

// The wallet code (wagmi, RainbowKit) loads in the browser only, as on the pay page.
const FixPanel = dynamic(() => import("./fix-panel").then((m) => m.FixPanel), { ssr: false, loading: Loading });

export function SubscriptionFixLoader({ data }: { data: PayerSchedulePage }) {
  return <FixPanel data={data} />;
}
