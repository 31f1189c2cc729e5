import Link from "next/link";
import { CodeBlock } from "@/components/docs/code-block";
import { SiteHeader } from "@/components/docs/site-header";
import { cardClass } from "@/components/ui/card";
import { env } from "@/lib/env";

// The curl example shows this deployment's own URL (APP_URL, or localhost at PORT): read per request, not at build time.
export const dynamic = "force-dynamic";

const FEATURES = [
  { title: "Payment requests", text: "Create a request, hand the payer calldata for any wallet, and learn when it is paid." },
  { title: "Payouts", text: "One-off and batch payouts to contractors: one call returns the transactions to sign." },
  { title: "Hosted payment links", text: "A secure payment page with wallet connect, fee plans and screening, branded for your platform." },
  { title: "Recurring payouts", text: "The payer signs once; Duebill's relayer triggers each payment on schedule." },
];

/** Where each flow is walked through end to end, in the repository (README.md, then docs/). */
const GUIDES = [
  { title: "Quick start (two commands)", file: "README.md" },
  { title: "Create a payout and pay it on the devnet", file: "README.md" },
  { title: "Recurring payouts", file: "docs/guides/recurring.md" },
  { title: "Secure payment links and the hosted page", file: "docs/guides/links.md" },
  { title: "Webhooks", file: "docs/guides/webhooks.md" },
  { title: "Configuration", file: "docs/operations/configuration.md" },
];

const code = "rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800 ring-1 ring-slate-200";

export default function HomePage() {
  const appUrl = env().APP_URL.replace(/\/$/, "");
  return (
    <>
      <SiteHeader current="home" />
      <main className="mx-auto max-w-6xl space-y-6 px-4 py-10 sm:px-6 sm:py-14">
        <section aria-labelledby="home-title" className="max-w-3xl">
          <p className="mb-3 inline-flex items-center gap-2 rounded-full bg-indigo-50 px-3 py-1 text-xs font-medium text-indigo-700 ring-1 ring-indigo-200">
            Open source · MIT · Request Network API 0.13.0 compatible
          </p>
          <h1 id="home-title" className="text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
            Payment requests in stablecoins, without holding anyone&apos;s funds
          </h1>
          <p className="mt-4 text-base leading-7 text-slate-600 sm:text-lg">
            Duebill is an open-source, non-custodial service for payment requests, payouts, hosted payment links and recurring payouts on
            seven EVM chains and Tron. The API returns calldata, the payer&apos;s wallet signs and sends it, and Duebill watches the chain
            and tells you with signed webhooks. It is drop-in compatible with the Request Network API 0.13.0: an existing integration
            switches by changing its base URL.
          </p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link
              href="/docs"
              className="rounded-xl bg-indigo-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500"
            >
              Read the API reference
            </Link>
            <a
              href="/v2/openapi.json"
              className="rounded-xl bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50"
            >
              OpenAPI 3.1 document
            </a>
            <Link
              href="/sign-in"
              className="rounded-xl bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50"
            >
              Sign in to the dashboard
            </Link>
          </div>
          <p className="mt-3 text-sm text-slate-600">
            New here?{" "}
            <Link href="/register" className="font-medium text-indigo-700 underline-offset-4 hover:underline">
              Create an account
            </Link>{" "}
            to create payment links and API keys from the dashboard.
          </p>
        </section>

        <section aria-labelledby="quick-start" className={cardClass({ className: "grid gap-6 lg:grid-cols-2" })}>
          <div className="min-w-0 text-sm leading-6 text-slate-600">
            <h2 id="quick-start" className="text-lg font-semibold text-slate-900">
              Quick start
            </h2>
            <p className="mt-2">
              With no <code className={code}>DATABASE_URL</code>, <code className={code}>npm run dev</code> starts an embedded Postgres and
              a local devnet, creates a demo account and prints its API key.
            </p>
            <p className="mt-2">
              Then call the API with the printed key. Every endpoint, with example requests and responses, is in the{" "}
              <Link href="/docs" className="font-medium text-indigo-700 underline-offset-4 hover:underline">
                API reference
              </Link>
              ; the machine-readable document is at{" "}
              <a href="/v2/openapi.json" className="font-medium text-indigo-700 underline-offset-4 hover:underline">
                /v2/openapi.json
              </a>
              .
            </p>
          </div>
          <div className="min-w-0 space-y-3">
            <CodeBlock title="1. Install and start" label="shell" code={"npm install\nnpm run dev"} />
            <CodeBlock title="2. Call the API" label="curl" code={`curl -H "x-api-key: <printed key>" \\\n  ${appUrl}/v2/currencies`} />
          </div>
        </section>

        <section aria-label="What you can build" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map((f) => (
            <div key={f.title} className={cardClass({ padding: "tight" })}>
              <h2 className="text-base font-semibold text-slate-900">{f.title}</h2>
              <p className="mt-1.5 text-sm leading-6 text-slate-600">{f.text}</p>
            </div>
          ))}
        </section>

        <section aria-labelledby="guides" className={cardClass()}>
          <h2 id="guides" className="text-lg font-semibold text-slate-900">
            In the docs
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            <code className={code}>README.md</code> and the <code className={code}>docs/</code> folder of the repository walk through each
            flow end to end:
          </p>
          <ul className="mt-3 grid gap-x-6 gap-y-1.5 text-sm text-slate-700 sm:grid-cols-2">
            {GUIDES.map((g) => (
              <li key={g.title} className="flex gap-2">
                <span aria-hidden="true" className="text-indigo-500">
                  §
                </span>
                <span>
                  {g.title} <span className="text-xs text-slate-500">({g.file})</span>
                </span>
              </li>
            ))}
          </ul>
        </section>
      </main>
      <footer className="mx-auto max-w-6xl px-4 pb-10 text-xs text-slate-500 sm:px-6">
        Duebill is MIT-licensed. Non-custodial: payers&apos; wallets send funds directly to the recipient.
      </footer>
    </>
  );
}
