/**
 * Formatting shared by the pages (pay, dashboard, admin): amounts, addresses and times. Amounts
 * stay decimal strings end to end (never JS numbers): grouping is done on the string.
 */

/** Display grouping: "1234567.5" → "1,234,567.5" without going through a float (lib/money formatAmount turns base units into the decimal string). */
export function groupAmount(amount: string): string {
  const [whole = "0", fraction] = amount.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return fraction ? `${grouped}.${fraction}` : grouped;
}

/** "0x1234…cdef" for narrow places; the full value goes in a title or next to it. */
export function shortenAddress(address: string, chars = 6): string {
  return address.length <= chars * 2 + 2 ? address : `${address.slice(0, chars)}…${address.slice(-4)}`;
}

const UTC_FORMAT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/** "23 Nov 2026, 14:56 UTC". */
export function formatUtc(iso: string): string {
  return `${UTC_FORMAT.format(new Date(iso))} UTC`;
}

const RELATIVE = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

/** "in 6 days", "2 hours ago", relative to `now` (the server's render time). */
export function formatRelative(iso: string, now: number): string {
  const diff = new Date(iso).getTime() - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return RELATIVE.format(Math.round(diff / ms), unit);
  }
  return diff >= 0 ? "in less than a minute" : "less than a minute ago";
}
