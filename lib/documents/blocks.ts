import { encode } from "uqr";
import { FONT } from "@/lib/documents/fonts";
import { accentOf, COLOR, type DocumentBrand, LINK, type Sheet } from "@/lib/documents/pdf-doc";

/** The building blocks the receipt and the invoice share: brand header, sections, label/value rows, QR code. */

const LABEL_WIDTH = 130;

/** The accent band, the brand (logo and name) on the left, the document's title and ID on the right. */
export function header(s: Sheet, brand: DocumentBrand, title: string, subtitle: string): void {
  const { doc } = s;
  doc.save().rect(0, 0, doc.page.width, 6).fill(accentOf(brand)).restore();
  const top = s.top;
  const brandWidth = s.width * 0.55;
  let left = top;
  if (brand.logo) {
    try {
      doc.image(brand.logo, s.left, top, { fit: [150, 44] });
      left = top + 52;
    } catch {
      // Bytes that passed the magic-number check but do not decode: the name alone.
    }
  }
  s.font(FONT.bold, left === top ? 18 : 12);
  left += s.text(brand.name, s.left, left, brandWidth);

  s.font(FONT.bold, 22);
  let right = top + s.text(title, s.right - 200, top, 200, { align: "right" });
  s.font(FONT.mono, 8, COLOR.muted);
  right += 2 + s.text(subtitle, s.right - 200, right + 2, 200, { align: "right" });
  s.y = Math.max(left, right) + 18;
  s.rule(s.y);
  s.y += 18;
}

/** A small uppercase section title with a rule under it; starts a page when the title and two rows would not fit. */
export function section(s: Sheet, title: string): void {
  s.ensure(60);
  s.font(FONT.bold, 8.5, COLOR.muted);
  s.text(title.toUpperCase(), s.left, s.y, s.width, { characterSpacing: 0.6 });
  s.y += 14;
  s.rule(s.y);
  s.y += 8;
}

export interface RowOptions {
  mono?: boolean;
  /** Makes the value a clickable link. */
  link?: string | null;
  bold?: boolean;
}

/** "Label    value" with the value wrapping in its column (long addresses and hashes break anywhere). */
export function row(s: Sheet, label: string, value: string, options: RowOptions = {}): void {
  const x = s.left + LABEL_WIDTH;
  const width = s.width - LABEL_WIDTH;
  const font = options.mono ? FONT.mono : options.bold ? FONT.bold : FONT.regular;
  const size = options.mono ? 8.5 : 9.5;
  const h = Math.max(12, s.measure(value, font, size, width));
  s.ensure(h + 5);
  s.font(FONT.regular, 9, COLOR.muted);
  s.text(label, s.left, s.y + (options.mono ? 0.5 : 0), LABEL_WIDTH - 10);
  s.font(font, size, options.link ? LINK : COLOR.ink);
  s.text(value, x, s.y, width, options.link ? { link: options.link, underline: false } : {});
  s.y += h + 5;
}

/** Rows of a list, skipping those without a value. */
export function rows(s: Sheet, items: readonly (readonly [string, string | null | undefined, RowOptions?])[]): void {
  for (const [label, value, options] of items) if (value) row(s, label, value, options);
}

/**
 * `url` as a QR code at (x, y), `size` points square: uqr's module matrix drawn as vector
 * rectangles (one per horizontal run of dark modules), no quiet zone (the caller leaves white
 * around it), and the whole square a link to `url`.
 */
export function qrCode(s: Sheet, url: string, x: number, y: number, size: number): void {
  const qr = encode(url, { ecc: "M", border: 0 });
  const m = size / qr.size;
  const { doc } = s;
  doc.save().fillColor(COLOR.ink);
  qr.data.forEach((line, r) => {
    let c = 0;
    while (c < qr.size) {
      if (!line[c]) {
        c++;
        continue;
      }
      const start = c;
      while (c < qr.size && line[c]) c++;
      doc.rect(x + start * m, y + r * m, (c - start) * m, m);
    }
  });
  doc.fill().restore();
  doc.link(x, y, size, size, url);
}

/** A rounded label ("Paid", "Refund") in `color`, text white; returns its width. */
export function pill(s: Sheet, text: string, x: number, y: number, color: string): number {
  s.font(FONT.bold, 9);
  const w = s.doc.widthOfString(text) + 16;
  s.doc.save().roundedRect(x, y, w, 18, 9).fill(color).restore();
  s.font(FONT.bold, 9, "#ffffff");
  s.text(text, x, y + 4.5, w, { align: "center", lineBreak: false });
  return w;
}
