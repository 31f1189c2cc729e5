import { formatUtc } from "@/components/shared/format";
import { Address } from "@/components/ui/address";
import { ConfirmButton } from "@/components/ui/confirm-button";

export interface DestinationRow {
  id: string;
  tokenSymbol: string;
  network: string;
  walletAddress: string;
  active: boolean;
  deactivatedAt: string | null;
}

/** The active destination, deactivated only after a confirmation naming what stops working. */
export function ActiveDestination({
  destination,
  networkName,
  deactivate,
}: {
  destination: DestinationRow;
  networkName: string;
  deactivate: (form: FormData) => Promise<void>;
}) {
  const d = destination;
  return (
    <div className="rounded-xl bg-emerald-50 p-3 text-sm ring-1 ring-emerald-200" data-testid="active-destination">
      <p className="font-medium text-emerald-900">
        Receiving {d.tokenSymbol} on {networkName}
      </p>
      <p className="mt-1 break-all text-slate-700">
        <Address value={d.walletAddress} className="font-mono text-xs" />
      </p>
      <form action={deactivate} className="mt-3">
        <input type="hidden" name="id" value={d.id} />
        <ConfirmButton
          title="Deactivate this destination?"
          consequence={
            <>
              <p>
                New payment links cannot be created until you set another destination. Links already sent still pay{" "}
                <span className="break-all font-mono text-xs">{d.walletAddress}</span>.
              </p>
              <p className="mt-2">Client IDs bound to this destination are unbound.</p>
            </>
          }
        >
          Deactivate
        </ConfirmButton>
      </form>
    </div>
  );
}

/** Destinations this one replaced, newest first. */
export function EarlierDestinations({ destinations }: { destinations: DestinationRow[] }) {
  if (destinations.length === 0) return null;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-slate-600">Earlier destinations</summary>
      <ul className="mt-2 space-y-1 text-xs text-slate-500">
        {destinations.map((d) => (
          <li key={d.id} className="break-all">
            {d.tokenSymbol} on {d.network} · {d.walletAddress} · until {d.deactivatedAt ? formatUtc(d.deactivatedAt) : "—"}
          </li>
        ))}
      </ul>
    </details>
  );
}
