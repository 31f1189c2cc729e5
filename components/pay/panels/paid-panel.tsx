import { explorerTxUrl, safeHttpUrl } from "@/components/pay/lib/format";
import { formatUtc } from "@/components/shared/format";
import { Address } from "@/components/ui/address";
import { ButtonLink } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

export interface PaidPanelProps {
  payerAddress: string | null;
  txHash: string | null;
  /** The network's explorer prefix (`PaymentPageData.network.explorerTxUrl`). */
  explorerPrefix: string;
  completedAt: string | null;
  /** The signed receipt's page (/receipts/{id}), once issued. */
  receiptUrl?: string | null;
  redirectUrl: string | null;
  redirectLabel: string | null;
}

export function RedirectButton({ url, label }: { url: string | null; label: string | null }) {
  const href = safeHttpUrl(url);
  if (!href) return null;
  // noreferrer: the page URL carries the link's token, which must not leak to the integrator's site.
  return (
    <ButtonLink href={href} rel="noopener noreferrer">
      {label || "Continue"}
    </ButtonLink>
  );
}

/** The paid state: rendered by the server for completed links and by the pay panels after detection. */
export function PaidPanel(props: PaidPanelProps) {
  const txUrl = props.txHash ? explorerTxUrl(props.explorerPrefix, props.txHash) : null;
  return (
    <Card aria-labelledby="paid-heading" tone="emerald">
      <div className="flex items-center gap-3">
        <span
          aria-hidden="true"
          className="flex size-9 shrink-0 items-center justify-center rounded-full bg-emerald-100 text-lg text-emerald-700"
        >
          ✓
        </span>
        <h2 id="paid-heading" className="text-xl font-semibold text-slate-900">
          Payment complete
        </h2>
      </div>
      <p className="mt-2 text-sm text-slate-600">The payment was received and confirmed on chain. You can close this page.</p>
      <dl className="mt-4 space-y-3 text-sm">
        {props.payerAddress ? (
          <div>
            <dt className="font-medium text-slate-500">Paid from</dt>
            <dd className="text-slate-900">
              <Address value={props.payerAddress} />
            </dd>
          </div>
        ) : null}
        {props.txHash ? (
          <div>
            <dt className="font-medium text-slate-500">Transaction</dt>
            <dd className="font-mono text-[13px]">
              {txUrl ? (
                <a
                  href={txUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="rounded text-indigo-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  <Address value={props.txHash} className="" />
                  <span className="sr-only"> (opens the block explorer in a new tab)</span>
                </a>
              ) : (
                <Address value={props.txHash} className="" />
              )}
            </dd>
          </div>
        ) : null}
        {props.completedAt ? (
          <div>
            <dt className="font-medium text-slate-500">Completed</dt>
            <dd>
              <time dateTime={props.completedAt}>{formatUtc(props.completedAt)}</time>
            </dd>
          </div>
        ) : null}
      </dl>
      {safeHttpUrl(props.receiptUrl ?? null) || safeHttpUrl(props.redirectUrl) ? (
        <div className="mt-5 flex flex-wrap gap-3">
          {safeHttpUrl(props.receiptUrl ?? null) ? (
            <ButtonLink href={safeHttpUrl(props.receiptUrl ?? null)!} variant="secondary">
              Download receipt
            </ButtonLink>
          ) : null}
          <RedirectButton url={props.redirectUrl} label={props.redirectLabel} />
        </div>
      ) : null}
    </Card>
  );
}
