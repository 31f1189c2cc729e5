"use client";

import { type ReactNode, useMemo, useState } from "react";
import type { Address, Hex } from "viem";
import { useAccount, useConfig, useDisconnect, useSendTransaction, useSwitchChain } from "wagmi";
import { waitForTransactionReceipt } from "wagmi/actions";
import { usePaymentPlan } from "@/components/pay/hooks/use-payment-plan";
import { type TxSender, usePlanRunner } from "@/components/pay/hooks/use-plan-runner";
import { recordSubmission } from "@/components/pay/lib/api";
import { groupAmount } from "@/components/shared/format";
import { describeError, isUserRejection, REJECTED_MESSAGE } from "@/components/shared/wallet-errors";
import { buttonClass } from "@/components/ui/button";
import type { CrossChainSource, PaymentPageData } from "@/lib/secure-payments/page-types";
import { CrossChainPicker, CrossChainSummary } from "./cross-chain";
import { GaslessPay } from "./gasless-pay";
import { ConnectedWallet, PayCard } from "./pay-card";
import { PlanPanel, stepLabels } from "./plan-panel";

/** Pay from another chain (cross-chain): the chosen source chain and token; null pays on the link's network. */
export type EvmSource = { source: CrossChainSource; token: string };

/**
 * Connected wallet → right network → plan → approve/pay, for EVM links. Lives inside EvmProviders;
 * loaded by EvmConnectGate (evm-pay-panel.tsx) once a wallet is connected, which also holds the
 * cross-chain source so a choice made before connecting carries over.
 */
export function EvmPayFlow({
  data,
  nativeSymbol,
  source,
  onSource: setSource,
}: {
  data: PaymentPageData;
  nativeSymbol: string;
  source: EvmSource | null;
  onSource: (source: EvmSource | null) => void;
}) {
  const target = source ? source.source.network.chainId : data.network.chainId;
  const targetName = source ? source.source.network.name : data.network.name;
  const planSource = useMemo(() => (source ? { chain: source.source.chain, token: source.token } : null), [source]);
  const { address, chainId, isConnected, connector } = useAccount();
  const { switchChain, isPending: switching, error: switchError } = useSwitchChain();
  const { disconnect } = useDisconnect();
  const config = useConfig();
  const { sendTransactionAsync } = useSendTransaction();
  const runner = usePlanRunner();
  // A gasless payment's transaction (sent by Duebill's relayer): watched like the wallet's own.
  const [gaslessTx, setGaslessTx] = useState<string | null>(null);
  const onTarget = isConnected && chainId === target;
  const plan = usePaymentPlan(data.token, address, onTarget, planSource);
  const busy = runner.phase === "running" || runner.phase === "payment_submitted" || runner.phase === "payment_confirmed";

  const sender = useMemo<TxSender>(
    () => ({
      send: (tx) => sendTransactionAsync({ to: tx.to as Address, data: tx.data, value: BigInt(tx.value.hex), chainId: target }),
      wait: async (hash) => {
        const receipt = await waitForTransactionReceipt(config, { hash: hash as Hex, chainId: target });
        if (receipt.status !== "success") throw new Error("The transaction failed on chain (it was reverted).");
      },
      paymentSubmitted: (hash) => void recordSubmission(data.token, hash, address),
    }),
    [sendTransactionAsync, config, target, data.token, address],
  );

  const crossChainOf = (p: typeof plan.plan) =>
    source && p?.crossChain
      ? {
          labels: {
            approve: `Approve ${p.crossChain.sourceToken} on ${targetName}`,
            pay: `Send ${groupAmount(p.crossChain.sourceAmount)} ${p.crossChain.sourceToken} from ${targetName}`,
          },
          need: `${groupAmount(p.crossChain.sourceAmount)} ${p.crossChain.sourceToken} on ${targetName}`,
        }
      : undefined;

  const onPay = async (retry: boolean) => {
    const current = retry ? await plan.reload() : plan.plan;
    if (current?.metadata.hasEnoughBalance) await runner.run(current, crossChainOf(current)?.labels ?? stepLabels(data), sender);
  };

  let body: ReactNode;
  if (!isConnected || !address) {
    // EvmConnectGate shows the connect button instead of this flow while no wallet is connected.
    body = null;
  } else if (!onTarget) {
    body = (
      <div className="space-y-3">
        <p className="text-sm text-slate-700">
          Your wallet is on another network. {source ? "You chose to pay from" : "This payment is on"} <strong>{targetName}</strong>.
        </p>
        <button
          type="button"
          className={buttonClass({ block: true })}
          disabled={switching}
          onClick={() => switchChain({ chainId: target })}
        >
          {switching ? "Confirm in your wallet…" : `Switch to ${targetName}`}
        </button>
        {switchError ? (
          <p role="alert" className="text-sm text-rose-700">
            {isUserRejection(switchError) ? REJECTED_MESSAGE : describeError(switchError)}
          </p>
        ) : null}
      </div>
    );
  } else {
    const walletPath = (secondary: boolean) => (
      <PlanPanel
        data={data}
        plan={plan.plan}
        planLoading={plan.loading}
        planError={plan.error}
        onReloadPlan={() => void plan.reload()}
        runner={runner}
        onPay={(retry) => void onPay(retry)}
        nativeSymbol={source ? "ETH" : nativeSymbol}
        crossChain={crossChainOf(plan.plan)}
        secondary={secondary}
      />
    );
    // Paying on the link's own network from an idle wallet: the signature path first where the token allows it.
    body =
      source || runner.phase !== "idle" ? (
        walletPath(false)
      ) : (
        <GaslessPay data={data} address={address} nativeSymbol={nativeSymbol} onSent={setGaslessTx}>
          {walletPath}
        </GaslessPay>
      );
  }

  return (
    <PayCard paymentTx={runner.paymentTx ?? gaslessTx}>
      {isConnected && address ? (
        <ConnectedWallet address={address} walletName={connector?.name} onDisconnect={() => disconnect()} disabled={busy} />
      ) : null}
      {source ? (
        <CrossChainSummary
          data={data}
          sourceName={targetName}
          token={source.token}
          plan={plan.plan?.crossChain}
          disabled={busy}
          onCancel={() => setSource(null)}
        />
      ) : null}
      {body}
      {!source && data.crossChainSources.length > 0 && runner.phase === "idle" ? (
        <CrossChainPicker sources={data.crossChainSources} onPick={(s, token) => setSource({ source: s, token })} />
      ) : null}
    </PayCard>
  );
}
