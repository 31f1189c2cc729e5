import type { ReactNode } from "react";

/** Frame of the hosted payment pages. Wallet code and its CSS load from the pay panel itself, never from here or the root layout. */
export default function PayLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-xl items-center justify-between gap-3 px-4 py-3">
          <span className="text-base font-semibold tracking-tight text-slate-900">Duebill</span>
          <span className="flex items-center gap-1.5 text-xs font-medium text-slate-600">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-emerald-600">
              <path d="M10 1a4.5 4.5 0 0 0-4.5 4.5V8H5a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7a2 2 0 0 0-2-2h-.5V5.5A4.5 4.5 0 0 0 10 1Zm2.5 7V5.5a2.5 2.5 0 1 0-5 0V8h5Z" />
            </svg>
            Secure payment
          </span>
        </div>
      </header>
      <main className="mx-auto w-full max-w-xl flex-1 space-y-4 px-4 py-6 sm:py-10">{children}</main>
      <footer className="mx-auto w-full max-w-xl px-4 pb-8 text-center text-xs text-slate-500">
        Non-custodial: a wallet payment goes straight to the merchant, and a transfer to this payment's own address is passed on to the
        merchant by that address's contract. Duebill never holds your funds.
      </footer>
    </div>
  );
}
