import { isNetworkId } from "@/lib/chain/networks";
import { invalidField } from "@/lib/errors";
import { type ExportKind, STATUSES_OF } from "@/lib/exports/columns";

/** The query of an export as the API and the dashboard receive it (strings, all optional). */
export interface ExportQuery {
  from?: string;
  to?: string;
  network?: string;
  currency?: string;
  status?: string;
}

/** Checked filters: `from` inclusive, `to` exclusive, `currency` an invoice or a payment currency ID. */
export interface ExportFilters {
  from: Date | null;
  to: Date | null;
  network: string | null;
  currency: string | null;
  status: string | null;
}

/** A calendar date (midnight UTC) or a date-time with Z or an offset, seconds and milliseconds optional. */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

export function isoDateOf(value: string | undefined, field: string): Date | null {
  if (value === undefined || value === "") return null;
  const m = ISO.exec(value);
  const [y, mo, d, h, mi, sec] = (m ?? []).slice(1, 7).map((v) => Number(v ?? 0));
  // Date would roll 2026-02-30 over to March: the calendar day must survive a round trip.
  const day = new Date(Date.UTC(y!, mo! - 1, d!));
  const valid =
    m !== null && day.getUTCFullYear() === y && day.getUTCMonth() === mo! - 1 && day.getUTCDate() === d && h! < 24 && mi! < 60 && sec! < 60;
  const date = valid ? new Date(m[4] === undefined ? `${value}T00:00:00Z` : value) : null;
  if (!date || Number.isNaN(date.getTime()))
    throw invalidField(field, "must be an ISO 8601 date (2026-11-01) or date-time with Z or an offset (2026-11-01T09:30:00Z)");
  return date;
}

/** A currency ID as the registry spells it: USD, EUR, USDC-base, USDT-arbitrum-one (compared without case). */
const CURRENCY = /^[A-Za-z0-9.]{1,20}(-[A-Za-z0-9-]{1,40})?$/;

export function parseExportFilters(kind: ExportKind, q: ExportQuery): ExportFilters {
  const from = isoDateOf(q.from, "from");
  const to = isoDateOf(q.to, "to");
  if (from && to && to <= from) throw invalidField("to", "must be after from (from is inclusive, to exclusive)");
  if (q.network && !isNetworkId(q.network)) throw invalidField("network", `Unknown network "${q.network}"`);
  if (q.currency && !CURRENCY.test(q.currency)) throw invalidField("currency", "must be a currency ID such as USD or USDC-base");
  const statuses = STATUSES_OF[kind];
  if (q.status && !statuses.includes(q.status)) throw invalidField("status", `must be one of ${statuses.join(", ")} for ${kind}`);
  return { from, to, network: q.network || null, currency: q.currency || null, status: q.status || null };
}

/** `duebill-<kind>-<from>-<to>.<ext>`: the dates as given (their calendar day), `start`/`now` when open. */
export function exportFilename(kind: ExportKind, q: ExportQuery, ext: string, now: Date): string {
  const day = (v: string | undefined) => (v ? v.slice(0, 10) : null);
  return `duebill-${kind}-${day(q.from) ?? "start"}-${day(q.to) ?? now.toISOString().slice(0, 10)}.${ext}`;
}
