"use client";

import { TronProviders } from "@/components/wallet/tron-providers";
import type { PaymentPageData } from "@/lib/secure-payments/page-types";
import { TronPayFlow } from "./tron-pay-flow";

/** Entry of the Tron wallet bundle (TronLink adapter + hooks): loaded on demand by PayPanelLoader. */
export function TronPayPanel({ data }: { data: PaymentPageData }) {
  return (
    <TronProviders>
      <TronPayFlow data={data} />
    </TronProviders>
  );
}
