"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { type CrossChainPlanInfo, fetchPlan, type PlanSource } from "@/components/pay/lib/api";
import { describeError } from "@/components/shared/wallet-errors";
import type { PaymentPagePlan } from "@/lib/secure-payments/page-types";

export interface PlanState {
  plan: (PaymentPagePlan & { crossChain?: CrossChainPlanInfo }) | undefined;
  loading: boolean;
  error: string | null;
}

/**
 * The plan for the connected wallet, loaded when `wallet` is set and `enabled` (connected on
 * the right network). `reload()` fetches a fresh one (retry, balance re-check) and returns it.
 */
export function usePaymentPlan(token: string, wallet: string | null | undefined, enabled: boolean, source: PlanSource | null = null) {
  const [state, setState] = useState<PlanState>({ plan: undefined, loading: false, error: null });
  const seq = useRef(0);

  const reload = useCallback(async (): Promise<PlanState["plan"]> => {
    if (!wallet) return undefined;
    const id = ++seq.current;
    setState((s) => ({ ...s, loading: true, error: null }));
    try {
      const plan = await fetchPlan(token, wallet, source);
      if (id === seq.current) setState({ plan, loading: false, error: null });
      return plan;
    } catch (err) {
      if (id === seq.current) setState({ plan: undefined, loading: false, error: describeError(err) });
      return undefined;
    }
  }, [token, wallet, source]);

  useEffect(() => {
    seq.current++;
    setState({ plan: undefined, loading: false, error: null });
    if (enabled && wallet) void reload();
  }, [enabled, wallet, reload]);

  return { ...state, reload };
}
