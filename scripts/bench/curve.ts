/**
 * Cost curves for `npm run bench -- scale`: each curve measures one kind of work at growing sizes
 * and prints a small table (the work, the time, what was read, the ratio to the smallest) so a
 * reader sees the slope. A curve module exports one `Curve`; scripts/bench/scale.ts runs them.
 */

export interface CurvePoint {
  /** What was measured at this size, e.g. "10^5 open requests". */
  work: string;
  /** The size as a number (10 ** 5). */
  size: number;
  /** Wall time of the measured operation, milliseconds (median when repeated). */
  ms: number;
  /** Optional extra columns (rows read, eth_calls, MiB, …), printed in order. */
  extra?: Record<string, number | string>;
}

export interface CurveResult {
  name: string;
  points: CurvePoint[];
  /** The rule this curve is held to, in words, and whether this run met it (undefined: no rule). */
  rule?: string;
  ok?: boolean;
}

export interface Curve {
  /** Short key (`detection`, `webhooks`, `search`, `lookahead`, …): `npm run bench -- scale <key>` runs one. */
  key: string;
  measure(): Promise<CurveResult>;
}

/** Prints one curve as a table: work, time, extra columns, ratio of time to the smallest size's. */
export function printCurve(r: CurveResult): void {
  const base = r.points[0]?.ms ?? Number.NaN;
  const extraKeys = [...new Set(r.points.flatMap((p) => Object.keys(p.extra ?? {})))];
  console.log(`\n${r.name}${r.rule ? `  (${r.rule}) ${r.ok === undefined ? "" : r.ok ? "OK" : "OVER"}` : ""}`);
  const header = ["work".padEnd(28), "time".padStart(12), ...extraKeys.map((k) => k.padStart(14)), "× smallest".padStart(11)];
  console.log(`  ${header.join(" ")}`);
  for (const p of r.points) {
    const cells = [
      p.work.padEnd(28),
      `${p.ms < 10 ? p.ms.toFixed(2) : p.ms.toFixed(0)} ms`.padStart(12),
      ...extraKeys.map((k) => String(p.extra?.[k] ?? "").padStart(14)),
      `${(p.ms / base).toFixed(2)}×`.padStart(11),
    ];
    console.log(`  ${cells.join(" ")}`);
  }
}

/** Median of a list of numbers (NaN when empty). */
export function medianOf(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
}
