import { Card } from "./card";

/** A card's placeholder while its wallet code loads (pay panel, onboarding): its title, a line and a pulsing button. */
export function WalletLoadingCard({ title }: { title: string }) {
  return (
    <Card aria-busy="true" aria-label="Loading the wallet">
      <p className="text-lg font-semibold text-slate-900">{title}</p>
      <p role="status" className="mt-4 text-sm text-slate-600">
        Loading wallet options…
      </p>
      <div className="mt-3 h-11 animate-pulse rounded-xl bg-slate-100 motion-reduce:animate-none" />
    </Card>
  );
}
