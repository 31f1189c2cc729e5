import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The layering rule beyond lib/ (README "Architecture"): there is one path to the database.
 * - app/ (pages, server actions, route handlers, app/api included) calls lib functions only: no
 *   import of `@/lib/db`, no runtime import of the generated Prisma client (`@/lib/generated/…`,
 *   `@prisma/…`); its types may be imported with `import type`.
 * - components/ (client and shared UI) imports from lib with `import type` only, lib/forms/ and the
 *   BROWSER_MODULES aside: no server code reaches the browser bundle through a component. lib/forms/
 *   holds the forms' rules (the API's zod schemas, checked in the browser before the server checks
 *   them again); BROWSER_MODULES are single pure modules the wallet UI shares with the server side.
 *   Everything they import at runtime is zod or a lib module that itself imports only zod and such
 *   modules, never the database, the environment, the log or Node built-ins (checked below, transitively).
 * lib/'s own layer map is tests/architecture/layers.test.ts.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");

interface Import {
  spec: string;
  typeOnly: boolean;
}

/** Every module a source file imports or re-exports, statically or dynamically, and whether only types. */
function importsIn(src: string): Import[] {
  const out: Import[] = [];
  // `import … from "x"` / `export … from "x"`, over several lines; `import type` / `export type` are types only.
  for (const m of src.matchAll(/(?:^|[\n;])\s*(import|export)(\s+type\b)?[^"';]*?\bfrom\s*["']([^"']+)["']/g))
    out.push({ spec: m[3]!, typeOnly: Boolean(m[2]) });
  for (const m of src.matchAll(/(?:^|[\n;])\s*import\s*["']([^"']+)["']/g)) out.push({ spec: m[1]!, typeOnly: false });
  for (const m of src.matchAll(/\b(?:import|require)\s*\(\s*["']([^"']+)["']\s*\)/g)) out.push({ spec: m[1]!, typeOnly: false });
  return out;
}

/** An import's target as a repository path without extension (`lib/db`), or the package name. */
function targetOf(file: string, spec: string): string {
  if (spec.startsWith("@/")) return spec.slice(2).replace(/\.tsx?$/, "");
  if (spec.startsWith(".")) return path.relative(ROOT, path.resolve(path.dirname(file), spec)).replace(/\.tsx?$/, "");
  return spec;
}

const under = (target: string, dir: string) => target === dir || target.startsWith(`${dir}/`);

/** What a file under app/ may not import: the database client, and the generated Prisma client at runtime. */
function appViolations(file: string, src: string): string[] {
  return importsIn(src)
    .filter(({ spec, typeOnly }) => {
      const to = targetOf(file, spec);
      if (under(to, "lib/db")) return true;
      return !typeOnly && (under(to, "lib/generated") || spec.startsWith("@prisma/"));
    })
    .map(({ spec }) => `${path.relative(ROOT, file)} → ${spec}`);
}

/** lib modules outside lib/forms/ that components may import at runtime (their import graph is checked like lib/forms/'). */
const BROWSER_MODULES = ["lib/recurring/permit-signing"];

/** What a file under components/ may not import: anything from lib/ but types, lib/forms/ and BROWSER_MODULES aside. */
function componentViolations(file: string, src: string): string[] {
  return importsIn(src)
    .filter(({ spec, typeOnly }) => {
      const to = targetOf(file, spec);
      return !typeOnly && under(to, "lib") && !under(to, "lib/forms") && !BROWSER_MODULES.includes(to);
    })
    .map(({ spec }) => `${path.relative(ROOT, file)} → ${spec}`);
}

/** Packages a browser-safe lib module may import at runtime. */
const BROWSER_PACKAGES = new Set(["zod"]);
/** lib modules that are server-only whatever they import. */
const SERVER_ONLY = ["lib/db", "lib/env", "lib/log", "lib/generated", "lib/http", "lib/openapi"];

function resolveLib(target: string): string | null {
  for (const ext of [".ts", ".tsx", "/index.ts"]) if (fs.existsSync(path.join(ROOT, target + ext))) return target + ext;
  return null;
}

/** Every runtime import reachable from `start` (repository paths) that a browser bundle must not hold. */
function browserViolations(start: string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length) {
    const rel = queue.shift()!;
    if (seen.has(rel)) continue;
    seen.add(rel);
    const src = fs.readFileSync(path.join(ROOT, rel), "utf8");
    if (/\bprocess\.env\b/.test(src)) out.push(`${rel} reads process.env`);
    for (const { spec, typeOnly } of importsIn(src)) {
      if (typeOnly) continue;
      const to = targetOf(path.join(ROOT, rel), spec);
      if (!to.startsWith("lib/") && !spec.startsWith("@/") && !spec.startsWith(".")) {
        if (!BROWSER_PACKAGES.has(spec)) out.push(`${rel} → ${spec}`);
        continue;
      }
      if (!under(to, "lib") || SERVER_ONLY.some((d) => under(to, d))) {
        out.push(`${rel} → ${spec}`);
        continue;
      }
      const file = resolveLib(to);
      if (file) queue.push(file);
      else out.push(`${rel} → ${spec} (not found)`);
    }
  }
  return out;
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.(ts|tsx|mts|js|mjs)$/.test(e.name) ? [p] : [];
  });
}

describe("one path to the database: app/ and components/", () => {
  it("app/ (pages, actions, route handlers) imports neither lib/db nor the generated client at runtime", () => {
    const appFiles = sources(path.join(ROOT, "app"));
    expect(appFiles.length).toBeGreaterThan(50);
    expect(appFiles.flatMap((f) => appViolations(f, fs.readFileSync(f, "utf8")))).toEqual([]);
  });

  it("components/ imports only types from lib/ (lib/forms/ and BROWSER_MODULES aside)", () => {
    const componentFiles = sources(path.join(ROOT, "components"));
    expect(componentFiles.length).toBeGreaterThan(10);
    expect(componentFiles.flatMap((f) => componentViolations(f, fs.readFileSync(f, "utf8")))).toEqual([]);
  });

  it("lib/forms/ (which components import) reaches at runtime only zod and zod-only lib modules", () => {
    const forms = sources(path.join(ROOT, "lib/forms")).map((f) => path.relative(ROOT, f));
    expect(forms.length).toBeGreaterThan(3);
    expect(browserViolations(forms)).toEqual([]);
  });

  it("BROWSER_MODULES (which components import) reach at runtime only zod and zod-only lib modules", () => {
    expect(browserViolations(BROWSER_MODULES.map((m) => resolveLib(m)!))).toEqual([]);
  });
});

describe("the checker itself", () => {
  it("follows lib/forms' imports to the server-only modules they would drag into the browser", () => {
    // lib/operations/webhooks.ts imports lib/http (the wrapper) and lib/openapi: not browser-safe, unlike webhooks-schemas.ts.
    expect(browserViolations(["lib/operations/webhooks.ts"]).length).toBeGreaterThan(0);
    expect(browserViolations(["lib/operations/webhooks-schemas.ts"])).toEqual([]);
    expect(browserViolations(["lib/fees/fee-config.ts"])).toEqual(expect.arrayContaining([expect.stringContaining("lib/db")]));
  });

  const page = path.join(ROOT, "app/dashboard/x/page.tsx");
  const component = path.join(ROOT, "components/x/panel.tsx");

  it("flags a page, action or route that imports the database, in any spelling", () => {
    expect(appViolations(page, 'import { db } from "@/lib/db";')).toHaveLength(1);
    expect(appViolations(page, 'import { db } from "../../../lib/db";')).toHaveLength(1);
    expect(appViolations(page, 'import {\n  db,\n  inTransaction,\n} from "@/lib/db";')).toHaveLength(1);
    expect(appViolations(page, 'import type { Db } from "@/lib/db";')).toHaveLength(1);
    expect(appViolations(page, 'const { db } = await import("@/lib/db");')).toHaveLength(1);
    expect(appViolations(page, 'export { db } from "@/lib/db";')).toHaveLength(1);
    expect(appViolations(page, 'import { Prisma } from "@/lib/generated/prisma/client";')).toHaveLength(1);
    expect(appViolations(page, 'import { PrismaClient } from "@prisma/client";')).toHaveLength(1);
  });

  it("lets app/ call lib functions and import the generated types", () => {
    const ok = [
      'import type { Metadata } from "next";',
      'import { listAccountLinks } from "@/lib/secure-payments/account-links";',
      'import type { RecurringSchedule } from "@/lib/generated/prisma/client";',
      'import { dbLike } from "@/lib/dbx";',
    ].join("\n");
    expect(appViolations(page, ok)).toEqual([]);
  });

  it("flags a component's runtime import from lib/ and lets its type imports pass", () => {
    expect(componentViolations(component, 'import { formatAmount } from "@/lib/money";')).toHaveLength(1);
    expect(componentViolations(component, 'import { type X } from "@/lib/secure-payments/page-types";')).toHaveLength(1);
    expect(componentViolations(component, 'import "../../lib/env";')).toHaveLength(1);
    expect(componentViolations(component, 'import { checkForm } from "@/lib/forms/form-state";')).toEqual([]);
    expect(componentViolations(component, 'import { typedDataToSign } from "@/lib/recurring/permit-signing";')).toEqual([]);
    expect(componentViolations(component, 'import { permitEnvelope } from "@/lib/recurring/permit";')).toHaveLength(1);
    expect(componentViolations(component, 'import type { PaymentPageData } from "@/lib/secure-payments/page-types";')).toEqual([]);
    expect(componentViolations(component, 'import { useState } from "react";\nimport { Button } from "@/components/ui/button";')).toEqual(
      [],
    );
  });
});
