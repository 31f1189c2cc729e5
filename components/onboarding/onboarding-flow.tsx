"use client";

import { type ReactNode, useState } from "react";
import { apiError, postJson } from "@/components/shared/post-json";
import type { SigningWallet } from "@/components/shared/signing-wallet";
import { walletErrorMessage } from "@/components/shared/wallet-errors";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card as UiCard } from "@/components/ui/card";
import type { OnboardingPageData } from "@/lib/orchestrators/onboarding-page";

const STEPS = ["Connect wallet", "Sign in", "Payout destination", "Screening", "Confirm"] as const;

function Steps({ current }: { current: number }) {
  return (
    <ol className="mb-5 grid grid-cols-5 gap-1.5" aria-label="Progress">
      {STEPS.map((label, i) => (
        <li key={label} aria-current={i === current ? "step" : undefined} className="min-w-0">
          <div className={`h-1.5 rounded-full ${i < current ? "bg-emerald-500" : i === current ? "bg-indigo-600" : "bg-slate-200"}`} />
          <p className={`mt-1.5 truncate text-[11px] sm:text-xs ${i === current ? "font-semibold text-slate-900" : "text-slate-500"}`}>
            <span className="sr-only">{i < current ? "Done: " : i === current ? "Current: " : ""}</span>
            {label}
          </p>
        </li>
      ))}
    </ol>
  );
}

/**
 * Connect → sign in (the /v1 wallet challenge, signed in the wallet) → payout destination →
 * screening → confirm. Every step is a real API call the page makes as the signed-in platform;
 * finishing twice is harmless (the server creates one client ID per intent).
 */
export function OnboardingFlow({ data, wallet }: { data: OnboardingPageData; wallet: SigningWallet }) {
  const { address } = wallet;
  const isConnected = address !== undefined;
  const currencies = data.currencies.filter((c) => c.kind === wallet.kind);
  const [signedInAs, setSignedInAs] = useState<string | null>(null);
  const [currency, setCurrency] = useState(currencies[0]?.id ?? "");
  const [destination, setDestination] = useState<{ currency: string; address: string } | null>(null);
  const [kyt, setKyt] = useState<string>(data.kytChoices[0]?.id ?? "");
  const [kytDone, setKytDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const signedIn = isConnected && signedInAs === address;
  const hasDestination = signedIn && destination?.address === address;
  const step = !isConnected ? 0 : !signedIn ? 1 : !hasDestination ? 2 : !kytDone ? 3 : 4;

  const attempt = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(walletErrorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const signIn = () =>
    attempt(async () => {
      if (!address) return;
      const challenge = await postJson("/v1/auth/wallet/challenge", {
        address,
        ...(wallet.kind === "evm" ? { chainId: data.wallet.chainId } : {}),
      });
      if (!challenge.ok) throw new Error(apiError(challenge.json));
      const message = String(challenge.json.message);
      const signature = await wallet.signMessage(message);
      const verified = await postJson("/v1/auth/wallet/verify", {
        challengeId: challenge.json.challengeId,
        nonce: challenge.json.nonce,
        message,
        signature,
      });
      if (!verified.ok) throw new Error(apiError(verified.json));
      setSignedInAs(address);
    });

  const saveDestination = () =>
    attempt(async () => {
      if (!address) return;
      const res = await postJson("/v2/payee-destination", { currency, walletAddress: address });
      if (!res.ok) throw new Error(apiError(res.json));
      setDestination({ currency, address });
    });

  const confirm = () =>
    attempt(async () => {
      const res = await postJson("/v2/onboarding/complete", { token: data.token, ...(data.kytPlan ? {} : { kyt }) });
      if (!res.ok) throw new Error(apiError(res.json));
      setDone(String(res.json.clientId));
    });

  if (done) {
    return (
      <Card title="You're connected" live>
        <p className="text-sm text-slate-700">
          <strong>{data.orchestrator.name}</strong> can now create payment links for you. Payments go straight to your wallet.
        </p>
        <dl className="mt-4 space-y-2 rounded-xl bg-slate-50 p-3 text-sm">
          <Row label="Client ID">
            <span className="break-all font-mono" data-testid="created-client-id">
              {done}
            </span>
          </Row>
          <Row label="Payouts">{currencies.find((c) => c.id === destination?.currency)?.label}</Row>
        </dl>
        <p className="mt-4 text-sm text-slate-600">You can close this page.</p>
      </Card>
    );
  }

  let body: ReactNode;
  if (step === 0) {
    body = (
      <>
        <p className="text-sm text-slate-600">
          Connect the wallet that will receive your payouts. You sign a message to prove it is yours; nothing is sent.
        </p>
        {wallet.notFound ? (
          <Alert as="p" role="alert" tone="warning" className="mt-3">
            TronLink was not found in this browser. Install it and reload this page, or choose an EVM wallet.
          </Alert>
        ) : null}
        <Button block className="mt-4" onClick={wallet.connect} disabled={wallet.connecting}>
          {wallet.connecting ? "Confirm in your wallet…" : wallet.kind === "tron" ? "Connect TronLink" : "Connect wallet"}
        </Button>
        {wallet.connectError ? (
          <p role="alert" className="mt-3 text-sm text-rose-700">
            {wallet.connectError}
          </p>
        ) : null}
      </>
    );
  } else if (step === 1) {
    body = (
      <>
        <p className="text-sm text-slate-600">
          Sign a one-time message in your wallet to sign in. It costs nothing and sends no transaction.
        </p>
        <Button block className="mt-4" onClick={() => void signIn()} disabled={busy}>
          {busy ? "Confirm in your wallet…" : "Sign in with wallet"}
        </Button>
      </>
    );
  } else if (step === 2) {
    body = (
      <>
        <label htmlFor="payout-currency" className="block text-sm font-medium text-slate-900">
          Receive payments in
        </label>
        <select
          id="payout-currency"
          value={currency}
          onChange={(e) => setCurrency(e.target.value)}
          className="mt-1.5 block min-h-11 w-full rounded-xl border border-slate-300 bg-white px-3 text-base text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          {currencies.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
        <p className="mt-3 text-sm text-slate-600">
          Payouts go to the connected wallet:
          <span className="mt-0.5 block break-all font-mono text-[13px] text-slate-900">{address}</span>
        </p>
        <Button block className="mt-4" onClick={() => void saveDestination()} disabled={busy || !currency}>
          {busy ? "Saving…" : "Use this destination"}
        </Button>
      </>
    );
  } else if (step === 3) {
    body = data.kytPlan ? (
      <>
        <p className="text-sm text-slate-700">
          {data.kytPlan.length === 0 ? (
            `${data.orchestrator.name}'s screening plan names no provider this service has right now: payments to you stay pending until it does.`
          ) : (
            <>
              {data.orchestrator.name} screens the wallets that pay you with{" "}
              <strong>{data.kytPlan.map((p) => p.label).join(", then ")}</strong>
              {data.kytPlan.length > 1 ? " (the second only when the first is unavailable)" : ""}. A payment from a wallet the screening
              rejects is not completed.
            </>
          )}
        </p>
        <Button block className="mt-4" onClick={() => setKytDone(true)}>
          Continue
        </Button>
      </>
    ) : (
      <fieldset>
        <legend className="text-sm font-medium text-slate-900">Screen the wallets that pay you with</legend>
        <div className="mt-2 space-y-2">
          {data.kytChoices.map((p) => (
            <label
              key={p.id}
              className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl px-3 py-2 ring-1 ring-slate-200 has-[:checked]:ring-2 has-[:checked]:ring-indigo-600"
            >
              <input
                type="radio"
                name="kyt"
                value={p.id}
                checked={kyt === p.id}
                onChange={() => setKyt(p.id)}
                className="size-4 shrink-0 accent-indigo-600"
              />
              <span className="min-w-0 text-sm">
                <span className="block text-slate-900">{p.label}</span>
                <span className="block text-xs text-slate-500">{p.description}</span>
              </span>
            </label>
          ))}
        </div>
        <Button block className="mt-4" onClick={() => setKytDone(true)}>
          Continue
        </Button>
      </fieldset>
    );
  } else {
    body = (
      <>
        <dl className="space-y-2 rounded-xl bg-slate-50 p-3 text-sm">
          <Row label="Client ID name">{data.clientIdName}</Row>
          <Row label="Payouts">{currencies.find((c) => c.id === destination?.currency)?.label}</Row>
          <Row label="Wallet">
            <span className="break-all font-mono text-[13px]">{address}</span>
          </Row>
          <Row label="Screening">{(data.kytPlan ?? data.kytChoices.filter((p) => p.id === kyt)).map((p) => p.label).join(", then ")}</Row>
          {data.domains.length > 0 ? <Row label="Allowed sites">{data.domains.join(", ")}</Row> : null}
        </dl>
        <div className="mt-4 flex flex-col gap-2 sm:flex-row">
          <Button className="sm:flex-1" onClick={() => void confirm()} disabled={busy}>
            {busy ? "Linking…" : `Confirm and link to ${data.orchestrator.name}`}
          </Button>
          <Button variant="secondary" onClick={() => setKytDone(false)} disabled={busy}>
            Back
          </Button>
        </div>
      </>
    );
  }

  return (
    <Card title={STEPS[step]}>
      <Steps current={step} />
      {isConnected && address ? (
        <div className="mb-4 flex items-center justify-between gap-2 rounded-xl bg-slate-50 px-3 py-2 text-sm">
          <p className="min-w-0 text-slate-500">
            {wallet.name ?? "Wallet"}{" "}
            <span className="block break-all font-mono text-[13px] text-slate-900" data-testid="connected-address">
              {address}
            </span>
          </p>
          <button
            type="button"
            onClick={() => {
              setSignedInAs(null);
              wallet.disconnect();
            }}
            disabled={busy}
            className="rounded-md px-2 py-1 text-sm font-medium text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            Disconnect
          </button>
        </div>
      ) : null}
      {body}
      {error ? (
        <p role="alert" className="mt-3 text-sm text-rose-700">
          {error}
        </p>
      ) : null}
    </Card>
  );
}

function Card({ title, live, children }: { title: string; live?: boolean; children: ReactNode }) {
  return (
    <UiCard aria-labelledby="onboarding-step" aria-live={live ? "polite" : undefined}>
      <h2 id="onboarding-step" className="mb-4 text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </UiCard>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7.5rem_1fr] gap-2">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 text-slate-900 [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}
