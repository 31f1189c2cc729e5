/**
 * `npm run bench -- scale [key]`: cost curves (issue 33 item 4). Each curve seeds its own database in
 * bulk with SQL (not the API) and measures one kind of work at growing sizes; see scripts/bench/curve.ts.
 * The curves live in scripts/bench/scale/<key>.ts, one file each, listed here.
 */
import { type Curve, type CurveResult, printCurve } from "./curve";

/** The curves, in the order they run. Each module's default export is a Curve. */
const CURVES: Array<() => Promise<{ default: Curve }>> = [
  // one line per curve module, e.g. () => import("./scale/detection"),
  () => import("./scale/detection"),
  () => import("./scale/webhooks"),
  () => import("./scale/lookahead"),
  () => import("./scale/search"),
];

export async function measureScale(only?: string): Promise<CurveResult[]> {
  const results: CurveResult[] = [];
  for (const load of CURVES) {
    const curve = (await load()).default;
    if (only && curve.key !== only) continue;
    const r = await curve.measure();
    printCurve(r);
    results.push(r);
  }
  if (only && results.length === 0) throw new Error(`no scale curve "${only}"`);
  return results;
}
