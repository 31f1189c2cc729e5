"use client";

import { useEffect, useState } from "react";
import { fetchPageData } from "@/components/pay/lib/api";
import { pollUntil } from "@/components/pay/lib/poll";
import type { Checkout } from "@/lib/operations/checkout-schemas";

const POLL_MS = 1_500;

/**
 * While `enabled`, polls `GET /v2/secure-payments/{token}` every 1.5 s until the link leaves
 * `pending` (normally `completed`, once detection has matched the payment on chain) and
 * returns it then. Transient errors are ignored: the next poll tries again.
 */
export function useLinkSettled(token: string, enabled: boolean): Checkout | null {
  const [settled, setSettled] = useState<Checkout | null>(null);
  useEffect(() => {
    if (!enabled || settled) return;
    const controller = new AbortController();
    void pollUntil(
      (signal) => fetchPageData(token, signal),
      (data) => data.status !== "pending",
      {
        intervalMs: POLL_MS,
        signal: controller.signal,
      },
    ).then(setSettled);
    return () => controller.abort();
  }, [token, enabled, settled]);
  return settled;
}
