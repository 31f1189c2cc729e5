"use client";

import { useWallet } from "@tronweb3/tronwallet-adapter-react-hooks";
import { TronLinkAdapterName } from "@tronweb3/tronwallet-adapter-tronlink";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { usePaymentPlan } from "@/components/pay/hooks/use-payment-plan";
import { type TxSender, usePlanRunner } from "@/components/pay/hooks/use-plan-runner";
import { recordIntent } from "@/components/pay/lib/api";
import { describeError, isUserRejection, REJECTED_MESSAGE } from "@/components/shared/wallet-errors";
import {
  broadcastTronTransaction,
  buildTronTransaction,
  injectedTronWeb,
  type TronTransaction,
  waitForTronTransaction,
} from "@/components/wallet/tron-transactions";
import type { PaymentPageData } from "@/lib/secure-payments/page-types";
import { primaryButtonClass } from "./paid-panel";
import { ConnectedWallet, PayCard } from "./pay-card";
import { PlanPanel, stepLabels } from "./plan-panel";

type SignInput = Parameters<ReturnType<typeof useWallet>["signTransaction"]>[0];

function requireTronWeb() {
  const tronWeb = injectedTronWeb();
  if (!tronWeb) throw new Error("TronLink is not available in this browser any more. Reload the page and try again.");
  return tronWeb;
}

/** Connect TronLink → plan → approve/pay, for Tron links. Lives inside TronProviders. */
export function TronPayFlow({ data }: { data: PaymentPageData }) {
  const { wallets, wallet, address, connected, connecting, select, connect, disconnect, signTransaction } = useWallet();
  const [wantConnect, setWantConnect] = useState(false);
  const [connectError, setConnectError] = useState<string | null>(null);
  const runner = usePlanRunner();
  const plan = usePaymentPlan(data.token, address, connected);
  const busy = runner.phase === "running" || runner.phase === "payment_submitted" || runner.phase === "payment_confirmed";
  const notFound = String(wallets.find((w) => w.adapter.name === TronLinkAdapterName)?.state) === "NotFound";

  // select() takes effect on the next render; connect once the adapter is the selected one.
  useEffect(() => {
    if (!wantConnect || !wallet || connected) return;
    setWantConnect(false);
    connect().catch((err: unknown) => setConnectError(isUserRejection(err) ? REJECTED_MESSAGE : describeError(err)));
  }, [wantConnect, wallet, connected, connect]);

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
      paymentSubmitted: (txid) => void recordIntent(data.token, txid, address ?? undefined),
    }),
    [address, signTransaction, data.token],
  );

  const onConnect = () => {
    setConnectError(null);
    if (!wallet) select(TronLinkAdapterName);
    setWantConnect(true);
  };
  const onPay = async (retry: boolean) => {
    const current = retry ? await plan.reload() : plan.plan;
    if (current?.metadata.hasEnoughBalance) await runner.run(current, stepLabels(data), sender);
  };

  let body: ReactNode;
  if (!connected || !address) {
    body = (
      <div className="space-y-3">
        <p className="text-sm text-slate-600">
          This payment is on Tron. Connect TronLink to pay; nothing is sent until you confirm each transaction in it.
        </p>
        {notFound ? (
          <p role="alert" className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
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
          </p>
        ) : null}
        <button type="button" className={`${primaryButtonClass} sm:w-full`} onClick={onConnect} disabled={connecting || wantConnect}>
          {connecting || wantConnect ? "Confirm in TronLink…" : "Connect TronLink"}
        </button>
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
    <PayCard data={data} paymentTx={runner.paymentTx}>
      {connected && address ? (
        <ConnectedWallet address={address} walletName="TronLink" onDisconnect={() => void disconnect()} disabled={busy} />
      ) : null}
      {body}
    </PayCard>
  );
}
