"use client";

import { useConnectModal } from "@rainbow-me/rainbowkit";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useAccount, useConfig, useDisconnect, useSendTransaction, useSignTypedData, useSwitchChain } from "wagmi";
import { waitForTransactionReceipt } from "wagmi/actions";
import { groupAmount } from "@/components/shared/format";
import { walletErrorMessage } from "@/components/shared/wallet-errors";
import { buttonClass } from "@/components/ui/button";
import { ConnectedWallet } from "@/components/ui/connected-wallet";
import { EvmProviders } from "@/components/wallet/evm-providers";
import type { PayerSchedulePage } from "@/lib/recurring/payer-page";
import { type JsonTypedData, typedDataToSign } from "@/lib/recurring/permit-signing";

type Busy = null | "approve" | "cancel" | "renew";

/** Connect the payer's wallet, then approve the allowance in one transaction, or cancel on chain. */
function Actions({ data }: { data: PayerSchedulePage }) {
  const { address, isConnected, chainId } = useAccount();
  const { openConnectModal, connectModalOpen } = useConnectModal();
  const { disconnect } = useDisconnect();
  const { switchChainAsync } = useSwitchChain();
  const { sendTransactionAsync } = useSendTransaction();
  const { signTypedDataAsync } = useSignTypedData();
  const config = useConfig();
  const router = useRouter();
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const isPayer = address?.toLowerCase() === data.payer.toLowerCase();

  /** Re-sign the permit with a later deadline (one signature, no transaction) and hand it to the server. */
  async function renew() {
    setBusy("renew");
    setError(null);
    try {
      const url = `/v2/subscriptions/${encodeURIComponent(data.token)}/permit`;
      const plan = await fetch(url, { cache: "no-store" });
      const body = (await plan.json()) as { deadline: string; typedData: JsonTypedData; message?: string };
      if (!plan.ok) throw new Error(body.message ?? "The renewal could not be prepared.");
      if (chainId !== data.network.chainId) await switchChainAsync({ chainId: data.network.chainId });
      const signature = await signTypedDataAsync(typedDataToSign(body.typedData));
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ deadline: body.deadline, signature }),
      });
      if (!res.ok) throw new Error(((await res.json()) as { message?: string }).message ?? "The renewal was refused.");
      router.refresh();
    } catch (err) {
      setError(walletErrorMessage(err));
    } finally {
      setBusy(null);
    }
  }

  async function send(kind: Exclude<Busy, null>, tx: { to: string; data: string }) {
    setBusy(kind);
    setError(null);
    try {
      if (chainId !== data.network.chainId) await switchChainAsync({ chainId: data.network.chainId });
      const hash = await sendTransactionAsync({
        to: tx.to as `0x${string}`,
        data: tx.data as `0x${string}`,
        chainId: data.network.chainId,
      });
      // wagmi's action, as the pay page (the bundle shims give the client no decorated actions).
      const receipt = await waitForTransactionReceipt(config, { hash, chainId: data.network.chainId });
      if (receipt.status !== "success") throw new Error("The transaction failed on chain (it was reverted).");
      router.refresh();
    } catch (err) {
      setError(walletErrorMessage(err));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section aria-labelledby="fix-heading" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id="fix-heading" className="text-lg font-semibold text-slate-900">
        {data.approve || data.permit?.renew ? "Fix it in one step" : "Manage your subscription"}
      </h2>
      <div className="mt-4 space-y-3">
        {!isConnected || !address ? (
          <>
            <p className="text-sm text-slate-600">
              Connect the wallet this subscription pays from. Nothing is sent until you confirm it in your wallet.
            </p>
            <button
              type="button"
              className={buttonClass({ block: true })}
              onClick={openConnectModal}
              disabled={!openConnectModal || connectModalOpen}
            >
              Connect wallet
            </button>
          </>
        ) : (
          <>
            <ConnectedWallet address={address} busy={busy !== null} onDisconnect={() => disconnect()} />
            {!isPayer ? (
              <p role="alert" className="text-sm text-amber-800">
                This subscription pays from {data.payer}. Connect that wallet to change it.
              </p>
            ) : (
              <>
                {data.permit?.renew ? (
                  <>
                    <p className="text-sm text-slate-600">
                      Sign the same subscription again with a later end date. Nothing else changes: same amount, same dates, payments
                      already made stay made.
                    </p>
                    <button type="button" className={buttonClass({ block: true })} disabled={busy !== null} onClick={renew}>
                      {busy === "renew" ? "Renewing…" : "Renew authorization"}
                    </button>
                  </>
                ) : null}
                {data.approve ? (
                  <>
                    <p className="text-sm text-slate-600">
                      Allow the subscription contract to take up to {groupAmount(data.approve.amount)} {data.symbol}: what the remaining{" "}
                      {data.totalPayments - data.processedPayments} payments need. It can only take each payment when it is due.
                    </p>
                    <button
                      type="button"
                      className={buttonClass({ block: true })}
                      disabled={busy !== null}
                      onClick={() => send("approve", data.approve!.tx)}
                    >
                      {busy === "approve" ? "Approving…" : `Approve ${groupAmount(data.approve.amount)} ${data.symbol}`}
                    </button>
                  </>
                ) : null}
                {data.cancel ? (
                  confirmCancel ? (
                    <div className="space-y-2 rounded-lg bg-slate-50 p-3 ring-1 ring-inset ring-slate-200">
                      <p className="text-sm text-slate-700">No further payment can be taken once the contract records the cancel.</p>
                      <div className="flex flex-wrap gap-2">
                        <button
                          type="button"
                          className={buttonClass({ variant: "primary" })}
                          disabled={busy !== null}
                          onClick={() => send("cancel", data.cancel!)}
                        >
                          {busy === "cancel" ? "Cancelling…" : "Cancel subscription"}
                        </button>
                        <button
                          type="button"
                          className={buttonClass({ variant: "secondary" })}
                          disabled={busy !== null}
                          onClick={() => setConfirmCancel(false)}
                        >
                          Keep it
                        </button>
                      </div>
                    </div>
                  ) : (
                    <button
                      type="button"
                      className={buttonClass({ block: true, variant: "secondary" })}
                      disabled={busy !== null}
                      onClick={() => setConfirmCancel(true)}
                    >
                      Cancel subscription…
                    </button>
                  )
                ) : null}
              </>
            )}
          </>
        )}
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    </section>
  );
}

export function FixPanel({ data }: { data: PayerSchedulePage }) {
  return (
    <EvmProviders network={data.network} cookie={null}>
      <Actions data={data} />
    </EvmProviders>
  );
}
