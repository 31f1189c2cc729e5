import Link from "next/link";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/docs/site-header";
import { Card } from "@/components/ui/card";

/** Frame of /sign-in and /register: the site header and one centred card. */
export function AuthShell({ title, children, footer }: { title: string; children: ReactNode; footer: ReactNode }) {
  return (
    <>
      <SiteHeader />
      <main className="mx-auto max-w-md px-4 py-10 sm:py-16">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        <div className="mt-6 space-y-6">{children}</div>
        <p className="mt-8 text-center text-sm text-slate-600">{footer}</p>
      </main>
    </>
  );
}

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card aria-label={title}>
      <h2 className="mb-4 text-base font-semibold text-slate-900">{title}</h2>
      {children}
    </Card>
  );
}

export const authLink = "font-medium text-indigo-700 underline-offset-4 hover:underline";
export { Link };
