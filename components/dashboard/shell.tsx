import Link from "next/link";
import type { ReactNode } from "react";
import { signOut } from "@/app/sign-in/actions";
import { type NavItem, NavLinks } from "@/components/dashboard/nav-links";
import { Card } from "@/components/ui/card";
import { Logo } from "@/components/ui/logo";

const NAV = [
  { href: "/dashboard", label: "Overview" },
  // A request's page is reached from its payment (and from a link): it belongs to Payments.
  { href: "/dashboard/payments", label: "Payments", also: ["/dashboard/requests"] },
  { href: "/dashboard/links", label: "Payment links" },
  { href: "/dashboard/recurring", label: "Recurring" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/keys", label: "Keys" },
  { href: "/dashboard/settings", label: "Settings" },
] as const satisfies readonly NavItem[];

/**
 * The signed-in frame: who is signed in, the sections, sign-out (revokes the session on the server),
 * and for an operator (lib/admin/access.ts `isAdmin`) a link to /admin.
 */
export function DashboardShell({
  account,
  who,
  operator = false,
  children,
}: {
  account: string;
  who: string;
  operator?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <Link href="/dashboard" className="flex min-w-0 items-center gap-2 text-base font-semibold text-slate-900">
            <Logo />
            <span className="truncate">{account}</span>
          </Link>
          <div className="flex min-w-0 items-center gap-3 text-sm">
            {operator ? (
              <Link
                href="/admin"
                className="rounded-md px-2 py-1 font-medium text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                Admin
              </Link>
            ) : null}
            <span className="hidden max-w-56 truncate text-slate-500 sm:inline" title={who}>
              {who}
            </span>
            <form action={signOut}>
              <button
                type="submit"
                className="rounded-md px-2 py-1 font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                Sign out
              </button>
            </form>
          </div>
        </div>
        <nav aria-label="Dashboard" className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-3 pb-2 sm:px-5">
          <NavLinks items={NAV} tone="light" />
        </nav>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8">{children}</main>
    </>
  );
}

export function Panel({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Card aria-label={title} padding="tight" className="min-w-0">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 className="min-w-0 text-base font-semibold text-slate-900 [overflow-wrap:anywhere]">{title}</h2>
        {action}
      </div>
      {children}
    </Card>
  );
}
