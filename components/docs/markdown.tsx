import { Fragment, type ReactNode } from "react";

/**
 * The small Markdown subset the operation descriptions use: `code`, **bold**, [links](url),
 * paragraphs (blank line) and line breaks. It builds React elements, never HTML strings, so
 * text in a description cannot inject markup; links are kept only for http(s), `/` and `#`.
 */

const INLINE = /`([^`\n]+)`|\*\*([^\n]+?)\*\*|\[([^\]\n]+)\]\(([^)\s]+)\)/g;
const SAFE_HREF = /^(https?:\/\/|\/(?!\/)|#)/;

export function renderInline(text: string, keyPrefix = "m"): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let i = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const key = `${keyPrefix}-${i++}`;
    if (m[1] !== undefined) {
      out.push(
        <code key={key} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800 ring-1 ring-slate-200">
          {m[1]}
        </code>,
      );
    } else if (m[2] !== undefined) {
      out.push(
        <strong key={key} className="font-semibold text-slate-900">
          {renderInline(m[2], key)}
        </strong>,
      );
    } else if (m[3] !== undefined && m[4] !== undefined) {
      out.push(
        SAFE_HREF.test(m[4]) ? (
          <a key={key} href={m[4]} className="font-medium text-indigo-700 underline-offset-4 hover:underline">
            {renderInline(m[3], key)}
          </a>
        ) : (
          <Fragment key={key}>{renderInline(m[3], key)}</Fragment>
        ),
      );
    }
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function lines(text: string, keyPrefix: string): ReactNode[] {
  return text.split("\n").flatMap((line, i) => {
    const parts = renderInline(line, `${keyPrefix}-${i}`);
    // biome-ignore lint/suspicious/noArrayIndexKey: lines of a fixed text
    return i === 0 ? parts : [<br key={`${keyPrefix}-br-${i}`} />, ...parts];
  });
}

/** Block Markdown: one <p> per paragraph. */
export function Markdown({ text, className }: { text: string; className?: string }) {
  const paragraphs = text
    .trim()
    .split(/\n\s*\n/)
    .filter((p) => p.trim() !== "");
  return (
    <div className={className} data-markdown="">
      {paragraphs.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of a fixed text
        <p key={i} className={i > 0 ? "mt-2" : undefined}>
          {lines(p.trim(), `p${i}`)}
        </p>
      ))}
    </div>
  );
}

/** Inline Markdown in a span (table cells, one-line descriptions). */
export function InlineMarkdown({ text }: { text: string }) {
  return <span data-markdown="">{lines(text, "i")}</span>;
}

/** The text of inline Markdown without its marks (for the search index and labels). */
export function plainText(text: string): string {
  return text.replace(INLINE, (_all, code?: string, bold?: string, label?: string) => code ?? bold ?? label ?? "");
}
