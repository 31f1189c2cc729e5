import type { ReactNode } from "react";

/** Frame of the public receipt pages: the hosted page's, named for what it shows. */
export default function ReceiptLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-xl items-center justify-between gap-3 px-4 py-3">
          <span className="text-base font-semibold tracking-tight text-slate-900">Duebill</span>
          <span className="text-xs font-medium text-slate-600">Signed receipt</span>
        </div>
      </header>
      <main className="mx-auto w-full max-w-xl flex-1 space-y-4 px-4 py-6 sm:py-10">{children}</main>
      <footer className="mx-auto w-full max-w-xl px-4 pb-8 text-center text-xs text-slate-500">
        This receipt is signed by Duebill with a published Ed25519 key and names the on-chain transfer it records: anyone can check both
        without trusting this page (npm run receipt:verify, or the algorithm in the receipts guide).
      </footer>
    </div>
  );
}
