/** Formatting for print: pure functions of their input (no clock, no locale of the machine). */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "1234567.5" → "1,234,567.5" (the digits as given: no rounding, no padding). */
export function groupDecimal(value: string): string {
  const negative = value.startsWith("-");
  const [whole = "0", frac] = (negative ? value.slice(1) : value).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}${grouped}${frac !== undefined ? `.${frac}` : ""}`;
}

/** An amount for a money column: at least two decimals ("63.3" → "63.30", "1.3625" as is), grouped. */
export function amountText(value: string): string {
  const [whole = "0", frac = ""] = value.split(".");
  return groupDecimal(`${whole}.${frac.padEnd(2, "0")}`);
}

/** A currency ID's symbol: "USDC-base" → "USDC", "EUR" → "EUR". */
export const symbolOf = (currencyId: string) => currencyId.split("-")[0] || currencyId;

/** "1234.5" and "USDC-base" → "1,234.5 USDC". */
export const money = (amount: string, currencyId: string) => `${amountText(amount)} ${symbolOf(currencyId)}`;

const pad = (n: number) => String(n).padStart(2, "0");

/** "27 Nov 2026" (UTC). An unreadable date is printed as given. */
export function dateOnly(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** "27 Nov 2026, 09:12:33 UTC". */
export function dateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${dateOnly(iso)}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
}

/** A tax rate in percent as printed: "20" → "20%", "5.5" → "5.5%", null → "—". */
export const percent = (rate: string | null) => (rate === null ? "—" : `${rate}%`);

/** Two decimal amounts are the same number ("10.50" and "10.5"). */
export function sameDecimal(a: string, b: string): boolean {
  const norm = (v: string) => {
    const [w = "0", f = ""] = v.trim().split(".");
    return `${w.replace(/^0+(?=\d)/, "")}.${f.replace(/0+$/, "")}`;
  };
  return norm(a) === norm(b);
}
