import Link from "next/link";

const linkClass = "rounded-md px-3 py-1.5 font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50";

/** "Page 2 of 5" with Newer/Older links (numbered pages, page 1 = newest); nothing when everything fits on one page. */
export function Pager({
  page,
  pageCount,
  href,
  label,
}: {
  page: number;
  pageCount: number;
  href: (page: number) => string;
  label: string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
      <span className="text-slate-600">
        Page {page} of {pageCount}
      </span>
      <span className="flex gap-2">
        {page > 1 ? (
          <Link href={href(page - 1)} className={linkClass} rel="prev">
            ← Newer
          </Link>
        ) : null}
        {page < pageCount ? (
          <Link href={href(page + 1)} className={linkClass} rel="next">
            Older →
          </Link>
        ) : null}
      </span>
    </nav>
  );
}
