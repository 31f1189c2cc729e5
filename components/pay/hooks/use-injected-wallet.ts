"use client";

import { useSyncExternalStore } from "react";
import { detectWallet, type WalletPresence } from "@/components/pay/lib/wallet-presence";

const noSubscription = () => () => {};

/** "injected" or "none" in the browser; "unknown" while rendering on the server and hydrating. */
export function useInjectedWallet(): WalletPresence | "unknown" {
  return useSyncExternalStore(noSubscription, detectWallet, () => "unknown");
}
