"use client";

import { type ReactNode, useCallback, useEffect, useState } from "react";
import type { Hex } from "viem";
import { useSignTypedData } from "wagmi";
import type { z } from "zod";
import { PageApiError, pageApi, tokenPath } from "@/components/pay/lib/api";
import { groupAmount } from "@/components/shared/format";
import { isUserRejection, REJECTED_MESSAGE, walletErrorMessage } from "@/components/shared/wallet-errors";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { gaslessPlanSchema, gaslessResultSchema } from "@/lib/operations/gasless-schemas";
import type { PaymentPageData } from "@/lib/secure-payments/page-types";

type Plan = z.infer<typeof gaslessPlanSchema>;
type Result = z.infer<typeof gaslessResultSchema>;
type Phase = "idle" | "signing" | "relaying" | "sent" | "failed";

/**
 * "Pay without gas" (lib/gasless): for a token with EIP-3009 the payer signs one ReceiveWithAuthorization
 * and Duebill's relayer sends the payment, so the wallet needs no ETH. The plan (amount, fee, relayer fee,
 * validity) is shown before signing. Tokens without EIP-3009 (USDT) get one line saying why they need gas.
 * `children` is the wallet path (transactions with gas), offered below as the alternative.
 */
export function GaslessPay({
  data,
  address,
  nativeSymbol,
  onSent,
  children,
}: {
  data: PaymentPageData;
  address: string;
  nativeSymbol: string;
  onSent: (txHash: string) => void;
  /** The wallet path; `offered`: gasless pay is shown above it (its button becomes the secondary action). */
  children: (offered: boolean) => ReactNode;
}) {
  const [plan, setPlan] = useState<Plan | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>("idle");
  const [error, setError] = useState<string | null>(null);
  const [txHash, setTxHash] = useState<string | null>(null);
  const { signTypedDataAsync } = useSignTypedData();
  const path = `${tokenPath(data.token)}/gasless`;

  const load = useCallback(
    async (signal?: AbortSignal): Promise<Plan | null> => {
      try {
        const fresh = await pageApi<Plan>(`${path}?wallet=${encodeURIComponent(address)}`, { signal });
        setPlan(fresh);
        setRefusal(null);
        return fresh;
      } catch (err) {
        if (signal?.aborted) return null;
        setPlan(null);
        setRefusal(err instanceof PageApiError ? err.message : null);
        return null;
      }
    },
    [path, address],
  );
  useEffect(() => {
    const ctl = new AbortController();
    void load(ctl.signal);
    return () => ctl.abort();
  }, [load]);

  const pay = async () => {
    // A plan about to expire (the page stayed open) is asked for again before the wallet signs it.
    const current = plan && Date.parse(plan.expiresAt) - Date.now() > 60_000 ? plan : await load();
    if (!current) return;
    setError(null);
    setPhase("signing");
    let signature: Hex;
    try {
      const m = current.typedData.message;
      signature = await signTypedDataAsync({
        domain: { ...current.typedData.domain, verifyingContract: current.typedData.domain.verifyingContract as Hex },
        types: current.typedData.types,
        primaryType: "ReceiveWithAuthorization",
        message: { ...m, value: BigInt(m.value), validAfter: BigInt(m.validAfter), validBefore: BigInt(m.validBefore) },
      });
    } catch (err) {
      setError(isUserRejection(err) ? REJECTED_MESSAGE : walletErrorMessage(err));
      setPhase("failed");
      return;
    }
    setPhase("relaying");
    try {
      const body = { wallet: address, salt: current.payment.salt, validBefore: current.validBefore, signature };
      const result = await pageApi<Result>(path, { method: "POST", json: body });
      setTxHash(result.txHash);
      setPhase("sent");
      onSent(result.txHash);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setPhase("failed");
      void load();
    }
  };

  const noEip3009 = refusal?.includes("EIP-3009");
  // A wallet short of the token: the wallet path below says so (a signature it cannot cover is not offered).
  if (!plan || (plan.hasEnoughBalance === false && phase === "idle")) {
    return (
      <>
        {noEip3009 ? (
          <p className="mb-3 text-sm text-slate-600" data-testid="gasless-unavailable">
            {data.currency.symbol} can't be paid without gas: it has no signature payments (EIP-3009), so your wallet needs {nativeSymbol}{" "}
            for the network fee.
          </p>
        ) : null}
        {children(false)}
      </>
    );
  }

  const free = Number(plan.amounts.relayerFee) === 0;
  const busy = phase === "signing" || phase === "relaying";
  const until = new Date(plan.expiresAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
  return (
    <div className="space-y-4">
      <section aria-labelledby="gasless-heading" className="rounded-xl bg-indigo-50/60 p-4 ring-1 ring-indigo-100">
        <div className="flex items-baseline justify-between gap-2">
          <h3 id="gasless-heading" className="font-semibold text-slate-900">
            Pay without gas
          </h3>
          <span className="rounded-full bg-white px-2 py-0.5 text-xs font-medium text-indigo-700 ring-1 ring-indigo-200">
            No {nativeSymbol} needed
          </span>
        </div>
        <p className="mt-1 text-sm text-slate-600">
          Sign once in your wallet; Duebill sends the payment and pays the network fee. Nothing else leaves your wallet.
        </p>
        <dl className="mt-3 space-y-1 text-sm" data-testid="gasless-plan">
          <Row label="Amount" value={`${groupAmount(plan.amounts.amount)} ${plan.token.symbol}`} />
          {Number(plan.amounts.fee) > 0 ? <Row label="Fee" value={`${groupAmount(plan.amounts.fee)} ${plan.token.symbol}`} /> : null}
          <Row label="Network fee (relayer)" value={free ? "Free" : `${groupAmount(plan.amounts.relayerFee)} ${plan.token.symbol}`} />
          <div className="flex justify-between border-t border-indigo-100 pt-1 font-semibold text-slate-900">
            <dt>Total you sign</dt>
            <dd>
              {groupAmount(plan.amounts.total)} {plan.token.symbol}
            </dd>
          </div>
        </dl>
        {phase === "failed" && error ? (
          <Alert role="alert" className="mt-3 [overflow-wrap:anywhere]">
            {error}
          </Alert>
        ) : null}
        {phase !== "sent" ? (
          <Button block className="mt-3" disabled={busy} onClick={() => void pay()}>
            {phase === "signing"
              ? "Confirm the signature in your wallet…"
              : phase === "relaying"
                ? "Sending your payment…"
                : phase === "failed"
                  ? "Try again"
                  : "Sign to send without gas"}
          </Button>
        ) : null}
        <p role="status" aria-live="polite" className="mt-2 min-h-5 text-sm text-slate-600">
          {phase === "relaying"
            ? "Signed. Duebill's relayer is sending it (no gas from you)…"
            : phase === "sent"
              ? `Payment sent in transaction ${txHash?.slice(0, 10)}…; confirming it now.`
              : phase === "idle"
                ? `One signature, valid until ${until}.`
                : ""}
        </p>
      </section>
      {phase === "idle" || phase === "failed" ? (
        <div className="border-t border-slate-200 pt-4">
          <p className="mb-3 text-sm text-slate-600">
            Or send the payment from your wallet yourself ({nativeSymbol} pays the network fee):
          </p>
          {children(true)}
        </div>
      ) : null}
    </div>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between text-slate-700">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
