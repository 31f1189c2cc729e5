"use client";

import { signIn as nextAuthSignIn } from "next-auth/react";
import { useState } from "react";
import { apiError, postJson } from "@/components/shared/post-json";
import type { SigningWallet } from "@/components/shared/signing-wallet";
import { walletErrorMessage } from "@/components/shared/wallet-errors";
import { Button } from "@/components/ui/button";

/** POST to the /v1 auth service; its error, worded, as a throw. */
async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const { ok, status, json } = await postJson(path, body);
  if (!ok) throw new Error(apiError(json, status));
  return json;
}

/**
 * Connect, then sign the `/v1` wallet challenge (TRON message v2) and sign in with it through
 * next-auth's "tron" provider (the same verifyChallenge as /v1/auth/wallet/verify), then move on.
 */
export function WalletSignInFlow({ wallet, next }: { wallet: SigningWallet; next: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const signIn = async () => {
    if (!wallet.address) return;
    setBusy(true);
    setError(null);
    try {
      const challenge = await post("/v1/auth/wallet/challenge", { address: wallet.address });
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
      setError(walletErrorMessage(err));
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
          <Button block disabled={wallet.connecting} onClick={wallet.connect}>
            {wallet.connecting ? "Connecting…" : wallet.kind === "tron" ? "Connect TronLink" : "Connect wallet"}
          </Button>
        </>
      ) : (
        <>
          <div className="flex items-center justify-between gap-2 rounded-xl bg-slate-50 px-3 py-2 text-sm">
            <p className="min-w-0 truncate font-mono text-[13px]" data-testid="sign-in-address" title={wallet.address}>
              {wallet.address}
            </p>
            <Button variant="secondary" onClick={wallet.disconnect} disabled={busy} className="!min-h-9 !w-auto !px-3 !py-1 text-sm">
              Disconnect
            </Button>
          </div>
          <Button block disabled={busy} onClick={() => void signIn()}>
            {busy ? "Confirm in your wallet…" : "Sign in with this wallet"}
          </Button>
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
