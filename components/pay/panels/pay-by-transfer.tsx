"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { groupAmount } from "@/components/shared/format";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { Checkout } from "@/lib/operations/checkout-schemas";

// The deposit view (QR code, polling) loads only when the payer asks for it.
const DepositPanel = dynamic(() => import("./deposit-panel").then((m) => m.DepositPanel), {
  ssr: false,
  loading: () => (
    <p role="status" className="mt-4 text-sm text-slate-600">
      Loading…
    </p>
  ),
});

/** For payers without a browser wallet: a plain transfer to the request's own deposit address, from any wallet or exchange. */
export function PayByTransfer({ data }: { data: Checkout }) {
  const [open, setOpen] = useState(false);
  return (
    <Card aria-labelledby="transfer-heading">
      <h2 id="transfer-heading" className="text-lg font-semibold text-slate-900">
        Pay by transfer or QR code
      </h2>
      {open ? (
        <DepositPanel data={data} />
      ) : (
        <div className="mt-2 space-y-3">
          <p className="text-sm text-slate-600">
            No browser wallet? Send {groupAmount(data.totalAmount)} {data.currency.symbol} on {data.network.name} to this payment&apos;s own
            address from any wallet or exchange, or scan its QR code with a mobile wallet.
          </p>
          <Button variant="secondary" block onClick={() => setOpen(true)}>
            Show the deposit address
          </Button>
        </div>
      )}
    </Card>
  );
}
