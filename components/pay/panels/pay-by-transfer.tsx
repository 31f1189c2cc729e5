"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { groupAmount } from "@/components/shared/format";
import type { PaymentPageData } from "@/lib/secure-payments/page-types";
import { secondaryButtonClass } from "./paid-panel";

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
export function PayByTransfer({ data }: { data: PaymentPageData }) {
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="transfer-heading" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
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
          <button type="button" className={`${secondaryButtonClass} sm:w-full`} onClick={() => setOpen(true)}>
            Show the deposit address
          </button>
        </div>
      )}
    </section>
  );
}
