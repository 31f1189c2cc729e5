import Link from "next/link";
import type { FirstRunChecklist as Checklist } from "@/lib/requests/first-run";

type Step = "destination" | "link" | "webhook" | "apiKey";

const ITEMS: { key: Step; label: string; href: string; cta: string }[] = [
  { key: "destination", label: "Choose where you get paid", href: "/dashboard/settings", cta: "Connect a wallet" },
  { key: "link", label: "Create your first payment link", href: "/dashboard/links", cta: "New link" },
  { key: "webhook", label: "Register a webhook", href: "/dashboard/webhooks", cta: "Add endpoint" },
  { key: "apiKey", label: "Create an API key", href: "/dashboard/keys", cta: "New key" },
];

/** The overview's first-run checklist: shown until all four are done, each item linking to where it is done. */
export function FirstRunChecklist({ checklist }: { checklist: Checklist }) {
  const done = ITEMS.filter((i) => checklist[i.key]).length;
  if (done === ITEMS.length) return null;
  return (
    <section
      aria-labelledby="first-run-heading"
      data-testid="first-run"
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-indigo-200"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="first-run-heading" className="text-base font-semibold text-slate-900">
          Get set up
        </h2>
        <p className="text-sm text-slate-500">
          {done} of {ITEMS.length} done
        </p>
      </div>
      <ol className="mt-3 divide-y divide-slate-100">
        {ITEMS.map((item) => {
          const ok = checklist[item.key];
          // A webhook is registered for a client ID: without one, the step starts on the Keys page.
          const needsClientId = item.key === "webhook" && !checklist.clientId;
          const href = needsClientId ? "/dashboard/keys" : item.href;
          const cta = needsClientId ? "Create a client ID first" : item.cta;
          return (
            <li key={item.key} className="flex items-center justify-between gap-3 py-2 text-sm" data-done={ok}>
              <span className={`flex min-w-0 items-center gap-2 ${ok ? "text-slate-500 line-through" : "text-slate-900"}`}>
                <span
                  aria-hidden="true"
                  className={`grid size-5 shrink-0 place-items-center rounded-full text-xs ${
                    ok ? "bg-emerald-600 text-white" : "ring-1 ring-inset ring-slate-300"
                  }`}
                >
                  {ok ? "✓" : ""}
                </span>
                {item.label}
                <span className="sr-only">{ok ? " (done)" : " (to do)"}</span>
              </span>
              {ok ? null : (
                <Link href={href} className="shrink-0 whitespace-nowrap font-medium text-indigo-700 underline-offset-2 hover:underline">
                  {cta} →
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
