import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** README.md and every Markdown file under docs/. */
function markdownFiles(): string[] {
  const out = [path.join(ROOT, "README.md")];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".md")) out.push(p);
    }
  };
  walk(path.join(ROOT, "docs"));
  return out;
}

/** The text outside fenced code blocks and inline code. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's heading anchors: lowercased, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of markdown.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const slug = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** Relative link targets of a Markdown text: [text](target), without external URLs. */
function relativeLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

describe("links between the docs", () => {
  const files = markdownFiles();

  it("finds the README and the docs", () => {
    expect(files.length).toBeGreaterThan(10);
  });

  for (const file of files) {
    const rel = path.relative(ROOT, file);
    it(`${rel}: every relative link names a file inside the repository (and a heading that exists)`, () => {
      const text = readFileSync(file, "utf8");
      const broken: string[] = [];
      for (const target of relativeLinks(text)) {
        const [p = "", anchor] = target.split("#");
        const dest = p === "" ? file : path.resolve(path.dirname(file), decodeURI(p));
        if (!dest.startsWith(`${ROOT}${path.sep}`) && dest !== ROOT) broken.push(`${target}: outside the repository`);
        else if (!existsSync(dest)) broken.push(`${target}: no such file`);
        else if (anchor && dest.endsWith(".md") && !anchors(readFileSync(dest, "utf8")).has(anchor))
          broken.push(`${target}: no heading #${anchor}`);
      }
      expect(broken).toEqual([]);
    });
  }

  it("the anchor rule matches GitHub's for the headings the docs link to", () => {
    const a = anchors("# Client IDs (`/v2/client-ids`)\n## Quick start (two commands)\n## Tests\n## Tests\n```\n# not a heading\n```\n");
    expect([...a]).toEqual(["client-ids-v2client-ids", "quick-start-two-commands", "tests", "tests-1"]);
  });
});
