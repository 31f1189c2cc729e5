"use client";

import { useConnectModal } from "@rainbow-me/rainbowkit";
import { useMemo, useState } from "react";
import { useAccount, useSignTypedData, useSwitchChain } from "wagmi";
import { groupAmount, shortenAddress } from "@/components/shared/format";
import { walletErrorMessage } from "@/components/shared/wallet-errors";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EvmProviders } from "@/components/wallet/evm-providers";

type Typed = {
  domain: { chainId: number };
  types: Record<string, readonly { name: string; type: string }[]>;
  message: Record<string, string>;
};

export interface EscrowRefundProps {
  requestId: string;
  symbol: string;
  refundable: string;
  payee: string;
  chain: { chainId: number; name: string; rpcUrl: string | null; testnet: boolean };
  prepare: (input: { requestId: string; amount: string }) => Promise<{ error: string | null; typedData?: Typed; refundSalt?: string }>;
  submit: (input: { requestId: string; amount: string; validBefore: string; refundSalt: string; signature: string }) => Promise<{
    error: string | null;
  }>;
}

/**
 * A refund of captured money, signed by the payee's wallet (one EIP-3009 signature, no gas) and sent by
 * Duebill's relayer through the escrow, which checks it against what was captured.
 */
function RefundForm(props: EscrowRefundProps) {
  const { address, chainId, isConnected } = useAccount();
  const { openConnectModal } = useConnectModal();
  const { switchChainAsync } = useSwitchChain();
  const { signTypedDataAsync } = useSignTypedData();
  const [amount, setAmount] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const isPayee = Boolean(address && address.toLowerCase() === props.payee.toLowerCase());

  async function run() {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const prepared = await props.prepare({ requestId: props.requestId, amount });
      if (prepared.error || !prepared.typedData || !prepared.refundSalt) throw new Error(prepared.error ?? "No refund to sign");
      const td = prepared.typedData;
      if (chainId !== td.domain.chainId) await switchChainAsync({ chainId: td.domain.chainId });
      const signature = await signTypedDataAsync({ ...td, primaryType: "ReceiveWithAuthorization" } as never);
      const out = await props.submit({
        requestId: props.requestId,
        amount,
        validBefore: td.message.validBefore!,
        refundSalt: prepared.refundSalt,
        signature,
      });
      if (out.error) throw new Error(out.error);
      setDone(`Refunded ${groupAmount(amount)} ${props.symbol} to the payer`);
      setAmount("");
    } catch (err) {
      setError(walletErrorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-2 border-t border-slate-100 pt-4">
      <p className="font-medium text-slate-900">Refund</p>
      <p className="text-slate-600">
        Up to {groupAmount(props.refundable)} {props.symbol}, from the payee&apos;s wallet {shortenAddress(props.payee)}: it signs, Duebill
        sends (no gas).
      </p>
      {!isConnected ? (
        <Button type="button" variant="secondary" onClick={() => openConnectModal?.()}>
          Connect the payee&apos;s wallet
        </Button>
      ) : !isPayee ? (
        <Alert tone="warning">This wallet is not the payee ({shortenAddress(props.payee)}): switch to that account in your wallet.</Alert>
      ) : (
        <div className="flex flex-wrap items-end gap-2">
          <label className="grid gap-1">
            <span className="text-slate-600">Amount to refund ({props.symbol})</span>
            <input
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              inputMode="decimal"
              className="w-36 rounded-md border border-slate-300 px-2 py-1.5"
            />
          </label>
          <Button type="button" onClick={() => void run()} disabled={busy || amount.trim() === ""}>
            Sign and refund
          </Button>
        </div>
      )}
      {error ? <Alert role="alert">{error}</Alert> : null}
      {done ? (
        <p role="status" className="text-emerald-700">
          {done}
        </p>
      ) : null}
    </div>
  );
}

export function EscrowRefund(props: EscrowRefundProps) {
  const { chain } = props;
  const network = useMemo(() => chain, [chain]);
  return (
    <EvmProviders network={network} cookie={null}>
      <RefundForm {...props} />
    </EvmProviders>
  );
}
