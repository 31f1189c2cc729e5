/**
 * Browser bundle only (next.config.ts `turbopack.resolveAlias`, condition `browser`): stands in
 * for `cuer`, the QR code component RainbowKit draws for WalletConnect-style connections. The
 * same components (`Cuer`, `Cuer.Root`, `Cuer.Cells`, `Cuer.Finder`, `Cuer.Arena`), loaded with
 * the QR encoder when a QR code is first drawn, instead of before the connect modal can open
 * (with injected wallets only, the pay page never draws one).
 */
import { createElement, lazy, Suspense } from "react";

const load = () => import("../../../node_modules/cuer/_dist/Cuer.js");
const part = (name) => lazy(() => load().then((m) => ({ default: name ? m.Cuer[name] : m.Cuer })));

const LazyCuer = part(null);
const LazyRoot = part("Root");

export function Cuer(props) {
  return createElement(Suspense, { fallback: null }, createElement(LazyCuer, props));
}

Cuer.Root = function Root(props) {
  return createElement(Suspense, { fallback: null }, createElement(LazyRoot, props));
};
Cuer.Cells = part("Cells");
Cuer.Finder = part("Finder");
Cuer.Arena = part("Arena");
