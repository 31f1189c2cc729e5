"use client";

import type { useWallet } from "@tronweb3/tronwallet-adapter-react-hooks";
import { type ReactNode, useMemo } from "react";
import { usePaymentPlan } from "@/components/pay/hooks/use-payment-plan";
import { usePlanRunner } from "@/components/pay/hooks/use-plan-runner";
import { recordSubmission } from "@/components/pay/lib/api";
import { isBusy, stepLabels, type TxSender } from "@/components/pay/lib/plan";
import { useTronLink } from "@/components/shared/tronlink";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import {
  broadcastTronTransaction,
  buildTronTransaction,
  injectedTronWeb,
  type TronTransaction,
  waitForTronTransaction,
} from "@/components/wallet/tron-transactions";
import type { Checkout } from "@/lib/operations/checkout-schemas";
import { ConnectedWallet, PayCard } from "./pay-card";
import { PlanPanel } from "./plan-panel";

type SignInput = Parameters<ReturnType<typeof useWallet>["signTransaction"]>[0];

function requireTronWeb() {
  const tronWeb = injectedTronWeb();
  if (!tronWeb) throw new Error("TronLink is not available in this browser any more. Reload the page and try again.");
  return tronWeb;
}

/** Connect TronLink → plan → approve/pay, for Tron links. Lives inside TronProviders. */
export function TronPayFlow({ data }: { data: Checkout }) {
  const { address, connecting, notFound, connectError, connect, disconnect, signTransaction } = useTronLink();
  const runner = usePlanRunner();
  const plan = usePaymentPlan(data.token, address, address !== undefined);
  const busy = isBusy(runner.phase);

  const sender = useMemo<TxSender>(
    () => ({
      send: async (tx) => {
        if (!address) throw new Error("Connect TronLink first.");
        const tronWeb = requireTronWeb();
        const unsigned = await buildTronTransaction(tronWeb, tx.to, tx.data, address);
        const signed = (await signTransaction(unsigned as unknown as SignInput)) as unknown as TronTransaction;
        return broadcastTronTransaction(tronWeb, signed);
      },
      wait: (txid) => waitForTronTransaction(requireTronWeb(), txid),
      paymentSubmitted: (txid) => void recordSubmission(data.token, txid, address),
    }),
    [address, signTransaction, data.token],
  );

  const onPay = async (retry: boolean) => {
    const current = retry ? await plan.reload() : plan.plan;
    if (current?.metadata.hasEnoughBalance) await runner.run(current, stepLabels(data), sender);
  };

  let body: ReactNode;
  if (!address) {
    body = (
      <div className="space-y-3">
        <p className="text-sm text-slate-600">
          This payment is on Tron. Connect TronLink to pay; nothing is sent until you confirm each transaction in it.
        </p>
        {notFound ? (
          <Alert as="p" role="alert" tone="warning">
            TronLink was not found in this browser.{" "}
            <a
              href="https://www.tronlink.org/"
              target="_blank"
              rel="noopener noreferrer"
              className="font-medium underline underline-offset-2"
            >
              Install TronLink
            </a>{" "}
            and reload this page.
          </Alert>
        ) : null}
        <Button block onClick={connect} disabled={connecting}>
          {connecting ? "Confirm in TronLink…" : "Connect TronLink"}
        </Button>
        {connectError ? (
          <p role="alert" className="text-sm text-rose-700">
            {connectError}
          </p>
        ) : null}
      </div>
    );
  } else {
    body = (
      <PlanPanel
        data={data}
        plan={plan.plan}
        planLoading={plan.loading}
        planError={plan.error}
        onReloadPlan={() => void plan.reload()}
        runner={runner}
        onPay={(retry) => void onPay(retry)}
        nativeSymbol="TRX"
      />
    );
  }

  return (
    <PayCard paymentTx={runner.paymentTx}>
      {address ? <ConnectedWallet address={address} walletName="TronLink" onDisconnect={() => void disconnect()} disabled={busy} /> : null}
      {body}
    </PayCard>
  );
}
