import { invalidField } from "@/lib/errors";

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Parses a human decimal string ("12.50") into integer base units for `decimals`.
 * Rejects numbers, signs, exponents, zero and more fractional digits than the currency has.
 */
export function parseAmount(value: string, decimals: number, field: string): bigint {
  const m = DECIMAL.exec(value);
  if (!m) throw invalidField(field, 'must be a positive decimal string such as "12.50"');
  const [, whole = "", frac = ""] = m;
  if (frac.length > decimals) throw invalidField(field, `has more than ${decimals} decimal places`);
  if (whole.length > 60) throw invalidField(field, "is too large");
  const units = BigInt(whole + frac.padEnd(decimals, "0"));
  if (units <= 0n) throw invalidField(field, "must be greater than 0");
  return units;
}

/** Integer base units → decimal string without trailing zeros ("12.5"). */
export function formatAmount(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const s = abs.toString().padStart(decimals + 1, "0");
  const whole = s.slice(0, s.length - decimals);
  const frac = decimals > 0 ? s.slice(s.length - decimals).replace(/0+$/, "") : "";
  return `${negative ? "-" : ""}${whole}${frac ? `.${frac}` : ""}`;
}

/** Converts base units between decimal precisions, rounding down. */
export function rescale(units: bigint, fromDecimals: number, toDecimals: number): bigint {
  if (toDecimals >= fromDecimals) return units * 10n ** BigInt(toDecimals - fromDecimals);
  return units / 10n ** BigInt(fromDecimals - toDecimals);
}

/**
 * A fee percentage ("2.5" = 2.5 %) applied to `units`, rounded down. Up to 4 decimal
 * places (0.0001 %), at most 100 %.
 */
export function parseFeePercentage(value: string, field: string): { basisPointsE2: bigint; text: string } {
  const m = DECIMAL.exec(value);
  if (!m) throw invalidField(field, 'must be a decimal percentage such as "2.5"');
  const [, whole = "", frac = ""] = m;
  if (frac.length > 4) throw invalidField(field, "has more than 4 decimal places");
  const scaled = BigInt(whole + frac.padEnd(4, "0")); // percent × 10^4
  if (scaled > 100n * 10_000n) throw invalidField(field, "must be at most 100");
  return { basisPointsE2: scaled, text: value };
}

export function applyFeePercentage(units: bigint, percentScaled: bigint): bigint {
  return (units * percentScaled) / (100n * 10_000n);
}
