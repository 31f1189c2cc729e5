"use client";

import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import { useInjectedWallet } from "@/components/pay/hooks/use-injected-wallet";
import { buttonClass } from "@/components/ui/button";
import type { PaymentPageData } from "@/lib/secure-payments/page-types";
import { OpenInWalletApp } from "./open-in-wallet";
import { PanelSkeleton } from "./panel-skeleton";

/**
 * The payer's click on "Connect wallet" before the wallet code has loaded: the EVM panel opens
 * RainbowKit's connect modal as soon as it mounts (one pay panel per page, so one flag).
 */
const connectIntent = { open: false };

function requestConnect(): void {
  connectIntent.open = true;
}

/** Hovering, focusing or touching the card fetches the wallet code ahead of the click (the module is loaded once). */
function prefetchEvmPanel(): void {
  void import("./evm-pay-panel");
}

/**
 * The EVM panel before its code is there: the same card and button the panel shows to a
 * disconnected payer. Disabled until hydrated (a click before React runs would be lost); then
 * hovering, focusing or touching it fetches the wallet code, and a click mounts the panel, which
 * opens the connect modal once it has loaded.
 */
function EvmConnectShell({ onConnect, loading }: { onConnect?: () => void; loading?: boolean }) {
  const [hydrated, setHydrated] = useState(loading === true);
  useEffect(() => setHydrated(true), []);
  const [clicked, setClicked] = useState(false);
  const busy = loading === true && (clicked || connectIntent.open);
  // Without a wallet in this browser the transfer panel above holds the main action.
  const wallet = useInjectedWallet();
  return (
    <section
      aria-labelledby="pay-heading"
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
      onPointerEnter={prefetchEvmPanel}
      onTouchStart={prefetchEvmPanel}
      onFocus={prefetchEvmPanel}
    >
      <h2 id="pay-heading" className="text-lg font-semibold text-slate-900">
        Pay with your wallet
      </h2>
      <div className="mt-4 space-y-3">
        <p className="text-sm text-slate-600">
          Connect the wallet you want to pay from. Nothing is sent until you confirm each transaction in your wallet.
        </p>
        <button
          type="button"
          className={buttonClass({ block: true, variant: wallet === "none" ? "secondary" : "primary" })}
          disabled={!hydrated || busy}
          aria-busy={busy || undefined}
          onClick={() => {
            requestConnect();
            setClicked(true);
            onConnect?.();
          }}
        >
          {busy ? "Opening wallets…" : "Connect wallet"}
        </button>
        <OpenInWalletApp />
      </div>
    </section>
  );
}

function EvmLoading() {
  return <EvmConnectShell loading />;
}

// The wallet stacks stay out of the page's first-load JS, and each link only ever loads the
// one its network needs: wagmi + RainbowKit for EVM (when the payer clicks the button, fetched ahead on hover or focus, or
// at once for a returning payer whose wallet is still connected), the TronLink adapter for Tron.
const EvmPayPanel = dynamic(() => import("./evm-pay-panel").then((m) => m.EvmPayPanel), { ssr: false, loading: EvmLoading });
const TronPayPanel = dynamic(() => import("./tron-pay-panel").then((m) => m.TronPayPanel), { ssr: false, loading: PanelSkeleton });

/** Whether wagmi's cookie records a live connection (then its state is restored without a click). */
function hasStoredConnection(cookie: string | null): boolean {
  if (!cookie) return false;
  try {
    return /"current":"[^"]+"/.test(decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1)));
  } catch {
    return false;
  }
}

/** The wallet panel of a pending link. `cookie` is wagmi's own cookie from the request (its stored connection), or null. */
export function PayPanelLoader({ data, cookie }: { data: PaymentPageData; cookie: string | null }) {
  const [wanted, setWanted] = useState(() => hasStoredConnection(cookie));
  if (data.network.kind === "tron") return <TronPayPanel data={data} />;
  if (!wanted) return <EvmConnectShell onConnect={() => setWanted(true)} />;
  return <EvmPayPanel data={data} cookie={cookie} connectIntent={connectIntent} />;
}
