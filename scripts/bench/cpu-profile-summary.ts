/**
 * Summarises a V8 .cpuprofile (from BENCH_CPU_PROF=<dir> npm run bench -- api, or from
 * scripts/bench/api-profile.ts under node --cpu-prof): self time of the top functions and of each
 * package / source area, as a share of the profile's non-idle samples.
 *
 * Usage: npx tsx scripts/bench/cpu-profile-summary.ts <file.cpuprofile | dir (newest file)> [top=30]
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

function newest(dir: string): string {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => path.join(dir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size);
  if (!files[0]) throw new Error(`no .cpuprofile in ${dir}`);
  return files[0];
}

/** The package (node_modules/<pkg>) or the repo area (lib/http, app/v2, …) a frame belongs to. */
export function areaOf(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith("node:")) return url;
  const m = /(lib|app|scripts)\/([^/]+)/.exec(url);
  if (m) return `${m[1]}/${m[2]}`;
  if (url.includes(".next/server/chunks")) return ".next chunks";
  return path.basename(url);
}

function main() {
  const arg = process.argv[2];
  if (!arg) throw new Error("usage: cpu-profile-summary.ts <file|dir> [top]");
  const top = Number(process.argv[3] ?? 30);
  const file = statSync(arg).isDirectory() ? newest(arg) : arg;
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) selfUs.set(p.samples[i]!, (selfUs.get(p.samples[i]!) ?? 0) + (p.timeDeltas[i] ?? 0));
  const fns = new Map<string, number>();
  const areas = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const n = byId.get(id)!;
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === "(idle)" || functionName === "(program)") continue;
    total += us;
    const short = url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(lib|app|scripts)\//, "$1/");
    const key = `${functionName || "(anonymous)"}  ${short}${url ? `:${lineNumber + 1}` : ""}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
    const area = areaOf(url, functionName);
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)}%`;
  console.log(`${file}: ${(total / 1000).toFixed(0)} ms of non-idle samples`);
  console.log("\nSelf time by area:");
  for (const [k, us] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${pct(us)}  ${k}`);
  console.log(`\nTop ${top} functions by self time:`);
  for (const [k, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)}  ${k.slice(0, 150)}`);
}

main();
