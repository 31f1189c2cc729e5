/**
 * CSV as RFC 4180 writes it: fields separated by commas, records ended by CRLF, a field holding a
 * comma, a double quote, CR or LF enclosed in double quotes with its quotes doubled. Plus one rule of
 * our own for spreadsheets (docs/guides/exports.md "CSV safety"): a cell that begins with = + - @,
 * a tab or a carriage return is one Excel, LibreOffice or Google Sheets may run as a formula (CSV
 * injection, OWASP), so it gets a leading apostrophe, which spreadsheets show as text. A plain
 * decimal number ("-12.5", a refund's signed amount) cannot be a formula and stays as it is, so
 * amounts still import as numbers.
 */

/** Excel reads a CSV as UTF-8 only when it starts with a byte order mark. */
export const UTF8_BOM = "\uFEFF";

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: neutralised when it could run as a formula, then quoted when RFC 4180 needs it. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let s = String(value);
  if (FORMULA_START.test(s) && !PLAIN_NUMBER.test(s)) s = `'${s}`;
  return NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One record, CRLF-terminated. */
export function csvRecord(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
