import type { ReactNode } from "react";
import { useWatchLink } from "@/components/pay/hooks/live-link";
import { Address } from "@/components/ui/address";
import { Card } from "@/components/ui/card";

/**
 * Frame of a pay panel. Once the payment is submitted the page follows the link (LiveLinkProvider);
 * when detection settles it, LivePanels puts the outcome in place of every panel at once, and the
 * summary's badge changes with it.
 */
export function PayCard({ paymentTx, children }: { paymentTx: string | null; children: ReactNode }) {
  useWatchLink(paymentTx !== null);
  return (
    <Card aria-labelledby="pay-heading">
      <h2 id="pay-heading" className="text-lg font-semibold text-slate-900">
        Pay with your wallet
      </h2>
      <div className="mt-4">{children}</div>
    </Card>
  );
}

/** "Paying from <wallet>: 0x…" with a way out, shared by the EVM and Tron panels. */
export function ConnectedWallet({
  address,
  walletName,
  onDisconnect,
  disabled,
}: {
  address: string;
  walletName?: string;
  onDisconnect: () => void;
  disabled?: boolean;
}) {
  return (
    <div className="mb-4 rounded-xl bg-slate-50 px-3 py-2 text-sm">
      <div className="flex items-center justify-between gap-2">
        <p className="text-slate-500">Paying from{walletName ? ` ${walletName}` : ""}</p>
        <button
          type="button"
          onClick={onDisconnect}
          disabled={disabled}
          className="-mr-1 rounded-md px-2 py-1 text-sm font-medium text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50"
        >
          Disconnect
        </button>
      </div>
      <p className="text-slate-900" data-testid="connected-address">
        <Address value={address} />
      </p>
    </div>
  );
}
