"use client";

import { EvmProviders } from "@/components/wallet/evm-providers";
import type { OnboardingPageData } from "@/lib/orchestrators/onboarding-page";
import { OnboardingFlow } from "./onboarding-flow";

/** Entry of the EVM wallet bundle for onboarding (the pay page's wallet code): loaded on demand. */
export function OnboardingPanel({ data, cookie }: { data: OnboardingPageData; cookie: string | null }) {
  return (
    <EvmProviders network={data.wallet} cookie={cookie}>
      <OnboardingFlow data={data} />
    </EvmProviders>
  );
}
