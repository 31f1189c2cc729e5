import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compatibilityPagePath, compatibilityTable, referenceSpecPath, tableInPage, withTable } from "@/scripts/gen/compat-table";

describe("compatibility table (docs/api/compatibility.md)", () => {
  it("lists every reference operation with Duebill's status as the registry has it (regenerate: npx tsx scripts/gen/compat-table.ts --write)", () => {
    const table = compatibilityTable(JSON.parse(readFileSync(referenceSpecPath(), "utf8")));
    const page = readFileSync(compatibilityPagePath(), "utf8");
    expect(tableInPage(page)).toBe(table);
  });

  it("--write replaces only what lies between the markers", () => {
    const page = "intro\n<!-- compat-table:start -->\n| old |\n<!-- compat-table:end -->\noutro\n";
    const written = withTable(page, "| new |");
    expect(written).toBe("intro\n<!-- compat-table:start -->\n| new |\n<!-- compat-table:end -->\noutro\n");
    expect(tableInPage(written)).toBe("| new |");
    expect(tableInPage("no markers")).toBeNull();
  });
});
