import type { ReactNode } from "react";
import { PublicFrame } from "@/components/ui/public-frame";

/** Frame of the hosted onboarding page (same look as the pay page; wallet code loads from the panel only). */
export default function OnboardingLayout({ children }: { children: ReactNode }) {
  return (
    <PublicFrame label="Platform onboarding" footer="Non-custodial: payments go straight to your wallet. Duebill never holds your funds.">
      {children}
    </PublicFrame>
  );
}
