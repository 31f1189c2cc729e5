/**
 * A dark code panel: a title bar, then the code, which scrolls inside its own box. The box is
 * focusable and named (`name`, else the title), so a keyboard user can reach and scroll it.
 */
export function CodeBlock({
  title,
  code,
  label,
  name,
  ...data
}: {
  title: string;
  code: string;
  label?: string;
  name?: string;
  [k: `data-${string}`]: string;
}) {
  return (
    <figure className="min-w-0 overflow-hidden rounded-xl bg-slate-900 ring-1 ring-slate-800" {...data}>
      <figcaption className="flex items-center justify-between gap-2 border-b border-slate-700 px-4 py-2 text-xs font-medium text-slate-200">
        <span>{title}</span>
        {label ? <span className="font-mono text-slate-300">{label}</span> : null}
      </figcaption>
      <section
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
        tabIndex={0}
        aria-label={name ?? title}
        className="max-h-[28rem] overflow-auto focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-indigo-400"
      >
        <pre className="w-max min-w-full p-4 font-mono text-[12.5px] leading-relaxed text-slate-100">
          <code>{code}</code>
        </pre>
      </section>
    </figure>
  );
}
