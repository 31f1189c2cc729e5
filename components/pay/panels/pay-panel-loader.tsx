"use client";

import dynamic from "next/dynamic";
import type { PaymentPageData } from "@/lib/secure-payments/page-types";
import { PanelSkeleton } from "./panel-skeleton";

// The wallet stacks stay out of the page's first-load JS, and each link only ever loads the
// one its network needs: wagmi + RainbowKit for EVM, the TronLink adapter for Tron.
const EvmPayPanel = dynamic(() => import("./evm-pay-panel").then((m) => m.EvmPayPanel), { ssr: false, loading: PanelSkeleton });
const TronPayPanel = dynamic(() => import("./tron-pay-panel").then((m) => m.TronPayPanel), { ssr: false, loading: PanelSkeleton });

/** The wallet panel of a pending link. `cookie` is wagmi's own cookie from the request (its stored connection), or null. */
export function PayPanelLoader({ data, cookie }: { data: PaymentPageData; cookie: string | null }) {
  return data.network.kind === "tron" ? <TronPayPanel data={data} /> : <EvmPayPanel data={data} cookie={cookie} />;
}
