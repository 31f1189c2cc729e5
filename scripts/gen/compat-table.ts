/**
 * The compatibility table of docs/api/compatibility.md: every operation of the reference's OpenAPI
 * (spec/reference-openapi.v2.json, or REFERENCE_OPENAPI) against Duebill's registry
 * (lib/operations). `npx tsx scripts/gen/compat-table.ts` prints it, `--write` puts it between the
 * page's compat-table markers; tests/operations/compat-table.test.ts fails when the page's copy is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { OPERATIONS } from "@/lib/operations/index";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

const START = "<!-- compat-table:start -->";
const END = "<!-- compat-table:end -->";

export function referenceSpecPath(): string {
  return process.env.REFERENCE_OPENAPI ?? path.resolve(__dirname, "../../spec/reference-openapi.v2.json");
}

/** The page that holds the table. */
export function compatibilityPagePath(): string {
  return path.resolve(__dirname, "../../docs/api/compatibility.md");
}

/**
 * Operations the reference added after its OpenAPI 0.13.0, documented in prose only (its docs and
 * release notes, docs/spec/reference-notes.md §3), with where: they have no schema to validate
 * against, so Duebill follows the prose and says so in each operation's description.
 */
export const NEWER_REFERENCE_OPERATIONS: readonly { key: string; source: string }[] = [
  { key: "GET /v2/request", source: "request list, `walletAddress` (2026-Q3)" },
  { key: "PATCH /v1/request/{paymentReference}/stop-recurrence", source: "recurring requests" },
  { key: "POST /v2/secure-payments/{token}/calldata", source: "pay plan (2026-Q1)" },
  { key: "POST /v2/commerce-payments/authorize/calldata", source: "commerce payments (preview)" },
  { key: "POST /v2/commerce-payments/{requestId}/authorize", source: "commerce payments (preview)" },
  { key: "POST /v2/commerce-payments/{requestId}/capture/calldata", source: "commerce payments (preview)" },
  { key: "POST /v2/commerce-payments/{requestId}/capture", source: "commerce payments (preview)" },
  { key: "POST /v2/commerce-payments/{requestId}/void/calldata", source: "commerce payments (preview)" },
  { key: "POST /v2/commerce-payments/{requestId}/void", source: "commerce payments (preview)" },
  { key: "GET /v2/commerce-payments/{requestId}/status", source: "commerce payments (preview)" },
];

export function compatibilityTable(spec: { paths: Record<string, Record<string, { summary?: string }>> }): string {
  const served = new Map(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op]));
  const statusOf = (key: string) => {
    const op = served.get(key);
    return !op
      ? "not yet"
      : op.tags?.includes("Retired and out of scope")
        ? `refused with the reason (${Object.keys(op.responses).find((s) => s !== "429")})`
        : "served";
  };
  const rows = ["| Reference operation | Duebill |", "|---|---|"];
  for (const [p, item] of Object.entries(spec.paths)) {
    for (const m of METHODS) {
      if (!item[m]) continue;
      const key = `${m.toUpperCase()} ${p}`;
      rows.push(`| \`${key}\` | ${statusOf(key)} |`);
    }
  }
  const newer = ["| Newer reference operation (documented in prose) | Where | Duebill |", "|---|---|---|"];
  for (const { key, source } of NEWER_REFERENCE_OPERATIONS) newer.push(`| \`${key}\` | ${source} | ${statusOf(key)} |`);
  return [...rows, "", "Operations the reference added after 0.13.0 (docs/spec/reference-notes.md §3):", "", ...newer].join("\n");
}

/** The table as the page holds it now (between the markers), or null when the markers are missing. */
export function tableInPage(page: string): string | null {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) return null;
  return page.slice(start + START.length, end).trim();
}

/** The page with `table` between its markers. */
export function withTable(page: string, table: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${compatibilityPagePath()} has no ${START} … ${END} markers`);
  return `${page.slice(0, start + START.length)}\n${table}\n${page.slice(end)}`;
}

if (require.main === module) {
  const table = compatibilityTable(JSON.parse(readFileSync(referenceSpecPath(), "utf8")));
  if (process.argv.includes("--write")) {
    const page = compatibilityPagePath();
    writeFileSync(page, withTable(readFileSync(page, "utf8"), table));
    console.log(`wrote ${path.relative(process.cwd(), page)}`);
  } else console.log(table);
}
