import type { Metadata } from "next";
import { CodeBlock } from "@/components/docs/code-block";
import { DocsIndex, type IndexEntry } from "@/components/docs/docs-index";
import { plainText } from "@/components/docs/markdown";
import { OperationCard } from "@/components/docs/operation-card";
import { SiteHeader } from "@/components/docs/site-header";
import { cardClass } from "@/components/ui/card";
import { CREDENTIAL_HEADERS } from "@/lib/openapi/snippets";
import pkg from "@/package.json";
import { docOperations } from "./operations";

export const metadata: Metadata = {
  title: "API reference",
  description: "Every Duebill endpoint with its parameters, credentials, errors, and example requests and responses.",
};

/**
 * Rendered per request: the examples use the networks this deployment runs (its configuration at
 * run time, not at build time) and dates a week ahead of today.
 */
export const dynamic = "force-dynamic";

/** The Request Network API version whose shapes Duebill follows. */
const COMPATIBLE_WITH = "0.13.0";

const code = "rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800 ring-1 ring-slate-200";

export default function DocsPage() {
  const { baseUrl, operations, errorExample, demo } = docOperations();
  const tags = [...new Set(operations.map((o) => o.tag))];
  const index: IndexEntry[] = operations.map((o) => ({
    operationId: o.operationId,
    method: o.method,
    path: o.path,
    summary: plainText(o.summary),
    tag: o.tag,
  }));

  return (
    <>
      <SiteHeader current="docs" wide />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-8 lg:py-10">
        <aside className="mb-6 lg:mb-0">
          <div
            className={cardClass({
              padding: "none",
              className:
                "p-4 lg:sticky lg:top-20 lg:max-h-[calc(100vh-6rem)] lg:overflow-y-auto lg:rounded-none lg:bg-transparent lg:p-0 lg:pr-2 lg:pb-8 lg:shadow-none lg:ring-0",
            })}
          >
            <DocsIndex entries={index} />
          </div>
        </aside>
        <main className="min-w-0 space-y-6">
          <section aria-labelledby="docs-title" className={cardClass()}>
            <div className="flex flex-wrap items-center gap-2">
              <h1 id="docs-title" className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">
                API reference
              </h1>
              <span
                data-testid="docs-version"
                className="rounded-full bg-indigo-50 px-2.5 py-0.5 text-sm font-medium text-indigo-700 ring-1 ring-indigo-200"
              >
                Duebill {pkg.version}
              </span>
            </div>
            <p className="mt-3 text-sm leading-6 text-slate-600">
              Compatible with the Request Network API {COMPATIBLE_WITH}: an integration written against it switches to Duebill by changing
              its base URL. Every example below runs as pasted against this server: replace the placeholders it names (an ID an earlier
              example returns, a wallet&apos;s signature) and your credentials. The machine-readable OpenAPI 3.1 document is at{" "}
              <a className="font-medium text-indigo-700 underline-offset-4 hover:underline" href="/v2/openapi.json">
                /v2/openapi.json
              </a>
              .
            </p>
            <div className="mt-5 grid gap-6 lg:grid-cols-2">
              <div className="min-w-0 text-sm leading-6 text-slate-600">
                <h2 id="base-url" className="scroll-mt-20 text-base font-semibold text-slate-900">
                  Base URL
                </h2>
                <p className="mt-1">
                  <code className={`${code} break-all`}>{baseUrl}</code> (the server&apos;s <code className={code}>APP_URL</code>).
                </p>
                <h2 id="authentication" className="mt-4 scroll-mt-20 text-base font-semibold text-slate-900">
                  Authentication
                </h2>
                <p className="mt-1">
                  Each endpoint lists the credentials it accepts. <code className={`${code} whitespace-nowrap`}>npm run dev</code> prints
                  the demo account&apos;s API key and client IDs.
                  {demo ? " In development the curl examples below already carry them, so they run as pasted." : null}
                </p>
                <ul className="mt-2 space-y-1">
                  {Object.values(CREDENTIAL_HEADERS).map((c) => (
                    <li key={c.header}>
                      {c.label}: <code className={`${code} break-words`}>{`${c.header}: ${c.placeholder}`}</code>
                    </li>
                  ))}
                </ul>
                <h2 id="errors" className="mt-4 scroll-mt-20 text-base font-semibold text-slate-900">
                  Errors and retries
                </h2>
                <p className="mt-1">
                  Every error has the shape shown here, and every answer echoes an <code className={code}>x-request-id</code> header. Writes
                  that create something accept an <code className={code}>Idempotency-Key</code> header: a retry with the same key and body
                  replays the first answer.
                </p>
              </div>
              <div className="min-w-0 self-start">
                <CodeBlock title="Error response" label="400 Bad Request" code={errorExample} data-example="error" />
              </div>
            </div>
          </section>

          {tags.map((tag) => (
            <section key={tag} aria-label={tag} className="space-y-4">
              <h2 className="pt-2 text-xl font-semibold tracking-tight text-slate-900">{tag}</h2>
              {operations
                .filter((o) => o.tag === tag)
                .map((o) => (
                  <OperationCard key={o.operationId} operation={o} />
                ))}
            </section>
          ))}
        </main>
      </div>
    </>
  );
}
