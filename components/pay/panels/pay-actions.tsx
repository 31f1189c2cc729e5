import type { ReactNode } from "react";
import { DETECT_WALLET_SCRIPT } from "@/components/pay/lib/wallet-presence";

/**
 * The ways to pay a link, in the order that fits the browser: with a wallet in it (an extension,
 * a wallet app's browser), the wallet panel first as always; without one (a phone's browser), the
 * transfer panel — QR code, deposit address and a wallet-app link — first. The order is set by CSS
 * from an inline script that runs before the panels are painted, so nothing jumps after loading.
 */
export function PayActions({ wallet, transfer }: { wallet: ReactNode; transfer: ReactNode | null }) {
  return (
    <div className="flex flex-col gap-4">
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a fixed script of our own (wallet-presence.ts), no input in it */}
      <script dangerouslySetInnerHTML={{ __html: DETECT_WALLET_SCRIPT }} />
      <div data-pay-action="wallet">{wallet}</div>
      {transfer ? <div data-pay-action="transfer">{transfer}</div> : null}
    </div>
  );
}
