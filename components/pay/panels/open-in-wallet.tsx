"use client";

import { useInjectedWallet } from "@/components/pay/hooks/use-injected-wallet";

const link =
  "rounded-md px-3 py-1.5 text-sm font-medium text-indigo-700 ring-1 ring-inset ring-indigo-200 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600";

/**
 * In a browser without a wallet (a phone's), the way to the wallet flow: open this very page in a
 * wallet app's own browser, where the wallet is injected and "Connect wallet" works. MetaMask's and
 * Coinbase Wallet's universal links open the app when installed (the store otherwise), on iOS and
 * Android alike; they carry this page's URL through the wallet's link service, so only on a click.
 */
export function OpenInWalletApp() {
  const wallet = useInjectedWallet();
  if (wallet !== "none") return null;
  const { host, pathname, search, href } = window.location;
  return (
    <div className="border-t border-slate-200 pt-3 text-sm text-slate-600" data-testid="open-in-wallet">
      <p>No wallet in this browser. Open this page in your wallet app&apos;s browser:</p>
      <p className="mt-2 flex flex-wrap gap-2">
        <a href={`https://metamask.app.link/dapp/${host}${pathname}${search}`} rel="noopener noreferrer" className={link}>
          MetaMask
        </a>
        <a href={`https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(href)}`} rel="noopener noreferrer" className={link}>
          Coinbase Wallet
        </a>
      </p>
    </div>
  );
}
