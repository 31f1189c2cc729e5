/**
 * Whether this browser has a wallet the page can talk to: an injected EIP-1193 provider
 * (`window.ethereum`), one announced through EIP-6963 (answers `eip6963:requestProvider`
 * synchronously: extensions install their listener before the page's scripts run), or TronLink.
 * A phone's browser has none: the page then leads with paying by transfer or QR code.
 */
export type WalletPresence = "injected" | "none";

declare global {
  interface Window {
    __duebillWallet?: WalletPresence;
  }
}

/**
 * The CSS a browser without a wallet gets: the transfer panel first, and what the panels show
 * before React has hydrated swapped for the no-wallet version (no button flashing before the QR code).
 */
export const NO_WALLET_CSS =
  "[data-pay-action=transfer]{order:-1}[data-pay-when=wallet]{display:none}[data-pay-when=no-wallet]{display:block}";

/**
 * Runs inline while the page is parsed, before the panels below it are painted: detects the wallet
 * and, without one, adds NO_WALLET_CSS to <head> (React leaves foreign nodes in <head> alone when it
 * hydrates). The same function runs again from React (detectWallet) after a client-side navigation.
 */
function detect(css: string): WalletPresence {
  const w = window as Window & { ethereum?: unknown; tronLink?: unknown; tronWeb?: unknown };
  let found = Boolean(w.ethereum || w.tronLink || w.tronWeb);
  if (!found) {
    const onAnnounce = () => {
      found = true;
    };
    w.addEventListener("eip6963:announceProvider", onAnnounce);
    w.dispatchEvent(new Event("eip6963:requestProvider"));
    w.removeEventListener("eip6963:announceProvider", onAnnounce);
  }
  const presence: WalletPresence = found ? "injected" : "none";
  w.__duebillWallet = presence;
  if (!found && !document.getElementById("pay-no-wallet")) {
    const style = document.createElement("style");
    style.id = "pay-no-wallet";
    style.textContent = css;
    document.head.appendChild(style);
  }
  return presence;
}

/** The inline script's text (CSP: the pages allow inline scripts, see next.config.ts). */
export const DETECT_WALLET_SCRIPT = `try{(${detect.toString()})(${JSON.stringify(NO_WALLET_CSS)})}catch(e){}`;

/** In the browser: the inline script's answer, or a fresh detection. */
export function detectWallet(): WalletPresence {
  return window.__duebillWallet ?? detect(NO_WALLET_CSS);
}
