import type { Metadata } from "next";
import Link from "next/link";
import { AuditList } from "@/components/admin/audit-list";
import { Panel } from "@/components/dashboard/shell";
import { formatUtc } from "@/components/shared/format";
import { Alert } from "@/components/ui/alert";
import { requireAdmin } from "@/lib/admin/access";
import { listAdminActions } from "@/lib/admin/audit";
import { type RecurringNetworkHealth, serviceHealth } from "@/lib/admin/health";

type ServiceHealth = Awaited<ReturnType<typeof serviceHealth>>;

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Operations", robots: { index: false } };

const ok = "text-emerald-700";
const warn = "font-medium text-amber-800";

export default async function AdminHealthPage() {
  await requireAdmin("/admin");
  const [h, recent] = await Promise.all([serviceHealth(), listAdminActions(8)]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Health of the background work</h1>
      {h.screening.age.stale ? <StaleScreeningList screening={h.screening} /> : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Payment detection">
          {h.cursors.length === 0 ? (
            <p className="text-sm text-slate-600">No network scanned yet.</p>
          ) : (
            <table className="w-full text-sm" data-testid="cursors">
              <thead className="text-left text-xs text-slate-500">
                <tr>
                  <th className="pb-2 font-medium">Network</th>
                  <th className="pb-2 text-right font-medium">Scanned to</th>
                  <th className="pb-2 text-right font-medium">Behind head</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {h.cursors.map((c) => (
                  <tr key={c.network}>
                    <td className="py-2">{c.network}</td>
                    <td className="py-2 text-right tabular-nums">{c.lastBlock}</td>
                    <td className={`py-2 text-right tabular-nums ${c.lag === null ? warn : c.lag > 50 ? warn : ok}`}>
                      {c.lag === null ? (c.error ?? "unknown") : `${c.lag} block${c.lag === 1 ? "" : "s"}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Panel>
        <Panel title="Webhook deliveries">
          {h.deliveries.length === 0 ? (
            <p className={`text-sm ${ok}`}>Nothing pending or failed.</p>
          ) : (
            <ul className="divide-y divide-slate-100 text-sm" data-testid="delivery-health">
              {h.deliveries.map((d) => (
                <li key={d.id} className="py-2">
                  <span className="block truncate" title={d.url}>
                    {d.url}
                  </span>
                  <span className="text-xs text-slate-500">
                    <Link href={`/admin/accounts/${d.accountId}`} className="text-indigo-700">
                      {d.accountId}
                    </Link>{" "}
                    · {d.pending} pending · <span className={d.failed ? warn : ""}>{d.failed} failed</span>
                    {d.active ? "" : " · endpoint disabled"}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel title="Recurring payouts and expiry">
          <RecurringNetworks networks={h.recurringNetworks} />
          <ul className="mt-3 space-y-1 text-sm">
            {h.recurringPaused.length === 0 ? <li className={ok}>No schedule paused.</li> : null}
            {h.recurringPaused.map((p) => (
              <li key={p.reason} className={warn}>
                {p.count} paused: {p.reason}
              </li>
            ))}
            <li className={h.expirySweep.overdueLinks ? warn : ok} data-testid="expiry-sweep">
              {h.expirySweep.overdueLinks
                ? `${h.expirySweep.overdueLinks} links past expiry for over 5 minutes: is the worker's expiry sweep running?`
                : "Expiry sweep up to date."}
            </li>
          </ul>
        </Panel>
        <Panel title="Screening and rate limits">
          <p className="text-sm" data-testid="screening">
            {h.screening.source}: {h.screening.sanctioned} addresses
            {h.screening.listDate ? `, extracted ${h.screening.listDate}` : ""}; {h.screening.denied} on the operator's deny list.
          </p>
          <p className="mt-3 text-sm font-medium text-slate-700">Blocks in force</p>
          {h.rateLimitBlocks.length === 0 ? (
            <p className={`text-sm ${ok}`}>None.</p>
          ) : (
            <ul className="text-xs text-slate-600" data-testid="blocks">
              {h.rateLimitBlocks.map((b) => (
                <li key={b.key} className="break-all">
                  {b.key} until {formatUtc(b.until)}
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
      <Panel
        title="Recent operator actions"
        action={
          <Link href="/admin/audit" className="text-sm font-medium text-indigo-700">
            All →
          </Link>
        }
      >
        <AuditList entries={recent} />
      </Panel>
    </div>
  );
}

/** "26 hours", "3 days" (from 72 hours on). */
const hoursText = (h: number) => (h >= 72 ? `${Math.floor(h / 24)} days` : `${h} hour${h === 1 ? "" : "s"}`);

/** The screening list is past SCREENING_LIST_MAX_AGE_HOURS (or of unknown age): newly sanctioned wallets are not refused. */
function StaleScreeningList({ screening: s }: { screening: ServiceHealth["screening"] }) {
  return (
    <Alert role="alert" tone="warning" data-testid="screening-stale">
      <p className="font-medium">
        {s.age.ageHours === null
          ? "The screening list has no date: its age is unknown."
          : `The screening list is ${hoursText(s.age.ageHours)} old${s.listDate ? ` (extracted ${s.listDate})` : ""}.`}
      </p>
      <p className="mt-1">
        Wallets sanctioned since then are not refused. Lists older than {hoursText(s.age.maxAgeHours)} raise this warning
        (SCREENING_LIST_MAX_AGE_HOURS). Point KYT_SANCTIONS_DIR at a fresh extract with a SOURCE.md naming its date, and restart.
      </p>
    </Alert>
  );
}

/** The part of a missing item an operator reads first ("a relayer key (RELAYER_PRIVATE_KEY…)" → "relayer key"). */
const short = (missing: string) => missing.replace(/^an? /, "").replace(/ \(.*\)$/, "");

/** "a", "a and b", "a, b and c". */
const listOf = (items: string[]) => (items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

/**
 * Where the recurring executor runs and where it cannot: networks missing the same pieces are
 * grouped; one that still holds live schedules (they are never paid) or unconfirmed on-chain
 * cancels is a warning of its own.
 */
function RecurringNetworks({ networks }: { networks: RecurringNetworkHealth[] }) {
  const running = networks.filter((n) => n.missing.length === 0);
  const idle = networks.filter((n) => n.missing.length > 0);
  const groups = new Map<string, RecurringNetworkHealth[]>();
  for (const n of idle) {
    const key = n.missing.map(short).join(", ");
    groups.set(key, [...(groups.get(key) ?? []), n]);
  }
  const stranded = idle.filter((n) => n.live > 0);
  const cancels = networks.filter((n) => n.cancelsPending > 0);
  return (
    <ul className="space-y-1 text-sm" data-testid="recurring-networks">
      <li className={running.length ? ok : warn}>
        {running.length ? `Executor runs on ${running.map((n) => n.network).join(", ")}.` : "The executor runs on no network."}
      </li>
      {[...groups].map(([missing, group]) => (
        <li key={missing} className="text-slate-600">
          Cannot run (new schedules refused) on {group.map((n) => n.network).join(", ")}: no {missing.replaceAll(", ", ", no ")}.
        </li>
      ))}
      {stranded.map((n) => (
        <li key={`live-${n.network}`} className={warn} data-testid="recurring-stranded">
          {n.live} live schedule{n.live === 1 ? "" : "s"} on {n.network}, which nothing can run: never paid until its{" "}
          {listOf(n.missing.map(short))} {n.missing.length === 1 ? "is" : "are"} configured.
        </li>
      ))}
      {cancels.map((n) => (
        <li key={`cancel-${n.network}`} className={warn} data-testid="recurring-cancels">
          {n.cancelsPending} on-chain cancel{n.cancelsPending === 1 ? "" : "s"} to confirm on {n.network}
          {n.lastCancelError ? ` (last error: ${n.lastCancelError.slice(0, 120)})` : ""}: retried by the sweep.
        </li>
      ))}
    </ul>
  );
}
