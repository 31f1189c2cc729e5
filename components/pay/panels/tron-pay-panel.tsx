"use client";

import { TronProviders } from "@/components/wallet/tron-providers";
import type { Checkout } from "@/lib/operations/checkout-schemas";
import { TronPayFlow } from "./tron-pay-flow";

/** Entry of the Tron wallet bundle (TronLink adapter + hooks): loaded on demand by PayPanelLoader. */
export function TronPayPanel({ data }: { data: Checkout }) {
  return (
    <TronProviders>
      <TronPayFlow data={data} />
    </TronProviders>
  );
}
