import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * lib/env.ts is the only reader of process.env in the application (lib/, app/, components/,
 * proxy.ts, instrumentation.ts): every variable is in its schema, described and checked at boot.
 * The scripts (launchers, CLIs, benches) and the tests read the environment as they please.
 *
 * Two reads must stay literal, because Next replaces them at build time and only in that form:
 * - components/wallet/wallet-env.ts: `process.env.NEXT_PUBLIC_WALLETCONNECT_PROJECT_ID`, inlined into
 *   the browser bundle (lib/env.ts is server-only); the variable is in lib/env.ts's schema too.
 * - instrumentation.ts: `process.env.NEXT_RUNTIME`, Next's own switch between its Node and edge
 *   builds of the file; it lets the edge build drop the Node-only imports behind it.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const ENV_MODULE = "lib/env.ts";
const LITERAL_READS: Readonly<Record<string, readonly string[]>> = {
  "components/wallet/wallet-env.ts": ["NEXT_PUBLIC_WALLETCONNECT_PROJECT_ID"],
  "instrumentation.ts": ["NEXT_RUNTIME"],
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    // Prisma's generated client reads its own variables; it is not our code.
    if (e.isDirectory()) return path.relative(ROOT, p) === "lib/generated" ? [] : sourceFiles(p);
    return /\.(ts|tsx|js|jsx|mjs|cjs)$/.test(e.name) ? [p] : [];
  });
}

/** Every mention of process.env in `src` (code or comment) that `allowed` does not name, as "line: text". */
function envMentions(src: string, allowed: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const m of src.matchAll(/process\s*(?:\?\.|\.)\s*env\b(?:\s*\.\s*([A-Za-z_][A-Za-z0-9_]*))?|process\s*\[\s*["'`]env["'`]\s*\]/g)) {
    const name = m[1];
    if (name && allowed.includes(name)) continue;
    const line = src.slice(0, m.index).split("\n").length;
    out.push(`${line}: ${m[0]}`);
  }
  return out;
}

describe("process.env: only lib/env.ts reads it in the application", () => {
  it("the scan finds what it must (direct, optional, bracketed, destructured, in a comment) and lets the named literal through", () => {
    expect(envMentions("const a = process.env.FOO;")).toEqual(["1: process.env.FOO"]);
    expect(envMentions("const { FOO } = process.env;\nx(process?.env)")).toEqual(["1: process.env", "2: process?.env"]);
    expect(envMentions('process["env"].FOO')).toHaveLength(1);
    expect(envMentions("// falls back to process.env.BAR")).toHaveLength(1);
    expect(envMentions("process.env.NEXT_RUNTIME", ["NEXT_RUNTIME"])).toEqual([]);
    expect(envMentions("process.env.NEXT_RUNTIME; process.env.OTHER", ["NEXT_RUNTIME"])).toEqual(["1: process.env.OTHER"]);
    expect(envMentions("const processEnv = 1; myprocess.envelope;")).toEqual([]);
  });

  it("no file under lib/, app/, components/, nor proxy.ts or instrumentation.ts, mentions process.env but lib/env.ts (and the two literal reads Next needs)", () => {
    const files = [
      ...["lib", "app", "components"].flatMap((d) => sourceFiles(path.join(ROOT, d))),
      path.join(ROOT, "proxy.ts"),
      path.join(ROOT, "instrumentation.ts"),
    ];
    expect(files.length).toBeGreaterThan(100);
    const offenders: string[] = [];
    for (const file of files) {
      const rel = path.relative(ROOT, file).split(path.sep).join("/");
      if (rel === ENV_MODULE) continue;
      for (const hit of envMentions(fs.readFileSync(file, "utf8"), LITERAL_READS[rel] ?? [])) offenders.push(`${rel}:${hit}`);
    }
    expect(offenders, "read the variable through lib/env.ts (add it to its schema, with a description)").toEqual([]);
  });

  it("the two literal reads still exist (an allowance nothing uses is dropped) and the browser's variable is in the schema", async () => {
    for (const [file, names] of Object.entries(LITERAL_READS)) {
      const src = fs.readFileSync(path.join(ROOT, file), "utf8");
      for (const name of names) expect(src, file).toContain(`process.env.${name}`);
    }
    const { CHECKED_VARIABLES } = await import("@/lib/env");
    expect(CHECKED_VARIABLES).toContain("NEXT_PUBLIC_WALLETCONNECT_PROJECT_ID");
  });
});
