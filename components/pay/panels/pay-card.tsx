import { useRouter } from "next/navigation";
import { type ReactNode, useEffect } from "react";
import { useLinkSettled } from "@/components/pay/hooks/use-link-settled";
import { Address } from "@/components/ui/address";
import { Card } from "@/components/ui/card";
import type { Checkout } from "@/lib/operations/checkout-schemas";
import { isClosedStatus, LinkOutcome } from "./link-outcome";
import { PaidPanel } from "./paid-panel";

/**
 * Frame of a pay panel. Once the payment is submitted it watches the link; when detection
 * settles it (normally `completed`) the card is replaced by the outcome and the server page
 * is refreshed so its summary and badge agree.
 */
export function PayCard({ data, paymentTx, children }: { data: Checkout; paymentTx: string | null; children: ReactNode }) {
  const router = useRouter();
  const settled = useLinkSettled(data.token, paymentTx !== null);
  useEffect(() => {
    if (settled) router.refresh();
  }, [settled, router]);

  if (settled?.status === "completed") {
    return (
      <div role="status" aria-live="polite">
        <PaidPanel
          payerAddress={settled.payerAddress}
          txHash={settled.txHash ?? paymentTx}
          explorerPrefix={settled.network.explorerTxUrl}
          completedAt={settled.completedAt}
          redirectUrl={settled.redirectUrl}
          redirectLabel={settled.redirectLabel}
        />
      </div>
    );
  }
  if (settled && isClosedStatus(settled.status)) return <LinkOutcome status={settled.status} />;

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
