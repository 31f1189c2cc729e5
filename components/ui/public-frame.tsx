import type { ReactNode } from "react";

/** The frame of Duebill's public pages outside the pay page (onboarding, receipts): a header naming the page, a footer line. */
export function PublicFrame({ label, footer, children }: { label: string; footer: ReactNode; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-xl items-center justify-between gap-3 px-4 py-3">
          <span className="text-base font-semibold tracking-tight text-slate-900">Duebill</span>
          <span className="text-xs font-medium text-slate-600">{label}</span>
        </div>
      </header>
      <main className="mx-auto w-full max-w-xl flex-1 space-y-4 px-4 py-6 sm:py-10">{children}</main>
      <footer className="mx-auto w-full max-w-xl px-4 pb-8 text-center text-xs text-slate-500">{footer}</footer>
    </div>
  );
}
