"use client";

import { useTronSigningWallet } from "@/components/shared/tronlink";
import { TronProviders } from "@/components/wallet/tron-providers";
import type { OnboardingPageData } from "@/lib/orchestrators/onboarding-page";
import { OnboardingFlow } from "./onboarding-flow";

function TronOnboarding({ data }: { data: OnboardingPageData }) {
  return <OnboardingFlow data={data} wallet={useTronSigningWallet()} />;
}

/** Entry of the Tron wallet bundle for onboarding (TronLink adapter + hooks): loaded on demand. */
export function TronOnboardingPanel({ data }: { data: OnboardingPageData }) {
  return (
    <TronProviders>
      <TronOnboarding data={data} />
    </TronProviders>
  );
}
