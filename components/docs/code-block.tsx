/** A dark code panel: a title bar, then the code, which scrolls inside its own box. */
export function CodeBlock({ title, code, label, ...data }: { title: string; code: string; label?: string; [k: `data-${string}`]: string }) {
  return (
    <figure className="min-w-0 overflow-hidden rounded-xl bg-slate-900 ring-1 ring-slate-800" {...data}>
      <figcaption className="flex items-center justify-between gap-2 border-b border-slate-800 px-4 py-2 text-xs font-medium text-slate-300">
        <span>{title}</span>
        {label ? <span className="font-mono text-slate-400">{label}</span> : null}
      </figcaption>
      <pre className="max-h-[28rem] overflow-auto p-4 font-mono text-[12.5px] leading-relaxed text-slate-100">
        <code>{code}</code>
      </pre>
    </figure>
  );
}
