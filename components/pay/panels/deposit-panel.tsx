"use client";

import { useEffect, useState } from "react";
import { useLiveLink, useWatchLink } from "@/components/pay/hooks/live-link";
import { fetchDeposit } from "@/components/pay/lib/api";
import { depositProgress, qrDataUri } from "@/components/pay/lib/deposit";
import { Address } from "@/components/ui/address";
import { Alert } from "@/components/ui/alert";
import { Button, ButtonLink } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import type { Checkout, LinkDepositAnswer } from "@/lib/operations/checkout-schemas";

const POLL_MS = 3_000;

/**
 * The request's deposit address: QR code (EIP-681), exact amount, address, and live progress until
 * the link is paid (the page's live view then shows the outcome in place of every panel).
 * `leading`: the first way to pay offered (no wallet in this browser): the wallet-app link is the main button.
 */
export function DepositPanel({ data, leading = false }: { data: Checkout; leading?: boolean }) {
  const live = useLiveLink();
  const dispatch = live?.dispatch;
  const [deposit, setDeposit] = useState<LinkDepositAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  useWatchLink(deposit !== null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the "Try again" trigger, on purpose
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const answer = await fetchDeposit(data.token, controller.signal);
        setDeposit(answer);
        dispatch?.({ type: "deposit", received: answer.received, remaining: answer.remaining });
        setError(null);
        timer = setTimeout(load, POLL_MS);
      } catch (err) {
        if (controller.signal.aborted) return;
        setError(err instanceof Error ? err.message : "Could not get the deposit address.");
      }
    };
    void load();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [data.token, attempt, dispatch]);

  if (error && !deposit) {
    return (
      <Alert role="alert" className="mt-4">
        <p>{error}</p>
        <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)} className="mt-3">
          Try again
        </Button>
      </Alert>
    );
  }
  if (!deposit) {
    return (
      <p role="status" className="mt-4 text-sm text-slate-600">
        Preparing this payment&apos;s deposit address… (a few seconds: it is created on {data.network.name})
      </p>
    );
  }
  // Once the whole amount arrived, the address emptying again is its forwarding, not a missing transfer.
  const state = depositProgress(deposit, data.merchant?.name ?? "the recipient", live?.state.transfer === "full");
  const qr = qrDataUri(deposit.qrSvg);
  return (
    <div className="mt-4 space-y-4" data-testid="deposit-panel">
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        {/* biome-ignore lint/performance/noImgElement: an inline SVG data URI, nothing for next/image to optimise */}
        <img
          src={qr}
          width={176}
          height={176}
          alt={`QR code: send ${deposit.amount} ${deposit.token.symbol} on ${deposit.network.name} to ${deposit.address}`}
          className="size-44 shrink-0 rounded-lg ring-1 ring-slate-200"
        />
        <dl className="w-full min-w-0 space-y-3 text-sm">
          <div>
            <dt className="font-medium text-slate-500">Send exactly</dt>
            <dd className="mt-0.5 flex items-center justify-between gap-2">
              <span className="text-lg font-semibold text-slate-900" data-testid="deposit-amount">
                {deposit.amount} {deposit.token.symbol}
              </span>
              <CopyButton text={deposit.amount} name="Copy amount" />
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-500">On</dt>
            <dd className="mt-0.5 text-slate-900">
              {deposit.network.name} <span className="text-slate-500">(chain ID {deposit.network.chainId})</span>
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-500">
              Send to <span className="font-normal">(this payment&apos;s own address)</span>
            </dt>
            <dd className="mt-0.5 flex items-start justify-between gap-2">
              <span className="min-w-0 text-slate-900" data-testid="deposit-address" data-send-to="">
                <Address value={deposit.address} />
              </span>
              <CopyButton text={deposit.address} name="Copy address" />
            </dd>
          </div>
        </dl>
      </div>
      <Alert as="p" tone="warning">
        Send only {deposit.token.symbol} ({deposit.token.address.slice(0, 6)}…{deposit.token.address.slice(-4)}) on {deposit.network.name}.
        This address belongs to this payment only; it forwards what it receives to the merchant with the payment&apos;s reference.
      </Alert>
      <ButtonLink
        variant={leading ? "primary" : "secondary"}
        block
        href={deposit.uri}
        aria-label={`Open in a wallet app: send ${deposit.amount} ${deposit.token.symbol}`}
      >
        Open in a wallet app
      </ButtonLink>
      <p
        role="status"
        aria-live="polite"
        data-testid="deposit-status"
        className={`text-sm ${state.tone === "done" ? "font-medium text-emerald-800" : state.tone === "part" ? "text-amber-900" : "text-slate-600"}`}
      >
        {state.text}
      </p>
    </div>
  );
}
