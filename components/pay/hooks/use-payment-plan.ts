"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { fetchPlan, type PagePlan, type PlanSource } from "@/components/pay/lib/api";
import { latestOnly } from "@/components/pay/lib/poll";
import { describeError } from "@/components/shared/wallet-errors";

export interface PlanState {
  plan: PagePlan | undefined;
  loading: boolean;
  error: string | null;
}

/**
 * The plan for the connected wallet, loaded when `wallet` is set and `enabled` (connected on
 * the right network). `reload()` fetches a fresh one (retry, balance re-check) and returns it;
 * an answer overtaken by a later call or a change of wallet or source is dropped.
 */
export function usePaymentPlan(token: string, wallet: string | null | undefined, enabled: boolean, source: PlanSource | null = null) {
  const [state, setState] = useState<PlanState>({ plan: undefined, loading: false, error: null });
  const latest = useRef(latestOnly());

  const reload = useCallback(async (): Promise<PlanState["plan"]> => {
    if (!wallet) return undefined;
    const isLatest = latest.current.next();
    setState((s) => ({ ...s, loading: true, error: null }));
    try {
      const plan = await fetchPlan(token, wallet, source);
      if (isLatest()) setState({ plan, loading: false, error: null });
      return plan;
    } catch (err) {
      if (isLatest()) setState({ plan: undefined, loading: false, error: describeError(err) });
      return undefined;
    }
  }, [token, wallet, source]);

  useEffect(() => {
    latest.current.invalidate();
    setState({ plan: undefined, loading: false, error: null });
    if (enabled && wallet) void reload();
  }, [enabled, wallet, reload]);

  return { ...state, reload };
}
