"use client";

import { useConnectModal } from "@rainbow-me/rainbowkit";
import { useEffect, useMemo, useRef } from "react";
import type { Address, Hex } from "viem";
import { useAccount, useConfig, useDisconnect, useSendTransaction, useSwitchChain } from "wagmi";
import { waitForTransactionReceipt } from "wagmi/actions";
import type { TxSender } from "@/components/pay/lib/plan";
import { shortenAddress } from "@/components/shared/format";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConnectedWallet } from "@/components/ui/connected-wallet";
import { EvmProviders } from "@/components/wallet/evm-providers";
import { RefundRunView, sameWallet, useRefundRun } from "./refund-run";
import type { RefundWalletProps } from "./refund-types";

/**
 * Connect (RainbowKit), check it is the payee's wallet, then send: the merchant already chose to
 * send this refund, so once the payee's wallet is connected the transactions start without another
 * click (the wallet still asks for each); after a rejection or a failure one click tries again.
 */
function ConnectAndRefund(props: RefundWalletProps) {
  const { chain, payee } = props;
  const { address, chainId, isConnected } = useAccount();
  const { openConnectModal, connectModalOpen } = useConnectModal();
  const { switchChainAsync } = useSwitchChain();
  const { disconnect } = useDisconnect();
  const { sendTransactionAsync } = useSendTransaction();
  const config = useConfig();
  const run = useRefundRun(props);
  const target = chain.chainId;
  const isPayee = Boolean(address && sameWallet(address, payee));
  const busy = run.loading || ["running", "payment_submitted", "payment_confirmed"].includes(run.runner.phase);

  const sender = useMemo<TxSender>(
    () => ({
      send: (tx) => sendTransactionAsync({ to: tx.to as Address, data: tx.data, value: BigInt(tx.value.hex), chainId: target }),
      wait: async (hash) => {
        const receipt = await waitForTransactionReceipt(config, { hash: hash as Hex, chainId: target });
        if (receipt.status !== "success") throw new Error("The transaction failed on chain (it was reverted).");
      },
    }),
    [sendTransactionAsync, config, target],
  );
  // Wallets send on the chain they are on: switch first when it is another.
  const start = () => run.start(sender, chainId === target ? undefined : () => switchChainAsync({ chainId: target }).then(() => undefined));

  // The merchant already chose to send: open the connect modal once, without a second click…
  const opened = useRef(false);
  useEffect(() => {
    if (isConnected || opened.current || !openConnectModal) return;
    opened.current = true;
    openConnectModal();
  }, [isConnected, openConnectModal]);
  // …and start once the payee's wallet is connected.
  const started = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the payee's wallet is first connected
  useEffect(() => {
    if (!isPayee || started.current) return;
    started.current = true;
    void start();
  }, [isPayee]);

  if (!isConnected || !address)
    return (
      <div className="space-y-2">
        <p className="text-sm text-slate-600">
          Connect the wallet that received the payment (<span className="font-mono text-xs">{shortenAddress(payee)}</span>): the refund is
          sent from it.
        </p>
        <Button variant="compact" disabled={connectModalOpen || !openConnectModal} onClick={() => openConnectModal?.()}>
          {connectModalOpen ? "Connecting…" : "Connect wallet"}
        </Button>
      </div>
    );
  return (
    <div className="space-y-3">
      <ConnectedWallet address={address} busy={busy} onDisconnect={() => disconnect()} />
      {isPayee ? (
        <RefundRunView
          run={run}
          symbol={props.symbol}
          amount={props.job.amount}
          nativeSymbol={chain.nativeSymbol}
          explorerPrefix={chain.explorerTxUrl ?? ""}
          onStart={() => void start()}
        />
      ) : (
        <Alert role="alert" tone="warning">
          This wallet is not the request's payee. A refund is sent from the wallet that received the payment,{" "}
          <span className="break-all font-mono text-xs">{payee}</span>: switch to that account in your wallet, or disconnect and connect it.
        </Alert>
      )}
    </div>
  );
}

/** Entry of the wallet bundle for a refund (wagmi + RainbowKit): loaded only when the merchant sends one. */
export function RefundEvmWallet(props: RefundWalletProps) {
  const { chain } = props;
  const network = useMemo(
    () => ({ chainId: chain.chainId, name: chain.name, rpcUrl: chain.rpcUrl, testnet: chain.testnet }),
    [chain.chainId, chain.name, chain.rpcUrl, chain.testnet],
  );
  return (
    <EvmProviders network={network} cookie={null}>
      <ConnectAndRefund {...props} />
    </EvmProviders>
  );
}
