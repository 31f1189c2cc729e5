import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CHECKED_VARIABLES } from "@/lib/env";
import { CONFIG_DOCS_PATH, renderConfigDocs } from "@/scripts/gen/config-docs";

describe("docs/operations/configuration.md, generated from lib/env/variables.ts", () => {
  it("is what the generator renders (regenerate: npm run docs:config)", () => {
    expect(readFileSync(CONFIG_DOCS_PATH, "utf8")).toBe(renderConfigDocs());
  });

  it("has a row naming every variable the boot check reads", () => {
    const page = renderConfigDocs();
    const firstCells = [...page.matchAll(/^\| (`[^|]+) \|/gm)].map((m) => m[1]!).join(" ");
    for (const name of CHECKED_VARIABLES) expect(firstCells, name).toContain(`\`${name}\``);
  });
});
