"use client";

import { signIn as nextAuthSignIn } from "next-auth/react";
import { useState } from "react";
import { primaryButtonClass, secondaryButtonClass } from "@/components/payment/paid-panel";
import { describeError, isUserRejection, REJECTED_MESSAGE } from "@/components/payment/wallet-errors";

/** What signing in needs of a wallet (Tron through the TronLink adapter; EVM signs in through RainbowKit's SIWE, evm-sign-in-panel). */
export interface SignInWallet {
  kind: "tron";
  address: string | undefined;
  name: string | undefined;
  connecting: boolean;
  notFound?: boolean;
  connectError?: string | null;
  connect(): void;
  disconnect(): void;
  signMessage(message: string): Promise<string>;
}

async function postJson(path: string, body: unknown) {
  const res = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    const errors = json.errors as { field: string; message: string }[] | undefined;
    throw new Error(errors?.[0] ? `${errors[0].field}: ${errors[0].message}` : String(json.message ?? `Request failed (${res.status})`));
  }
  return json;
}

/**
 * Connect, then sign the `/v1` wallet challenge (TRON message v2) and sign in with it through
 * next-auth's "tron" provider (the same verifyChallenge as /v1/auth/wallet/verify), then move on.
 */
export function WalletSignInFlow({ wallet, next }: { wallet: SignInWallet; next: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const signIn = async () => {
    if (!wallet.address) return;
    setBusy(true);
    setError(null);
    try {
      const challenge = await postJson("/v1/auth/wallet/challenge", { address: wallet.address });
      const message = String(challenge.message);
      const signature = await wallet.signMessage(message);
      const res = await nextAuthSignIn("tron", {
        redirect: false,
        challengeId: String(challenge.challengeId),
        nonce: String(challenge.nonce),
        message,
        signature,
      });
      if (!res?.ok) throw new Error(res?.error ?? "Sign-in failed");
      window.location.assign(next);
    } catch (err) {
      setError(isUserRejection(err) ? REJECTED_MESSAGE : describeError(err));
      setBusy(false);
    }
  };

  return (
    <div className="space-y-3">
      {!wallet.address ? (
        <>
          {wallet.notFound ? (
            <p className="text-sm text-slate-600">TronLink is not installed in this browser.</p>
          ) : (
            <p className="text-sm text-slate-600">Connect your wallet, then sign a message to prove it is yours. Signing costs nothing.</p>
          )}
          <button type="button" className={`${primaryButtonClass} sm:w-full`} disabled={wallet.connecting} onClick={wallet.connect}>
            {wallet.connecting ? "Connecting…" : "Connect TronLink"}
          </button>
        </>
      ) : (
        <>
          <div className="flex items-center justify-between gap-2 rounded-xl bg-slate-50 px-3 py-2 text-sm">
            <p className="min-w-0 truncate font-mono text-[13px]" data-testid="sign-in-address" title={wallet.address}>
              {wallet.address}
            </p>
            <button
              type="button"
              onClick={wallet.disconnect}
              disabled={busy}
              className={`${secondaryButtonClass} !min-h-9 !w-auto !px-3 !py-1 text-sm`}
            >
              Disconnect
            </button>
          </div>
          <button type="button" className={`${primaryButtonClass} sm:w-full`} disabled={busy} onClick={() => void signIn()}>
            {busy ? "Confirm in your wallet…" : "Sign in with this wallet"}
          </button>
        </>
      )}
      {error || wallet.connectError ? (
        <p role="alert" className="text-sm text-rose-700">
          {error ?? wallet.connectError}
        </p>
      ) : null}
    </div>
  );
}
