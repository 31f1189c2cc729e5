import Link from "next/link";
import { Logo } from "@/components/ui/logo";

/** Header of the public pages (home, docs, not found). */
export function SiteHeader({ current, wide }: { current?: "home" | "docs"; wide?: boolean }) {
  const link = "rounded-md px-2 py-1 text-sm font-medium transition-colors hover:bg-slate-100 hover:text-slate-900";
  return (
    <header className="sticky top-0 z-10 border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className={`mx-auto flex ${wide ? "max-w-7xl" : "max-w-6xl"} items-center justify-between gap-3 px-4 py-3 sm:px-6`}>
        <Link href="/" className="flex items-center gap-2 text-base font-semibold tracking-tight text-slate-900">
          <Logo />
          Duebill
        </Link>
        <nav aria-label="Site" className="flex items-center gap-1">
          <Link href="/docs" className={`${link} ${current === "docs" ? "text-indigo-700" : "text-slate-600"}`}>
            API reference
          </Link>
          <a href="/v2/openapi.json" className={`${link} text-slate-600`}>
            OpenAPI
          </a>
        </nav>
      </div>
    </header>
  );
}
