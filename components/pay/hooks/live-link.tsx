"use client";

import { useRouter } from "next/navigation";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { fetchPageData } from "@/components/pay/lib/api";
import { initialLiveState, isFinal, type LiveEvent, type LiveState, liveReducer } from "@/components/pay/lib/live-status";
import { pollUntil } from "@/components/pay/lib/poll";
import type { Checkout } from "@/lib/operations/checkout-schemas";

const POLL_MS = 1_500;

interface LiveLink {
  state: LiveState;
  dispatch: (event: LiveEvent) => void;
  /** Asks the page to follow the link (a payment was submitted, a deposit address is shown). */
  watch: () => void;
}

const LiveLinkContext = createContext<LiveLink | null>(null);

/**
 * The pay page's one live view of its link (components/pay/lib/live-status.ts). Polls
 * `GET /v2/secure-payments/{token}` every 1.5 s while a panel watches or the payment is being
 * settled, until the link reaches a final status; then refreshes the server page once, whose new
 * render is folded in like any other answer (it can only agree or lag behind).
 */
export function LiveLinkProvider({ initial, children }: { initial: Checkout; children: ReactNode }) {
  const router = useRouter();
  const [state, dispatch] = useReducer(liveReducer, initial, initialLiveState);
  const [watching, setWatching] = useState(false);
  const startedFinal = useRef(isFinal(state.phase));

  // A new server render (router.refresh, revalidation): one more answer, never a step back.
  useEffect(() => dispatch({ type: "view", view: initial }), [initial]);

  const final = isFinal(state.phase);
  const follow = !final && (watching || state.phase === "received");
  useEffect(() => {
    if (!follow) return;
    const controller = new AbortController();
    void pollUntil(
      async (signal) => {
        const view = await fetchPageData(initial.token, signal);
        if (!signal.aborted) dispatch({ type: "view", view });
        return view;
      },
      (view) => view.status !== "pending",
      { intervalMs: POLL_MS, signal: controller.signal },
    );
    return () => controller.abort();
  }, [follow, initial.token]);

  // Settled while the page was open: the server page (summary, title) catches up once.
  useEffect(() => {
    if (final && !startedFinal.current) {
      startedFinal.current = true;
      router.refresh();
    }
  }, [final, router]);

  const watch = useCallback(() => setWatching(true), []);
  const value = useMemo<LiveLink>(() => ({ state, dispatch, watch }), [state, watch]);
  return <LiveLinkContext.Provider value={value}>{children}</LiveLinkContext.Provider>;
}

/** The page's live view; null outside LiveLinkProvider. */
export function useLiveLink(): LiveLink | null {
  return useContext(LiveLinkContext);
}

/** While `enabled`, the page follows the link until it settles (the provider polls; every part of the page sees the result). */
export function useWatchLink(enabled: boolean): void {
  const live = useLiveLink();
  const watch = live?.watch;
  useEffect(() => {
    if (enabled) watch?.();
  }, [enabled, watch]);
}
