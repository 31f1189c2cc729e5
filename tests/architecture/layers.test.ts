import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The layer map of lib/ (docs/architecture.md): every import runs downhill or sideways within
 * a layer, and the folders form no cycle. A new folder must be placed here to be allowed.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["errors", "faults", "env", "clock", "ids", "log", "money", "db", "generated", "audit"],
  ["chain"],
  ["currencies", "auth", "kyt", "events", "idempotency", "routing", "relayer"],
  ["payments", "fees", "accounts", "invoices"],
  [
    "destinations",
    "requests",
    "payouts",
    "secure-payments",
    "deposits",
    "detection",
    "webhooks",
    "recurring",
    "orchestrators",
    "refunds",
    "receipts",
    "documents",
    "exports",
    "gasless",
    "commerce",
    "x402",
  ],
  ["jobs", "mail"],
  ["http"],
  ["openapi"],
  ["admin"],
  ["operations"],
  // Browser-safe form rules over the operations' zod schemas (components may import these: layers-app.test.ts).
  ["forms"],
];

const LIB = path.resolve(import.meta.dirname, "../../lib");
/** The one file outside lib/ that lib/ may import: the generated ABIs of the Solidity contracts it calls (no bytecode). */
const ALLOWED_OUTSIDE = new Set(["../contracts/generated/abis.generated"]);
const layerOf = new Map(LAYERS.flatMap((names, i) => names.map((n) => [n, i] as const)));

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "generated" ? [] : files(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** `lib/chain/abis.ts` → "chain"; `lib/env.ts` → "env". */
const unitOf = (rel: string) => rel.split("/")[0]!.replace(/\.tsx?$/, "");

function importsOf(file: string): string[] {
  const src = fs.readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of src.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
    const spec = m[1]!;
    if (spec.startsWith("@/lib/")) out.push(spec.slice("@/lib/".length));
    else if (spec.startsWith(".")) out.push(path.relative(LIB, path.resolve(path.dirname(file), spec)));
    else if (spec.startsWith("@/")) out.push(`../${spec.slice(2)}`);
  }
  return out;
}

const edges = new Map<string, Map<string, string>>(); // from unit → to unit → example file
const upward: string[] = [];
const outside: string[] = [];
const unknown = new Set<string>();
for (const file of files(LIB)) {
  const rel = path.relative(LIB, file);
  const from = unitOf(rel);
  for (const target of importsOf(file)) {
    if (target.startsWith("..")) {
      if (!ALLOWED_OUTSIDE.has(target)) outside.push(`${rel} → ${target}`);
      continue;
    }
    const to = unitOf(target);
    if (to === from) continue;
    for (const u of [from, to]) if (!layerOf.has(u)) unknown.add(u);
    if ((layerOf.get(to) ?? 99) > (layerOf.get(from) ?? -1)) upward.push(`${rel} → ${target}`);
    if (!edges.has(from)) edges.set(from, new Map());
    edges.get(from)!.set(to, rel);
  }
}

function cycles(): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (u: string) => {
    state.set(u, "open");
    stack.push(u);
    for (const v of edges.get(u)?.keys() ?? []) {
      if (state.get(v) === "open") found.push([...stack.slice(stack.indexOf(v)), v]);
      else if (!state.has(v)) visit(v);
    }
    stack.pop();
    state.set(u, "done");
  };
  for (const u of edges.keys()) if (!state.has(u)) visit(u);
  return found;
}

describe("lib layering", () => {
  it("places every folder and base file in a layer", () => {
    expect([...unknown]).toEqual([]);
  });

  it("has no import from a lower layer to a higher one", () => {
    expect(upward).toEqual([]);
  });

  it("has no import cycle between folders", () => {
    expect(cycles().map((c) => c.map((u) => `${u}${edges.get(u)?.has(c[c.indexOf(u) + 1] ?? "") ? "" : ""}`).join(" → "))).toEqual([]);
  });

  it("does not import from app/, components/, scripts/ or contracts/ (its generated ABIs aside)", () => {
    expect(outside).toEqual([]);
  });

  it("keeps every file under 300 lines (generated files aside)", () => {
    const long = files(LIB)
      .filter((f) => !f.endsWith(".generated.ts"))
      .map((f) => [path.relative(LIB, f), fs.readFileSync(f, "utf8").split("\n").length] as const)
      .filter(([, n]) => n > 300);
    expect(long).toEqual([]);
  });
});
