import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compatibilityTable, referenceSpecPath } from "@/scripts/gen/compat-table";

describe("README compatibility table", () => {
  it("lists every reference operation with Duebill's status as the registry has it (regenerate: npx tsx scripts/gen/compat-table.ts)", () => {
    const table = compatibilityTable(JSON.parse(readFileSync(referenceSpecPath(), "utf8")));
    const readme = readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
    expect(readme).toContain(table);
  });
});
