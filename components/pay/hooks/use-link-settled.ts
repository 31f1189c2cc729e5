"use client";

import { useEffect, useState } from "react";
import { fetchPageData } from "@/components/pay/lib/api";
import type { PaymentPageData } from "@/lib/secure-payments/page-types";

const POLL_MS = 1_500;

/**
 * While `enabled`, polls `GET /v2/secure-payments/{token}` every 1.5 s until the link leaves
 * `pending` (normally `completed`, once detection has matched the payment on chain) and
 * returns it then. Transient errors are ignored: the next poll tries again.
 */
export function useLinkSettled(token: string, enabled: boolean): PaymentPageData | null {
  const [settled, setSettled] = useState<PaymentPageData | null>(null);
  useEffect(() => {
    if (!enabled || settled) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const data = await fetchPageData(token, controller.signal);
        if (data.status !== "pending") {
          setSettled(data);
          return;
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      timer = setTimeout(poll, POLL_MS);
    };
    timer = setTimeout(poll, POLL_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [token, enabled, settled]);
  return settled;
}
