import Link from "next/link";
import type { ReactNode } from "react";
import { signOut } from "@/app/sign-in/actions";
import { NavLinks } from "@/components/dashboard/nav-links";
import { Logo } from "@/components/ui/logo";

const NAV = [
  { href: "/admin", label: "Health" },
  { href: "/admin/accounts", label: "Accounts" },
  { href: "/admin/audit", label: "Audit log" },
  { href: "/dashboard", label: "My dashboard" },
] as const;

/** The operator's frame: a dark bar so nobody mistakes it for an integrator's dashboard. */
export function AdminShell({ who, children }: { who: string; children: ReactNode }) {
  return (
    <>
      <header className="bg-slate-900 text-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <Link href="/admin" className="flex items-center gap-2 text-base font-semibold">
            <Logo />
            <span>Duebill operations</span>
          </Link>
          <div className="flex min-w-0 items-center gap-3 text-sm">
            <span className="hidden max-w-56 truncate text-slate-300 sm:inline" title={who}>
              {who}
            </span>
            <form action={signOut}>
              <button type="submit" className="rounded-md px-2 py-1 font-medium text-white ring-1 ring-slate-600 hover:bg-slate-800">
                Sign out
              </button>
            </form>
          </div>
        </div>
        <nav aria-label="Admin" className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-3 pb-2 sm:px-5">
          <NavLinks items={NAV} tone="dark" />
        </nav>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8">{children}</main>
    </>
  );
}
