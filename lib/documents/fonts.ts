import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * The fonts every document is set in: DejaVu Sans (regular, bold) and DejaVu Sans Mono, the TrueType
 * files of the `dejavu-fonts-ttf` package, read from disk once and embedded as subsets by pdfkit
 * (fontkit). Nothing is downloaded at run time. DejaVu covers Latin, Greek and Cyrillic; characters
 * it lacks (CJK among them) print as the font's missing-glyph box (docs/guides/documents.md).
 *
 * The directory is resolved from the application's root (`process.cwd()`, where `npm start` and
 * `next start` run) with Node's own resolver, not through the bundler: `next build` would otherwise
 * rewrite the lookup into a module ID.
 */
export const FONT = { regular: "DejaVuSans", bold: "DejaVuSans-Bold", mono: "DejaVuSansMono" } as const;
export type FontName = (typeof FONT)[keyof typeof FONT];

let cached: Record<FontName, Buffer> | null = null;

function fontDir(): string {
  const candidates: string[] = [];
  try {
    const req = createRequire(path.join(process.cwd(), "package.json"));
    candidates.push(path.join(path.dirname(req.resolve("dejavu-fonts-ttf/package.json")), "ttf"));
  } catch {
    // Not resolvable from here (an unusual working directory): the fallback below.
  }
  candidates.push(path.join(process.cwd(), "node_modules", "dejavu-fonts-ttf", "ttf"));
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, `${FONT.regular}.ttf`)));
  if (!found) throw new Error(`DejaVu fonts not found (looked in ${candidates.join(", ")})`);
  return found;
}

/** The font files' bytes, by name (read once per process). */
export function fontFiles(): Record<FontName, Buffer> {
  if (cached) return cached;
  const dir = fontDir();
  const read = (name: FontName) => fs.readFileSync(path.join(dir, `${name}.ttf`));
  cached = { [FONT.regular]: read(FONT.regular), [FONT.bold]: read(FONT.bold), [FONT.mono]: read(FONT.mono) } as Record<FontName, Buffer>;
  return cached;
}
