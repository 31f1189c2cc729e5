import Link from "next/link";

const linkClass = "rounded-md px-3 py-1.5 font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50";

/**
 * The one pager of the dashboard and admin lists: Newer/Older links, newest first. Numbered lists
 * give `page` (from 1), `pageCount` and `href(page)`, and it says "Page 2 of 5"; keyset lists (no
 * page numbers) give `prevHref`/`nextHref` instead. Nothing when there is no other page.
 */
export function Pager({
  page,
  pageCount,
  href,
  prevHref,
  nextHref,
  label,
}: {
  page?: number;
  pageCount?: number;
  href?: (page: number) => string;
  /** The newer page's address (keyset lists); wins over `href(page - 1)`. */
  prevHref?: string | null;
  /** The older page's address (keyset lists); wins over `href(page + 1)`. */
  nextHref?: string | null;
  label: string;
}) {
  const numbered = page !== undefined && pageCount !== undefined;
  const newer = prevHref ?? (numbered && href && page > 1 ? href(page - 1) : null);
  const older = nextHref ?? (numbered && href && page < pageCount ? href(page + 1) : null);
  if (!newer && !older) return null;
  return (
    <nav aria-label={label} className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm">
      {numbered ? (
        <span className="text-slate-600">
          Page {page} of {pageCount}
        </span>
      ) : (
        <span />
      )}
      <span className="flex gap-2">
        {newer ? (
          <Link href={newer} className={linkClass} rel="prev">
            ← Newer
          </Link>
        ) : null}
        {older ? (
          <Link href={older} className={linkClass} rel="next">
            Older →
          </Link>
        ) : null}
      </span>
    </nav>
  );
}
