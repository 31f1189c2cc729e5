import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * poppler-utils as the second reader of the PDFs the renderers write: pdfinfo (pages), pdftotext
 * (the text a reader extracts), pdftoppm (the pixels). CI installs poppler-utils.
 */

export const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "duebill-pdf-"));

export function save(name: string, bytes: Buffer): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, bytes);
  return file;
}

export function pageCount(file: string): number {
  const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
}

/** The text of the whole document, or of page `page` (1-based). */
export function textOf(file: string, page?: number): string {
  const range = page ? ["-f", String(page), "-l", String(page)] : [];
  return execFileSync("pdftotext", [...range, "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
}

/** Whitespace removed: a long URL or hash wrapped over two lines reads as one. */
export const squeezed = (text: string) => text.replace(/\s+/g, "");

/** PNG files of every page at `dpi` (prefix-1.png, prefix-2.png, ...). */
export function toPng(file: string, dpi: number, prefix: string, pages?: { first: number; last: number }): string[] {
  const range = pages ? ["-f", String(pages.first), "-l", String(pages.last)] : [];
  execFileSync("pdftoppm", ["-png", "-r", String(dpi), ...range, file, prefix]);
  const dir = path.dirname(prefix);
  const base = path.basename(prefix);
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(`${base}-`) && f.endsWith(".png"))
    .sort()
    .map((f) => path.join(dir, f));
}

/** A grey-scale raster of a region of page 1 (points, top-left origin) at `dpi`: width, height, pixels 0–255. */
export function grayRegion(file: string, dpi: number, box: { x: number; y: number; w: number; h: number }) {
  const k = dpi / 72;
  const prefix = path.join(tmp, `region-${Date.now()}`);
  execFileSync("pdftoppm", [
    "-gray",
    "-r",
    String(dpi),
    "-f",
    "1",
    "-l",
    "1",
    "-x",
    String(Math.round(box.x * k)),
    "-y",
    String(Math.round(box.y * k)),
    "-W",
    String(Math.round(box.w * k)),
    "-H",
    String(Math.round(box.h * k)),
    "-singlefile",
    file,
    prefix,
  ]);
  return readPgm(fs.readFileSync(`${prefix}.pgm`));
}

/** Binary PGM (P5, maxval 255). */
function readPgm(buf: Buffer): { width: number; height: number; pixels: Buffer } {
  const tokens: string[] = [];
  let i = 0;
  while (tokens.length < 4) {
    while (/\s/.test(String.fromCharCode(buf[i]!))) i++;
    if (buf[i] === 0x23) {
      while (buf[i] !== 0x0a) i++;
      continue;
    }
    let t = "";
    while (!/\s/.test(String.fromCharCode(buf[i]!))) t += String.fromCharCode(buf[i++]!);
    tokens.push(t);
  }
  if (tokens[0] !== "P5" || tokens[3] !== "255") throw new Error(`not an 8-bit PGM: ${tokens.join(" ")}`);
  const width = Number(tokens[1]);
  const height = Number(tokens[2]);
  return { width, height, pixels: buf.subarray(i + 1, i + 1 + width * height) };
}

/**
 * The link annotations of page 1 as written in the file: target URI and rectangle in points,
 * top-left origin (pdfkit writes annotation dictionaries uncompressed).
 */
export function linkRects(bytes: Buffer, pageHeight = 841.89): { uri: string; x: number; y: number; w: number; h: number }[] {
  const text = bytes.toString("latin1");
  // pdfkit writes the URI action as an object of its own, which the annotation references (/A n 0 R).
  const actions = new Map<string, string>();
  for (const m of text.matchAll(/(\d+) 0 obj\s*<<\s*\/S \/URI\s*\/URI \(((?:[^()\\]|\\.)*)\)/g))
    actions.set(m[1]!, m[2]!.replace(/\\(.)/g, "$1"));
  const out: { uri: string; x: number; y: number; w: number; h: number }[] = [];
  for (const m of text.matchAll(/\/Subtype \/Link\s*\/A (\d+) 0 R[^>]*?\/Rect \[([^\]]+)\]/g)) {
    const uri = actions.get(m[1]!);
    if (!uri) continue;
    const [x1, y1, x2, y2] = m[2]!.trim().split(/\s+/).map(Number) as [number, number, number, number];
    out.push({ uri, x: x1, y: pageHeight - y2, w: x2 - x1, h: y2 - y1 });
  }
  return out;
}
