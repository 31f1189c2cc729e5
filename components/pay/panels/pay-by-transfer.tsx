"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { useInjectedWallet } from "@/components/pay/hooks/use-injected-wallet";
import { groupAmount } from "@/components/shared/format";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { Checkout } from "@/lib/operations/checkout-schemas";

function Preparing({ network }: { network: string }) {
  return (
    <p role="status" className="mt-4 text-sm text-slate-600">
      Preparing this payment&apos;s deposit address… (a few seconds: it is created on {network})
    </p>
  );
}

// The deposit view (QR code, polling) loads when the payer asks for it, or at once in a browser without a wallet.
const DepositPanel = dynamic(() => import("./deposit-panel").then((m) => m.DepositPanel), {
  ssr: false,
  loading: () => (
    <p role="status" className="mt-4 text-sm text-slate-600">
      Loading…
    </p>
  ),
});

/**
 * A plain transfer to the request's own deposit address, from any wallet or exchange. In a browser
 * without a wallet (a phone) it is the first way offered and opens by itself: QR code, address,
 * amount and a wallet-app link; beside a browser wallet it waits for a click.
 */
export function PayByTransfer({ data }: { data: Checkout }) {
  const wallet = useInjectedWallet();
  const [open, setOpen] = useState(false);
  const show = open || wallet === "none";
  return (
    <Card aria-labelledby="transfer-heading">
      <h2 id="transfer-heading" className="text-lg font-semibold text-slate-900">
        Pay by transfer or QR code
      </h2>
      {show ? (
        <DepositPanel data={data} leading={wallet === "none"} />
      ) : (
        <div className="mt-2 space-y-3">
          <p className="text-sm text-slate-600">
            Prefer a plain transfer? Send {groupAmount(data.totalAmount)} {data.currency.symbol} on {data.network.name} to this
            payment&apos;s own address from any wallet or exchange, or scan its QR code with a phone wallet.
          </p>
          {/* Before hydration a browser without a wallet sees the address being prepared, not a button (wallet-presence.ts). */}
          <div data-pay-when="wallet">
            <Button variant="secondary" block onClick={() => setOpen(true)} disabled={wallet === "unknown"}>
              Show the deposit address
            </Button>
          </div>
          <div data-pay-when="no-wallet" className="hidden">
            <Preparing network={data.network.name} />
          </div>
        </div>
      )}
    </Card>
  );
}
