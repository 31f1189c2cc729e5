import type { Metadata } from "next";
import Link from "next/link";
import { VolumeList } from "@/components/admin/volume-list";
import { Pager } from "@/components/dashboard/pager";
import { Panel } from "@/components/dashboard/shell";
import { formatUtc } from "@/components/shared/format";
import { Alert } from "@/components/ui/alert";
import { buttonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { requireAdmin } from "@/lib/admin/access";
import { type AccountPage, incomingVolume, MAX_QUERY_LENGTH, searchAccounts } from "@/lib/admin/account-search";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Accounts", robots: { index: false } };

type Params = { q?: string | string[]; after?: string | string[]; before?: string | string[] };
const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);

function pageHref(q: string, cursor: Record<string, string>) {
  const params = new URLSearchParams({ ...(q ? { q } : {}), ...cursor });
  const s = params.toString();
  return `/admin/accounts${s ? `?${s}` : ""}`;
}

export default async function AccountsPage({ searchParams }: { searchParams: Promise<Params> }) {
  const params = await searchParams;
  await requireAdmin("/admin/accounts");
  const q = (one(params.q) ?? "").trim();
  let page: AccountPage;
  let error: string | null = null;
  try {
    page = await searchAccounts({ q, after: one(params.after), before: one(params.before) });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    error = `Search ${err.errors?.[0]?.message ?? err.message}`;
    page = { accounts: [], total: 0, next: null, prev: null };
  }
  const volume = await incomingVolume(page.accounts.map((a) => a.id));
  const title = q
    ? `${page.total} account${page.total === 1 ? "" : "s"} matching “${q}”`
    : `${page.total} account${page.total === 1 ? "" : "s"}`;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Accounts</h1>
      <search>
        <form method="get" className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <label className="min-w-0 flex-1 text-sm font-medium text-slate-700">
            Search accounts
            <input
              name="q"
              type="search"
              defaultValue={q}
              maxLength={MAX_QUERY_LENGTH}
              placeholder="Name, email, wallet or account ID"
              className={inputClass("sm")}
            />
            <span className="mt-1 block text-xs font-normal text-slate-500">
              Matches the start of a name, sign-in email or wallet address, or a whole account ID.
            </span>
          </label>
          <div className="flex gap-2 sm:mb-5">
            <button type="submit" className={buttonClass({ variant: "compact" })}>
              Search
            </button>
            {q ? (
              <Link href="/admin/accounts" className="self-center px-2 text-sm font-medium text-indigo-700">
                Clear
              </Link>
            ) : null}
          </div>
        </form>
      </search>
      {error ? (
        <Alert as="p" role="alert">
          {error}
        </Alert>
      ) : null}
      <Panel title={title}>
        {page.accounts.length === 0 ? (
          <p className="text-sm text-slate-600">{q ? "No account matches." : "No account on this page."}</p>
        ) : null}
        <ul className="divide-y divide-slate-100 text-sm" data-testid="accounts">
          {page.accounts.map((a) => (
            <li key={a.id} className="grid gap-1 py-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,16rem)] sm:gap-4" data-testid="account-row">
              <span className="min-w-0">
                <Link
                  href={`/admin/accounts/${a.id}`}
                  className="font-medium text-indigo-700 underline-offset-2 [overflow-wrap:anywhere] hover:underline"
                >
                  {a.name}
                </Link>
                <span className="block truncate text-xs text-slate-500">
                  {a.id} · {a.users.map((u) => u.email ?? u.walletAddress).join(", ") || "no users"}
                </span>
                <span className="block text-xs text-slate-500">
                  {a._count.apiKeys} API keys · {a._count.clientIds} client IDs · {a._count.orchestratorKeys} orchestrator keys ·{" "}
                  {a._count.requests} requests · since {formatUtc(a.createdAt.toISOString())}
                </span>
              </span>
              <VolumeList lines={volume.get(a.id) ?? []} compact />
            </li>
          ))}
        </ul>
        <Pager
          label="Pages"
          prevHref={page.prev ? pageHref(q, { before: page.prev }) : null}
          nextHref={page.next ? pageHref(q, { after: page.next }) : null}
        />
      </Panel>
    </div>
  );
}
