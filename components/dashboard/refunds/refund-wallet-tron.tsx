"use client";

import type { useWallet } from "@tronweb3/tronwallet-adapter-react-hooks";
import { useEffect, useMemo, useRef } from "react";
import type { TxSender } from "@/components/pay/lib/plan";
import { useTronLink } from "@/components/shared/tronlink";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConnectedWallet } from "@/components/ui/connected-wallet";
import { TronProviders } from "@/components/wallet/tron-providers";
import {
  broadcastTronTransaction,
  buildTronTransaction,
  injectedTronWeb,
  type TronTransaction,
  waitForTronTransaction,
} from "@/components/wallet/tron-transactions";
import { RefundRunView, sameWallet, useRefundRun } from "./refund-run";
import type { RefundWalletProps } from "./refund-types";

type SignInput = Parameters<ReturnType<typeof useWallet>["signTransaction"]>[0];

function requireTronWeb() {
  const tronWeb = injectedTronWeb();
  if (!tronWeb) throw new Error("TronLink is not available in this browser any more. Reload the page and try again.");
  return tronWeb;
}

/**
 * Connect TronLink, check it is the payee's wallet, then send as the Tron pay panel does (TronLink's
 * tronWeb builds each contract call from the plan's calldata, the adapter signs, tronWeb
 * broadcasts): started by the merchant's click, like the EVM wallet.
 */
function ConnectAndRefund(props: RefundWalletProps) {
  const { payee } = props;
  const { address, connecting, notFound, connectError, connect, disconnect, signTransaction } = useTronLink();
  const run = useRefundRun(props);
  const isPayee = Boolean(address && sameWallet(address, payee));
  const busy = run.loading || ["running", "payment_submitted", "payment_confirmed"].includes(run.runner.phase);

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
    }),
    [address, signTransaction],
  );

  // The merchant already chose to send: ask TronLink once, then start once the payee's wallet is connected.
  const asked = useRef(false);
  useEffect(() => {
    if (address || connecting || notFound || asked.current) return;
    asked.current = true;
    connect();
  }, [address, connecting, notFound, connect]);
  const started = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the payee's wallet is first connected
  useEffect(() => {
    if (!isPayee || started.current) return;
    started.current = true;
    void run.start(sender);
  }, [isPayee]);

  if (!address)
    return (
      <div className="space-y-2">
        {notFound ? (
          <Alert as="p" role="alert" tone="warning">
            TronLink is not installed in this browser. Install the TronLink extension, reload this page and send the refund again.
          </Alert>
        ) : (
          <p className="text-sm text-slate-600">Connect TronLink with the wallet that received the payment: the refund is sent from it.</p>
        )}
        <Button variant="compact" disabled={connecting || notFound} onClick={connect}>
          {connecting ? "Confirm in TronLink…" : "Connect TronLink"}
        </Button>
        {connectError ? (
          <p role="alert" className="text-sm text-rose-700">
            {connectError}
          </p>
        ) : null}
      </div>
    );
  return (
    <div className="space-y-3">
      <ConnectedWallet address={address} busy={busy} onDisconnect={() => void disconnect()} />
      {isPayee ? (
        <RefundRunView
          run={run}
          symbol={props.symbol}
          amount={props.job.amount}
          nativeSymbol="TRX"
          explorerPrefix={props.chain.explorerTxUrl ?? ""}
          onStart={() => void run.start(sender)}
        />
      ) : (
        <Alert role="alert" tone="warning">
          This TronLink account is not the request's payee. A refund is sent from the wallet that received the payment,{" "}
          <span className="break-all font-mono text-xs">{payee}</span>: switch to that account in TronLink.
        </Alert>
      )}
    </div>
  );
}

/** Entry of the TronLink bundle for a refund: loaded only when the merchant sends one. */
export function RefundTronWallet(props: RefundWalletProps) {
  return (
    <TronProviders>
      <ConnectAndRefund {...props} />
    </TronProviders>
  );
}
