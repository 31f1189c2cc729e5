"use client";

import { useConnectModal } from "@rainbow-me/rainbowkit";
import dynamic from "next/dynamic";
import { useEffect, useMemo, useState } from "react";
import { useAccount } from "wagmi";
import { useInjectedWallet } from "@/components/pay/hooks/use-injected-wallet";
import { buttonClass } from "@/components/ui/button";
import { paymentChain } from "@/components/wallet/evm-config";
import { EvmProviders } from "@/components/wallet/evm-providers";
import type { CrossChainSource, PaymentPageData } from "@/lib/secure-payments/page-types";
import { CrossChainPicker, CrossChainSummary } from "./cross-chain";
import type { EvmSource } from "./evm-pay-flow";
import { OpenInWalletApp } from "./open-in-wallet";

/** Placeholder while the connected flow's code loads (right after the wallet connects). */
function FlowLoading() {
  return (
    <section aria-busy="true" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <p className="text-lg font-semibold text-slate-900">Pay with your wallet</p>
      <p role="status" className="mt-4 text-sm text-slate-600">
        Preparing the payment…
      </p>
    </section>
  );
}

// What a connected wallet needs (plan, approvals, sending, receipts) loads once a wallet is connected.
const EvmPayFlow = dynamic(() => import("./evm-pay-flow").then((m) => m.EvmPayFlow), { ssr: false, loading: FlowLoading });

/** Disconnected: the connect button (RainbowKit's modal) and, for cross-chain links, the source picker. */
function EvmConnectGate({
  data,
  nativeSymbol,
  connectIntent,
}: {
  data: PaymentPageData;
  nativeSymbol: string;
  connectIntent?: { open: boolean };
}) {
  const [source, setSource] = useState<EvmSource | null>(null);
  const { address, isConnected } = useAccount();
  const { openConnectModal, connectModalOpen } = useConnectModal();
  // Without a wallet in this browser the transfer panel above holds the main action.
  const wallet = useInjectedWallet();

  // The payer clicked "Connect wallet" while this code was loading: open the modal once RainbowKit offers it.
  useEffect(() => {
    if (!connectIntent?.open || !openConnectModal || isConnected) return;
    connectIntent.open = false;
    openConnectModal();
  }, [connectIntent, openConnectModal, isConnected]);

  if (isConnected && address) return <EvmPayFlow data={data} nativeSymbol={nativeSymbol} source={source} onSource={setSource} />;
  return (
    <section aria-labelledby="pay-heading" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id="pay-heading" className="text-lg font-semibold text-slate-900">
        Pay with your wallet
      </h2>
      <div className="mt-4">
        {source ? (
          <CrossChainSummary
            data={data}
            sourceName={source.source.network.name}
            token={source.token}
            plan={undefined}
            disabled={false}
            onCancel={() => setSource(null)}
          />
        ) : null}
        <div className="space-y-3">
          <p className="text-sm text-slate-600">
            Connect the wallet you want to pay from. Nothing is sent until you confirm each transaction in your wallet.
          </p>
          <button
            type="button"
            className={buttonClass({ block: true, variant: wallet === "none" ? "secondary" : "primary" })}
            onClick={openConnectModal}
            disabled={!openConnectModal || connectModalOpen}
          >
            Connect wallet
          </button>
          <OpenInWalletApp />
        </div>
        {!source && data.crossChainSources.length > 0 ? (
          <CrossChainPicker
            sources={data.crossChainSources}
            onPick={(s: CrossChainSource, token: string) => setSource({ source: s, token })}
          />
        ) : null}
      </div>
    </section>
  );
}

/** Entry of the EVM wallet bundle (wagmi, RainbowKit, react-query): loaded on demand by PayPanelLoader. */
export function EvmPayPanel({
  data,
  cookie,
  connectIntent,
}: {
  data: PaymentPageData;
  cookie: string | null;
  /** Set when the payer clicked "Connect wallet" before this code had loaded: open the connect modal on mount. */
  connectIntent?: { open: boolean };
}) {
  const { chainId, name, testnet } = data.network;
  const network = useMemo(() => ({ chainId, name, testnet, rpcUrl: data.rpcUrl }), [chainId, name, testnet, data.rpcUrl]);
  return (
    <EvmProviders network={network} extraNetworks={data.crossChainSources.map((s) => s.network)} cookie={cookie}>
      <EvmConnectGate data={data} nativeSymbol={paymentChain(network).nativeCurrency.symbol} connectIntent={connectIntent} />
    </EvmProviders>
  );
}
