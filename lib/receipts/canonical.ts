/**
 * RFC 8785 JSON Canonicalization Scheme (JCS): the bytes a receipt's signature covers
 * (docs/guides/receipts.md). Object members sorted by their names' UTF-16 code units, no
 * whitespace, strings escaped as ECMAScript's JSON.stringify does (RFC 8785 §3.2.2.2: only `"`,
 * `\`, and U+0000–U+001F are escaped, the latter with the short forms \b \t \n \f \r or \u00xx
 * lowercase), numbers in ECMAScript's shortest form (§3.2.2.3: JSON.stringify of a finite
 * number). A receipt holds only strings, safe integers, booleans and nulls; anything else
 * (a non-finite number, a bigint, undefined, a function) is refused rather than guessed at.
 */
export function canonicalize(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "string":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError("JCS: non-finite numbers have no JSON form");
      // ECMAScript Number::toString is RFC 8785's number serialisation; JSON.stringify applies it (and -0 → 0).
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) return `[${value.map((v) => canonicalize(v)).join(",")}]`;
      const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
      // Default sort compares UTF-16 code units: exactly RFC 8785 §3.2.3.
      entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalize(v)}`).join(",")}}`;
    }
    default:
      throw new TypeError(`JCS: a ${typeof value} has no JSON form`);
  }
}

/** The canonical encoding as the UTF-8 bytes that are signed. */
export function canonicalBytes(value: unknown): Buffer {
  return Buffer.from(canonicalize(value), "utf8");
}
