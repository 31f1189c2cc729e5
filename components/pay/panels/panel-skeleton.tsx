/** Placeholder of the pay panel while the wallet code loads. */
export function PanelSkeleton() {
  return (
    <section aria-busy="true" aria-label="Loading the wallet" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <p className="text-lg font-semibold text-slate-900">Pay with your wallet</p>
      <p role="status" className="mt-4 text-sm text-slate-600">
        Loading wallet options…
      </p>
      <div className="mt-3 h-11 animate-pulse rounded-xl bg-slate-100 motion-reduce:animate-none" />
    </section>
  );
}
