"use client";

import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { createContext, type ReactNode, useActionState, useCallback, useContext, useEffect, useState } from "react";
import { formatUtc, groupAmount, shortenAddress } from "@/components/shared/format";
import { useCheckedForm } from "@/components/shared/use-checked-form";
import { Address } from "@/components/ui/address";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { cx } from "@/components/ui/cx";
import { Field } from "@/components/ui/field";
import { checkForm } from "@/lib/forms/form-state";
import { REFUND_FORM_FIELDS, refundFormBody, refundFormMaxLengths, refundFormSchema } from "@/lib/forms/refund-form";
import type { RefundActions, RefundChain, RefundItem, RefundJob, RefundWalletProps } from "./refund-types";

const loading = () => (
  <p role="status" className="text-sm text-slate-600">
    Loading wallet options…
  </p>
);
// wagmi and RainbowKit (or the TronLink adapter) load only when the merchant sends a refund: the dashboard carries no wallet code.
const RefundEvmWallet = dynamic(() => import("./refund-wallet-evm").then((m) => m.RefundEvmWallet), { ssr: false, loading });
const RefundTronWallet = dynamic(() => import("./refund-wallet-tron").then((m) => m.RefundTronWallet), { ssr: false, loading });

/** What the request page knows of its refunds (GET /v2/request/{id}'s refund fields and lib/requests/request-detail's `refunding`). */
export interface RequestRefundsData {
  requestId: string;
  payee: string;
  payer: string | null;
  symbol: string;
  decimals: number;
  /** Decimal strings in the payment currency. */
  received: string;
  refundable: string;
  refunded: string;
  returned: string;
  feeKept: string;
  /** What prepareRefund warns of for an address other than the payer's (shown while it is typed). */
  exchangeWarning: string;
  chain: RefundChain;
  refunds: RefundItem[];
}

const REASON: Record<RefundItem["reason"], string> = {
  requested: "Refund",
  excess: "Overpayment",
  underpaid: "Underpaid link",
  late: "Late payment",
};

/** The badge of a refund's status; the deposit relayer's confirmed ones are "Returned". */
function RefundStatusBadge({ refund }: { refund: RefundItem }) {
  const style = {
    prepared: ["Prepared", "bg-amber-50 text-amber-800 ring-amber-600/30"],
    sent: ["Sent", "bg-sky-50 text-sky-800 ring-sky-600/30"],
    confirmed: [refund.sender === "relayer" ? "Returned" : "Refunded", "bg-emerald-50 text-emerald-800 ring-emerald-600/30"],
    cancelled: [refund.reason === "requested" ? "Cancelled" : "Kept", "bg-slate-100 text-slate-700 ring-slate-500/30"],
  }[refund.status];
  return (
    <span
      data-testid="refund-status"
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${style[1]}`}
    >
      {style[0]}
    </span>
  );
}

const STAGES = [
  { key: "prepared", label: "Prepared" },
  { key: "sent", label: "Sent" },
  { key: "confirmed", label: "Confirmed" },
] as const;

/** prepared → sent → confirmed, the current stage marked (aria-current). */
export function RefundProgress({ status }: { status: "prepared" | "sent" | "confirmed" }) {
  const at = STAGES.findIndex((s) => s.key === status);
  return (
    <ol aria-label="Refund progress" className="flex items-center gap-2 text-xs font-medium" data-testid="refund-progress">
      {STAGES.map((s, i) => {
        const done = i < at || status === "confirmed";
        const current = i === at && status !== "confirmed";
        return (
          <li key={s.key} className="flex items-center gap-2" aria-current={current ? "step" : undefined} data-done={done || undefined}>
            {i > 0 ? <span aria-hidden="true" className={cx("h-px w-4 sm:w-8", i <= at ? "bg-emerald-500" : "bg-slate-300")} /> : null}
            <span
              className={cx(
                "inline-flex items-center gap-1 rounded-full px-2 py-0.5 ring-1 ring-inset",
                done && "bg-emerald-50 text-emerald-800 ring-emerald-600/30",
                current && "bg-indigo-50 text-indigo-800 ring-indigo-600/30",
                !done && !current && "bg-white text-slate-500 ring-slate-300",
              )}
            >
              <span aria-hidden="true">{done ? "✓" : current ? "•" : "○"}</span>
              {s.label}
              <span className="sr-only">{done ? " (done)" : current ? " (in progress)" : " (to come)"}</span>
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** A transaction: the explorer's page where one knows the chain, else the hash itself (the devnet). */
function TxLink({ hash, url }: { hash: string; url: string | null }) {
  if (url)
    return (
      <a
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        title={hash}
        className="text-indigo-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        View transaction {shortenAddress(hash, 10)}
        <span className="sr-only"> (opens the block explorer in a new tab)</span>
      </a>
    );
  return (
    <span>
      <span className="text-slate-500">Transaction </span>
      <Address value={hash} className="font-mono text-xs text-slate-600" />
    </span>
  );
}

const explorerOf = (chain: RefundChain, refund: Pick<RefundItem, "txHash" | "explorer">) =>
  refund.txHash && chain.explorerTxUrl ? `${chain.explorerTxUrl}${refund.txHash}` : null;

/** The refund form: how much (default everything refundable) and where to (default the payer), then prepare it. */
function RefundForm({
  data,
  actions,
  onPrepared,
}: {
  data: RequestRefundsData;
  actions: RefundActions;
  onPrepared: (job: RefundJob) => void;
}) {
  const schema = refundFormSchema(data.decimals);
  const max = refundFormMaxLengths(data.decimals);
  const form = useCheckedForm({
    action: actions.prepare,
    initial: { amount: data.refundable, to: data.payer ?? "" },
    check: (v) => checkForm(schema, refundFormBody(v), REFUND_FORM_FIELDS),
  });
  const { state, values } = form;
  useEffect(() => {
    if (state.prepared)
      onPrepared({ refundId: state.prepared.refundId, amount: state.prepared.amount, toAddress: state.prepared.toAddress });
  }, [state.prepared, onPrepared]);
  const to = values.to?.trim() ?? "";
  const elsewhere = to !== "" && (!data.payer || to.toLowerCase() !== data.payer.toLowerCase());
  return (
    <form ref={form.formRef} action={form.formAction} onSubmit={form.onSubmit} noValidate className="space-y-4" aria-label="New refund">
      <input type="hidden" name="requestId" value={data.requestId} />
      <div className="grid gap-4 sm:grid-cols-[12rem_minmax(0,1fr)]">
        <Field
          id="refund-amount"
          label={`Amount (${data.symbol})`}
          hint={`Up to ${groupAmount(data.refundable)}`}
          inputMode="decimal"
          autoComplete="off"
          maxLength={max.amount}
          {...form.field("amount")}
        />
        <Field
          id="refund-to"
          label="Refund to"
          hint={data.payer ? "The payer's address, from the payment" : "The address the payer wants the money back at"}
          autoComplete="off"
          spellCheck={false}
          maxLength={max.to}
          className="font-mono"
          {...form.field("to")}
        />
      </div>
      {elsewhere ? (
        <Alert as="p" tone="warning" data-testid="refund-to-warning">
          {data.payer ? "This is not the address the payment came from. " : ""}
          {data.exchangeWarning}
        </Alert>
      ) : null}
      <p className="text-sm text-slate-600" data-testid="refund-fee-note">
        {data.feeKept !== "0" ? (
          <>
            The fee of{" "}
            <strong className="font-semibold tabular-nums text-slate-900">
              {groupAmount(data.feeKept)} {data.symbol}
            </strong>{" "}
            stays with the fee address: a refund returns what you received, not the fee.{" "}
          </>
        ) : null}
        You send the refund from your wallet, and pay its network fee.
      </p>
      {form.formError ? (
        <Alert as="p" role="alert">
          {form.formError}
        </Alert>
      ) : null}
      <Button type="submit" variant="compact" disabled={form.pending}>
        {form.pending ? "Preparing…" : "Prepare refund"}
      </Button>
    </form>
  );
}

/** Withdraw a refund that has not reached the chain, after a dialog that says what happens. */
function CancelRefundButton({
  requestId,
  refund,
  symbol,
  action,
}: {
  requestId: string;
  refund: RefundItem;
  symbol: string;
  action: RefundActions["cancel"];
}) {
  const [state, formAction, pending] = useActionState(action, { error: null });
  return (
    <form action={formAction} className="contents">
      <input type="hidden" name="requestId" value={requestId} />
      <input type="hidden" name="refundId" value={refund.id} />
      <ConfirmButton
        title={`Cancel the refund of ${groupAmount(refund.amount)} ${symbol}?`}
        consequence={
          refund.status === "sent" ? (
            <p>
              Only when its transaction failed or was dropped: its amount can then be refunded again. If the transaction lands after all,
              Duebill still records the refund.
            </p>
          ) : (
            <p>Nothing has been sent for it: its amount can be refunded again later.</p>
          )
        }
        confirmLabel="Cancel refund"
        disabled={pending}
      >
        {pending ? "Cancelling…" : "Cancel"}
      </ConfirmButton>
      {state.error ? (
        <p role="alert" className="basis-full text-xs text-rose-700">
          {state.error}
        </p>
      ) : null}
    </form>
  );
}

/** A refund Duebill offers (an overpayment's excess, an underpaid or late payment): one click to send it, or keep the money. */
function OfferCard({
  data,
  offer,
  busy,
  onRefund,
  actions,
}: {
  data: RequestRefundsData;
  offer: RefundItem;
  busy: boolean;
  onRefund: () => void;
  actions: RefundActions;
}) {
  const [state, formAction, pending] = useActionState(actions.cancel, { error: null });
  const money = `${groupAmount(offer.amount)} ${data.symbol}`;
  const title = {
    requested: `A refund of ${money} is ready to send`,
    excess: `The payer overpaid by ${money}`,
    underpaid: `The link expired before it was fully paid: ${money} can go back to the payer`,
    late: `A payment of ${money} arrived after its link expired`,
  }[offer.reason];
  return (
    <Card tone="sky" padding="tight" aria-label="Refund offered" data-testid="refund-offer">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 space-y-1">
          <h2 className="text-base font-semibold text-slate-900">{title}</h2>
          <p className="text-sm text-slate-600">
            Send it back to <Address value={offer.toAddress} className="font-mono text-xs text-slate-900" /> from your wallet, or keep it.
          </p>
        </div>
        <form action={formAction} className="flex w-full flex-wrap gap-2 sm:w-auto">
          <input type="hidden" name="requestId" value={data.requestId} />
          <input type="hidden" name="refundId" value={offer.id} />
          <Button variant="compact" className="grow sm:grow-0" disabled={busy || pending} onClick={onRefund}>
            Refund {money}
          </Button>
          <button
            type="submit"
            disabled={busy || pending}
            className="grow rounded-lg px-4 py-2 text-sm font-semibold text-slate-900 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:opacity-60 sm:grow-0"
          >
            {pending ? "Keeping…" : "Keep it"}
          </button>
        </form>
      </div>
      {state.error ? (
        <Alert as="p" role="alert" className="mt-3">
          {state.error}
        </Alert>
      ) : null}
    </Card>
  );
}

/** The wallet part of the request's chain: TronLink for Tron, RainbowKit for EVM networks. */
function RefundWallet({ wallet }: { wallet: RefundWalletProps }) {
  return wallet.chain.kind === "tron" ? <RefundTronWallet {...wallet} /> : <RefundEvmWallet {...wallet} />;
}

/** The refund being sent: where it stands (prepared → sent → confirmed), the wallet until it is sent, the outcome. */
function JobCard({
  data,
  job,
  refund,
  actions,
  onSent,
  onDone,
}: {
  data: RequestRefundsData;
  job: RefundJob;
  refund: RefundItem | undefined;
  actions: RefundActions;
  onSent: (hash: string) => void;
  onDone: () => void;
}) {
  // The wallet's report comes before the page's data says sent.
  const status = refund?.status === "prepared" && job.txHash ? "sent" : (refund?.status ?? "prepared");
  const money = `${groupAmount(job.amount)} ${data.symbol}`;
  const txHash = refund?.txHash ?? job.txHash ?? null;
  const wallet: RefundWalletProps = {
    requestId: data.requestId,
    job,
    payee: data.payee,
    symbol: data.symbol,
    chain: data.chain,
    actions,
    onSent,
  };
  return (
    <div className="space-y-3" data-testid="refund-job">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-900">
          <strong className="font-semibold">Refund of {money}</strong> to <Address value={job.toAddress} className="font-mono text-xs" />
        </p>
        {status === "cancelled" ? null : <RefundProgress status={status} />}
      </div>
      {refund?.warning && status === "prepared" ? (
        <Alert as="p" tone="warning">
          {refund.warning}
        </Alert>
      ) : null}
      {status === "confirmed" ? (
        <Alert tone="success" role="status" className="space-y-2">
          <p>
            <strong className="font-semibold">{money} refunded.</strong> Duebill saw the transfer on chain
            {refund?.confirmedAt ? ` (${formatUtc(refund.confirmedAt)})` : ""} and sent the payment.refunded event to your webhooks.
          </p>
          {txHash ? (
            <p className="text-xs">
              <TxLink hash={txHash} url={explorerOf(data.chain, { txHash, explorer: null })} />
            </p>
          ) : null}
          <Button variant="compact" onClick={onDone}>
            Done
          </Button>
        </Alert>
      ) : status === "cancelled" ? (
        <Alert as="p" role="status" tone="warning">
          This refund was cancelled.{" "}
          <button type="button" className="font-semibold underline underline-offset-2" onClick={onDone}>
            Close
          </button>
        </Alert>
      ) : (
        <RefundWallet wallet={wallet} />
      )}
    </div>
  );
}

/** One refund in the request's list: amount, status, why, where to, its transaction, and what can be done with it. */
function RefundRow({
  data,
  refund,
  busy,
  onSend,
  actions,
}: {
  data: RequestRefundsData;
  refund: RefundItem;
  busy: boolean;
  onSend: () => void;
  actions: RefundActions;
}) {
  const when = refund.confirmedAt ?? refund.sentAt ?? refund.cancelledAt ?? refund.createdAt;
  return (
    <li
      className="grid gap-2 py-3 sm:grid-cols-[10rem_minmax(0,1fr)_auto] sm:items-start sm:gap-4"
      data-testid="refund"
      data-status={refund.status}
    >
      <span className="flex flex-wrap items-center gap-2">
        <span className="font-semibold tabular-nums text-slate-900">
          {groupAmount(refund.amount)} {data.symbol}
        </span>
        <RefundStatusBadge refund={refund} />
      </span>
      <span className="min-w-0 space-y-0.5 text-xs text-slate-500">
        <span className="block">
          {REASON[refund.reason]}
          {refund.sender === "relayer" ? " · returned from the deposit address by Duebill" : ""} · {formatUtc(when)}
        </span>
        <span className="block">
          to <Address value={refund.toAddress} className="font-mono text-xs text-slate-700" />
        </span>
        {refund.txHash ? (
          <span className="block">
            <TxLink hash={refund.txHash} url={explorerOf(data.chain, refund)} />
          </span>
        ) : null}
      </span>
      {(refund.status === "prepared" || refund.status === "sent") && refund.sender === "payee" ? (
        <span className="flex flex-wrap gap-2">
          {refund.status === "prepared" ? (
            <button
              type="button"
              disabled={busy}
              onClick={onSend}
              className="rounded-md px-2 py-1 text-xs font-medium text-indigo-700 ring-1 ring-inset ring-indigo-200 hover:bg-indigo-50 disabled:opacity-60"
            >
              Send
            </button>
          ) : null}
          <CancelRefundButton requestId={data.requestId} refund={refund} symbol={data.symbol} action={actions.cancel} />
        </span>
      ) : null}
    </li>
  );
}

const isOffer = (r: RefundItem) => r.status === "prepared" && r.sender === "payee" && r.reason !== "requested";

interface RefundsContextValue {
  data: RequestRefundsData;
  actions: RefundActions;
  /** The refund being sent, and where its card is: in place of the offer it came from (top) or in the Refunds panel. */
  job: (RefundJob & { at: "top" | "panel" }) | null;
  start: (refund: RefundItem, at: "top" | "panel") => void;
  onPrepared: (job: RefundJob) => void;
  card: ReactNode;
  /** Bumped when a sent refund is done with: the form starts again from what can still be refunded. */
  round: number;
}

const RefundsContext = createContext<RefundsContextValue | null>(null);

/**
 * The request page's refunds (issue 28, item 4), shared by the offers at the top of the page and the
 * Refunds panel below: one refund is sent at a time, from the payee's wallet, and while one is on
 * its way the page refreshes itself until detection confirms it (the server's data is the truth).
 */
export function RefundsProvider({ data, actions, children }: { data: RequestRefundsData; actions: RefundActions; children: ReactNode }) {
  const router = useRouter();
  const [job, setJob] = useState<RefundsContextValue["job"]>(null);
  const [round, setRound] = useState(0);
  const jobRefund = job ? data.refunds.find((r) => r.id === job.refundId) : undefined;

  const waiting = data.refunds.some((r) => r.status === "sent") || Boolean(job?.txHash && jobRefund?.status === "prepared");
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => router.refresh(), 2_000);
    return () => clearInterval(timer);
  }, [waiting, router]);

  const onPrepared = useCallback((prepared: RefundJob) => {
    setJob((j) => (j?.refundId === prepared.refundId ? j : { ...prepared, at: "panel" }));
  }, []);
  const onSent = useCallback(
    (txHash: string) => {
      setJob((j) => (j ? { ...j, txHash } : j));
      router.refresh();
    },
    [router],
  );
  const start = useCallback(
    (r: RefundItem, at: "top" | "panel") => setJob({ refundId: r.id, amount: r.amount, toAddress: r.toAddress, at }),
    [],
  );
  const card = job ? (
    <JobCard
      data={data}
      job={job}
      refund={jobRefund}
      actions={actions}
      onSent={onSent}
      onDone={() => {
        setJob(null);
        setRound((r) => r + 1);
      }}
    />
  ) : null;
  return <RefundsContext value={{ data, actions, job, start, onPrepared, card, round }}>{children}</RefundsContext>;
}

/** At the top of the page: each refund Duebill offers (one click to send, or keep the money), and the one being sent from there. */
export function RefundOffers() {
  const ctx = useContext(RefundsContext);
  if (!ctx) return null;
  const { data, actions, job, start, card } = ctx;
  const offers = data.refunds.filter((r) => isOffer(r) && r.id !== job?.refundId);
  return (
    <>
      {offers.map((offer) => (
        <OfferCard key={offer.id} data={data} offer={offer} busy={job !== null} onRefund={() => start(offer, "top")} actions={actions} />
      ))}
      {job?.at === "top" ? (
        <Card tone="sky" padding="tight" aria-label="Refund in progress">
          {card}
        </Card>
      ) : null}
    </>
  );
}

/** The Refunds panel's content: the request's refund totals, the form (or the refund being sent), and every refund. */
export function RefundsPanelBody() {
  const ctx = useContext(RefundsContext);
  if (!ctx) return null;
  const { data, actions, job, start, onPrepared, card, round } = ctx;
  const listed = data.refunds.filter((r) => !isOffer(r));
  const canRefund = data.refundable !== "0";
  const totals: [string, string][] = [
    ["Received", data.received],
    ["Refunded", data.refunded],
    ...(data.returned !== "0" ? ([["Returned by Duebill", data.returned]] as [string, string][]) : []),
    ["Can still be refunded", data.refundable],
  ];
  return (
    <div className="space-y-5">
      <dl
        className={cx("grid gap-2 text-sm sm:gap-3", totals.length === 4 ? "sm:grid-cols-4" : "sm:grid-cols-3")}
        data-testid="refund-totals"
      >
        {totals.map(([label, value]) => (
          <div key={label} className="flex items-baseline justify-between gap-3 rounded-xl bg-slate-50 px-3 py-2 sm:block">
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className="font-semibold tabular-nums text-slate-900">
              {groupAmount(value)} {data.symbol}
            </dd>
          </div>
        ))}
      </dl>
      {job?.at === "panel" ? (
        card
      ) : canRefund ? (
        // Not keyed by the refundable amount: the answer that prepared a refund arrives with the page's new data.
        <RefundForm key={round} data={data} actions={actions} onPrepared={onPrepared} />
      ) : (
        <p className="text-sm text-slate-600">Everything the payer paid has been refunded or is on its way back.</p>
      )}
      {listed.length > 0 ? (
        <div>
          <h3 className="text-sm font-semibold text-slate-900">History</h3>
          <ul className="divide-y divide-slate-100 text-sm" data-testid="refunds">
            {[...listed].reverse().map((r) => (
              <RefundRow key={r.id} data={data} refund={r} busy={job !== null} onSend={() => start(r, "panel")} actions={actions} />
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
