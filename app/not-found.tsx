import type { Metadata } from "next";
import Link from "next/link";
import { SiteHeader } from "@/components/docs/site-header";
import { cardClass } from "@/components/ui/card";

export const metadata: Metadata = { title: "Page not found", robots: { index: false, follow: false } };

export default function NotFound() {
  return (
    <>
      <SiteHeader />
      <main className="mx-auto max-w-xl px-4 py-12 sm:py-20">
        <section aria-labelledby="not-found-heading" className={cardClass({ padding: "roomy" })}>
          <p className="font-mono text-sm font-semibold text-indigo-600">404</p>
          <h1 id="not-found-heading" className="mt-1 text-2xl font-semibold tracking-tight text-slate-900">
            Page not found
          </h1>
          <p className="mt-2 text-sm leading-6 text-slate-600">
            There is nothing at this address. If you followed a payment link, check that you opened the complete link.
          </p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link href="/" className="rounded-xl bg-indigo-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500">
              Go to the home page
            </Link>
            <Link
              href="/docs"
              className="rounded-xl bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50"
            >
              API reference
            </Link>
          </div>
        </section>
      </main>
    </>
  );
}
