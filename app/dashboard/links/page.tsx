import type { Metadata } from "next";
import Link from "next/link";
import { CancelLinkButton } from "@/components/dashboard/cancel-link-button";
import { LinkForm } from "@/components/dashboard/link-form";
import { LinkRow, linkTitle } from "@/components/dashboard/link-row";
import { Pager } from "@/components/dashboard/pager";
import { Panel } from "@/components/dashboard/shell";
import { buttonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { networkName } from "@/lib/chain/networks";
import { nowMs } from "@/lib/clock";
import { findTokenCurrency } from "@/lib/currencies/registry";
import { getActiveDestination } from "@/lib/destinations/destinations";
import { requireUser } from "@/lib/http/page-session";
import { LINK_SEARCH_MAX, LINK_STATUS_FILTERS, type LinkStatusFilter, listAccountLinks } from "@/lib/secure-payments/account-links";
import { cancelLinkAction, createLinkAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Payment links", robots: { index: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const STATUS_LABELS: Record<LinkStatusFilter | "all", string> = {
  all: "All",
  pending: "Pending",
  paid: "Paid",
  expired: "Expired",
  cancelled: "Cancelled",
};

const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);

export default async function LinksPage({ searchParams }: Props) {
  const me = await requireUser("/dashboard/links");
  const raw = await searchParams;
  const status = LINK_STATUS_FILTERS.find((s) => s === one(raw.status));
  const q = one(raw.q)?.trim().slice(0, LINK_SEARCH_MAX) || undefined;
  const page = Number.parseInt(one(raw.page) ?? "1", 10) || 1;
  const [destination, result] = await Promise.all([
    getActiveDestination(me.account.id),
    listAccountLinks(me.account.id, { status, q, page }),
  ]);
  const now = nowMs();
  const href = (p: { status?: LinkStatusFilter; page?: number }) => {
    const params = new URLSearchParams();
    if (p.status) params.set("status", p.status);
    if (q) params.set("q", q);
    if (p.page && p.page > 1) params.set("page", String(p.page));
    const query = params.toString();
    return `/dashboard/links${query ? `?${query}` : ""}`;
  };
  const filtered = Boolean(status || q);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Payment links</h1>
      <Panel title="New payment link">
        {destination ? (
          <LinkForm
            action={createLinkAction}
            currency={`${destination.tokenSymbol} on ${networkName(destination.network)}`}
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
      <Panel title="Your links">
        <div className="mb-3 space-y-3">
          <nav aria-label="Filter by status" className="flex flex-wrap gap-2">
            {(["all", ...LINK_STATUS_FILTERS] as const).map((s) => {
              const active = (status ?? "all") === s;
              return (
                <Link
                  key={s}
                  href={href({ status: s === "all" ? undefined : s })}
                  aria-current={active ? "page" : undefined}
                  className={
                    active
                      ? "rounded-full bg-indigo-600 px-3 py-1 text-sm font-medium text-white"
                      : "rounded-full px-3 py-1 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
                  }
                >
                  {STATUS_LABELS[s]}
                </Link>
              );
            })}
          </nav>
          <form method="get" aria-label="Search links" className="flex flex-wrap items-end gap-2">
            {status ? <input type="hidden" name="status" value={status} /> : null}
            <label className="min-w-0 flex-1 basis-56 text-sm font-medium text-slate-700">
              Search by reference or amount
              <input
                name="q"
                type="search"
                defaultValue={q ?? ""}
                maxLength={LINK_SEARCH_MAX}
                placeholder="INV-1001 or 25.00"
                className={inputClass("sm")}
              />
            </label>
            <button type="submit" className={buttonClass({ variant: "compact" })}>
              Search
            </button>
            {filtered ? (
              <Link
                href="/dashboard/links"
                className="rounded-lg px-3 py-2 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300"
              >
                Clear
              </Link>
            ) : null}
          </form>
        </div>
        <p className="text-sm text-slate-600" data-testid="links-count">
          {result.total === 0
            ? filtered
              ? "No links match."
              : "No links yet."
            : `${result.total} link${result.total === 1 ? "" : "s"}${filtered ? " match" : ""}`}
        </p>
        {result.links.length > 0 ? (
          <ul className="divide-y divide-slate-100 text-sm" data-testid="links">
            {result.links.map((l) => (
              <LinkRow
                key={l.token}
                l={l}
                now={now}
                actions={
                  l.cancelRefusal === null ? (
                    <CancelLinkButton
                      action={cancelLinkAction}
                      token={l.token}
                      what={[linkTitle(l), l.reference].filter(Boolean).join(" · ")}
                    />
                  ) : null
                }
              />
            ))}
          </ul>
        ) : null}
        <Pager page={result.page} pageCount={result.pageCount} href={(p) => href({ status, page: p })} label="Links pages" />
      </Panel>
    </div>
  );
}
