const METHOD_STYLE: Record<string, string> = {
  GET: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  POST: "bg-indigo-50 text-indigo-800 ring-indigo-200",
  PUT: "bg-amber-50 text-amber-900 ring-amber-200",
  PATCH: "bg-amber-50 text-amber-900 ring-amber-200",
  DELETE: "bg-rose-50 text-rose-800 ring-rose-200",
};

/** The HTTP method as a coloured badge (server and client components alike). */
export function MethodBadge({ method }: { method: string }) {
  return (
    <span
      className={`inline-block w-14 shrink-0 rounded-md px-1.5 py-0.5 text-center font-mono text-[11px] font-semibold ring-1 ${METHOD_STYLE[method] ?? "bg-slate-100 text-slate-700 ring-slate-200"}`}
    >
      {method}
    </span>
  );
}
