"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

export interface NavItem {
  href: string;
  label: string;
  /** Other paths that belong to this section (a request's page is under Payments): they and their sub-paths mark it current. */
  also?: readonly string[];
}

/** The section a path belongs to: the longest `href` (or `also` path) that is the path or a prefix of it at a "/". */
export function currentSection(items: readonly NavItem[], path: string): string | undefined {
  const within = (base: string) => path === base || path.startsWith(`${base}/`);
  return items
    .flatMap((n) => [n.href, ...(n.also ?? [])].filter(within).map((base) => ({ href: n.href, length: base.length })))
    .sort((a, b) => b.length - a.length)[0]?.href;
}

/** Section links with the current one marked (aria-current), for the dashboard and admin bars. */
export function NavLinks({ items, tone }: { items: readonly NavItem[]; tone: "light" | "dark" }) {
  const path = usePathname();
  const active = useRef<HTMLAnchorElement>(null);
  // On a phone the bar scrolls sideways: bring the current section into view.
  useEffect(() => {
    if (path) active.current?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [path]);
  const current = currentSection(items, path ?? "");
  const base = "shrink-0 rounded-md px-3 py-1.5 text-sm font-medium";
  const styles =
    tone === "light"
      ? { on: "bg-indigo-50 text-indigo-700", off: "text-slate-600 hover:bg-slate-100 hover:text-slate-900" }
      : { on: "bg-slate-700 text-white", off: "text-slate-300 hover:bg-slate-800 hover:text-white" };
  return (
    <>
      {items.map((n) => (
        <Link
          key={n.href}
          href={n.href}
          aria-current={n.href === current ? "page" : undefined}
          className={`${base} ${n.href === current ? styles.on : styles.off}`}
        >
          {n.label}
        </Link>
      ))}
    </>
  );
}
