/**
 * Exact decimals for invoices: a non-negative decimal string is a BigInt of units at a scale
 * (`"12.5"` at scale 2 is 1250n). No floating point anywhere; the only rounding is `divHalfUp`.
 */

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** A parsed non-negative decimal: `units / 10^scale`, scale = its own number of decimals. */
export interface Scaled {
  units: bigint;
  scale: number;
}

/** "12.50" → {units: 1250n, scale: 2}; null when it is not a plain non-negative decimal ("1e3", "-1", " 1", ""). */
export function parseScaled(value: string): Scaled | null {
  const m = DECIMAL.exec(value);
  if (!m) return null;
  const [, whole = "", frac = ""] = m;
  return { units: BigInt(whole + frac), scale: frac.length };
}

/** The number of decimals `value` really has (trailing zeros do not count: "1.50" has 1). */
export function significantDecimals(s: Scaled): number {
  let { units, scale } = s;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return scale;
}

/** `s` at `scale` decimals when that loses nothing, else null. */
export function toScale(s: Scaled, scale: number): bigint | null {
  if (scale >= s.scale) return s.units * 10n ** BigInt(scale - s.scale);
  const div = 10n ** BigInt(s.scale - scale);
  return s.units % div === 0n ? s.units / div : null;
}

/**
 * `numerator / denominator` rounded half up (ROUND_HALF_UP: a remainder of exactly one half goes
 * up). Both non-negative, denominator > 0: for non-negative values half up and half away from zero agree.
 */
export function divHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (numerator < 0n || denominator <= 0n) throw new RangeError("divHalfUp takes a non-negative numerator and a positive denominator");
  return (2n * numerator + denominator) / (2n * denominator);
}

/**
 * Units at `decimals` as a decimal string with at least `min(2, decimals)` and at most `decimals`
 * decimals: 107.1 USD → "107.10", 0.0375 USDC → "0.0375", 1070 JPY → "1070". The invoice's way to print money.
 */
export function formatMoney(units: bigint, decimals: number): string {
  const s = units.toString().padStart(decimals + 1, "0");
  const whole = s.slice(0, s.length - decimals);
  let frac = decimals > 0 ? s.slice(s.length - decimals).replace(/0+$/, "") : "";
  const min = Math.min(2, decimals);
  if (frac.length < min) frac = frac.padEnd(min, "0");
  return frac ? `${whole}.${frac}` : whole;
}

/** A scaled decimal in its shortest form: {15, 1} → "1.5", {200, 2} → "2", {5, 4} → "0.0005". */
export function formatPlain(s: Scaled): string {
  const scale = significantDecimals(s);
  const units = s.units / 10n ** BigInt(s.scale - scale);
  const str = units.toString().padStart(scale + 1, "0");
  return scale > 0 ? `${str.slice(0, str.length - scale)}.${str.slice(str.length - scale)}` : str;
}
