import PDFDocument from "pdfkit";
import { FONT, type FontName, fontFiles } from "@/lib/documents/fonts";

/**
 * The page every document is drawn on: A4, the bundled DejaVu fonts, a cursor `y` that the
 * drawing helpers move down, and explicit page breaks (`ensure`) so nothing is ever cut at the
 * bottom margin. Pages are buffered so the footer ("Page 2 of 3") is written once the count is known.
 */

export const COLOR = { ink: "#1a1f36", muted: "#697386", faint: "#a3acb9", border: "#e3e8ee", panel: "#f6f8fa", paid: "#0e8a4f" };
const DEFAULT_ACCENT = "#4f46e5";
/** The colour of clickable links. */
export const LINK = "#2151c6";

export interface DocumentBrand {
  /** The business the document is from (the account's name or an orchestrator's display name). */
  name: string;
  /** PNG or JPEG bytes (lib/documents/logo.ts fetches and checks them); none: the name alone. */
  logo?: Buffer | null;
  /** `#rrggbb`; anything else falls back to the default accent. */
  accentColor?: string | null;
}

export const accentOf = (brand: DocumentBrand) =>
  brand.accentColor && /^#[0-9a-fA-F]{6}$/.test(brand.accentColor) ? brand.accentColor : DEFAULT_ACCENT;

export class Sheet {
  readonly doc: PDFKit.PDFDocument;
  readonly left = 50;
  /** The right edge of the text column (narrowed while something sits beside it). */
  right: number;
  readonly top = 50;
  readonly bottom: number;
  y = 50;
  /** Called after a page break (the invoice repeats its table header). */
  onNewPage: (() => void) | null = null;

  constructor(info: { title: string; author: string; subject: string }) {
    const fonts = fontFiles();
    this.doc = new PDFDocument({
      size: "A4",
      margins: { top: 50, bottom: 50, left: 50, right: 50 },
      bufferPages: true,
      autoFirstPage: true,
      // A Buffer, so pdfkit never loads its built-in Helvetica.
      font: fonts[FONT.regular] as unknown as string,
      info: { Title: info.title, Author: info.author, Subject: info.subject, Creator: "Duebill", Producer: "Duebill (pdfkit)" },
      lang: "en",
      displayTitle: true,
    });
    for (const name of Object.values(FONT)) this.doc.registerFont(name, fonts[name]);
    this.right = this.doc.page.width - 50;
    this.bottom = this.doc.page.height - 70; // room for the footer
  }

  get width() {
    return this.right - this.left;
  }

  /** Starts a new page when `height` no longer fits above the footer. */
  ensure(height: number): void {
    if (this.y + height <= this.bottom) return;
    this.doc.addPage();
    this.y = this.top;
    this.onNewPage?.();
  }

  font(name: FontName, size: number, color: string = COLOR.ink): this {
    this.doc.font(name).fontSize(size).fillColor(color);
    return this;
  }

  /** Height of `text` set in `name`/`size` at `width`. */
  measure(text: string, name: FontName, size: number, width: number, extra: PDFKit.Mixins.TextOptions = {}): number {
    this.doc.font(name).fontSize(size);
    return this.doc.heightOfString(text, { width, lineBreak: true, ...extra });
  }

  /** Text at (x, y) within `width`, never moving to another page; returns its height. */
  text(text: string, x: number, y: number, width: number, options: PDFKit.Mixins.TextOptions = {}): number {
    const h = this.doc.heightOfString(text, { width, ...options });
    // Past the bottom margin pdfkit would add a page by itself: lift the margin for this call.
    const margins = this.doc.page.margins;
    const saved = margins.bottom;
    margins.bottom = 0;
    this.doc.text(text, x, y, { width, lineBreak: true, ...options });
    margins.bottom = saved;
    return h;
  }

  rule(y: number, color: string = COLOR.border, from = this.left, to = this.right): void {
    this.doc.save().moveTo(from, y).lineTo(to, y).lineWidth(0.75).strokeColor(color).stroke().restore();
  }

  /** "Page n of m" and the issuer line on every page. */
  footer(line: string): void {
    const range = this.doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      this.doc.switchToPage(i);
      const y = this.doc.page.height - 45;
      this.rule(y - 8);
      this.font(FONT.regular, 7.5, COLOR.muted);
      this.text(line, this.left, y, this.width - 80, { lineBreak: false, ellipsis: true });
      this.text(`Page ${i - range.start + 1} of ${range.count}`, this.right - 80, y, 80, { align: "right", lineBreak: false });
    }
  }

  /** Ends the document and returns its bytes. */
  finish(): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      this.doc.on("data", (c: Buffer) => chunks.push(c));
      this.doc.on("end", () => resolve(Buffer.concat(chunks)));
      this.doc.on("error", reject);
      this.doc.end();
    });
  }
}
