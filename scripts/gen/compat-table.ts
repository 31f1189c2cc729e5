/**
 * The README's compatibility table: every operation of the reference's OpenAPI
 * (spec/reference-openapi.v2.json, a copy of the shared spec, or REFERENCE_OPENAPI) against Duebill's registry
 * (lib/operations). `npx tsx scripts/gen/compat-table.ts` prints it; tests/operations/compat-table.test.ts
 * fails when the README's copy is stale.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { OPERATIONS } from "@/lib/operations/index";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

export function referenceSpecPath(): string {
  return process.env.REFERENCE_OPENAPI ?? path.resolve(__dirname, "../../spec/reference-openapi.v2.json");
}

export function compatibilityTable(spec: { paths: Record<string, Record<string, { summary?: string }>> }): string {
  const served = new Map(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op]));
  const rows = ["| Reference operation | Duebill |", "|---|---|"];
  for (const [p, item] of Object.entries(spec.paths)) {
    for (const m of METHODS) {
      if (!item[m]) continue;
      const key = `${m.toUpperCase()} ${p}`;
      const op = served.get(key);
      const status = !op
        ? "not yet"
        : op.tags?.includes("Retired and out of scope")
          ? `refused with the reason (${Object.keys(op.responses).find((s) => s !== "429")})`
          : "served";
      rows.push(`| \`${key}\` | ${status} |`);
    }
  }
  return rows.join("\n");
}

if (require.main === module) {
  console.log(compatibilityTable(JSON.parse(readFileSync(referenceSpecPath(), "utf8"))));
}
