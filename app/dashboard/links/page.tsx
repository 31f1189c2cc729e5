import type { Metadata } from "next";
import { LinkForm } from "@/components/dashboard/link-form";
import { Panel } from "@/components/dashboard/shell";
import { formatUtc } from "@/components/shared/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { findTokenCurrency } from "@/lib/currencies/registry";
import { getActiveDestination } from "@/lib/destinations/destinations";
import { requireUser } from "@/lib/http/page-session";
import { listAccountLinks } from "@/lib/secure-payments/account-links";
import { createLinkAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Payment links", robots: { index: false } };

export default async function LinksPage() {
  const me = await requireUser("/dashboard/links");
  const [destination, links] = await Promise.all([getActiveDestination(me.account.id), listAccountLinks(me.account.id)]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Payment links</h1>
      <Panel title="New payment link">
        {destination ? (
          <LinkForm
            action={createLinkAction}
            currency={`${destination.tokenSymbol} on ${destination.network}`}
            decimals={findTokenCurrency(`${destination.tokenSymbol}-${destination.network}`)?.token.decimals}
          />
        ) : (
          <p className="text-sm text-slate-600">
            <a href="/dashboard/settings" className="text-indigo-700 underline">
              First connect the wallet you get paid to, in Settings.
            </a>
          </p>
        )}
      </Panel>
      <Panel title="Recent links">
        {links.length === 0 ? (
          <p className="text-sm text-slate-600">No links yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {links.map((l) => (
              <li key={l.token} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2" data-testid="link-row">
                <a href={`/pay/${l.token}`} className="font-medium text-indigo-700 underline-offset-2 hover:underline">
                  {l.paymentType === "multicall"
                    ? `Multicall of ${l.multicallPayouts} payouts`
                    : l.first
                      ? `${l.first.amount} ${l.first.paymentCurrency.split("-")[0]}`
                      : l.token}
                  {l.requestCount > 1 ? ` + ${l.requestCount - 1} more` : ""}
                </a>
                <span className="text-slate-600">{l.reference ?? l.description ?? ""}</span>
                <span className="text-slate-500">{formatUtc(l.createdAt.toISOString())}</span>
                {l.feeShort ? (
                  <StatusBadge status={l.status} pending="fee_short" />
                ) : l.status === "pending" && l.submittedTxHash ? (
                  <span
                    className="inline-flex items-center rounded-full bg-sky-50 px-2.5 py-0.5 text-xs font-medium text-sky-800 ring-1 ring-inset ring-sky-200"
                    title={`Transaction ${l.submittedTxHash} sent by the payer; waiting for its confirmation`}
                  >
                    Processing
                  </span>
                ) : (
                  <StatusBadge status={l.status} />
                )}
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
