import type { ReactNode } from "react";

/** Frame of the hosted onboarding page (same look as the pay page; wallet code loads from the panel only). */
export default function OnboardingLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-xl items-center justify-between gap-3 px-4 py-3">
          <span className="text-base font-semibold tracking-tight text-slate-900">Duebill</span>
          <span className="text-xs font-medium text-slate-600">Platform onboarding</span>
        </div>
      </header>
      <main className="mx-auto w-full max-w-xl flex-1 space-y-4 px-4 py-6 sm:py-10">{children}</main>
      <footer className="mx-auto w-full max-w-xl px-4 pb-8 text-center text-xs text-slate-500">
        Non-custodial: payments go straight to your wallet. Duebill never holds your funds.
      </footer>
    </div>
  );
}
