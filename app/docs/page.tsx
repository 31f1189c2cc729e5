import type { Metadata } from "next";
import { OperationCard } from "@/components/docs/operation-card";
import { buildOpenApiDocument } from "@/lib/contracts/openapi";

export const metadata: Metadata = { title: "API reference" };

type OpenApiOperation = Parameters<typeof OperationCard>[0]["operation"];

export default function DocsPage() {
  const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, OpenApiOperation>>; info: { version: string } };
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
  return (
    <main className="mx-auto max-w-4xl px-6 py-12">
      <h1 className="text-3xl font-semibold tracking-tight">Duebill API reference</h1>
      <p className="mt-3 text-slate-600">
        Version {doc.info.version}. Every endpoint answers errors as{" "}
        <code className="rounded bg-slate-200 px-1">{'{"statusCode","error","message","code","errors?","requestId"}'}</code> and echoes an{" "}
        <code className="rounded bg-slate-200 px-1">x-request-id</code> header. Machine-readable:{" "}
        <a className="text-indigo-700 underline" href="/v2/openapi.json">
          /v2/openapi.json
        </a>
        .
      </p>
      <nav aria-label="Endpoints" className="mt-8 rounded-lg border border-slate-200 bg-white p-4">
        <ul className="space-y-1 font-mono text-sm">
          {operations.map(({ path, method, operation }) => (
            <li key={`${method} ${path}`}>
              <a className="hover:underline" href={`#${operation.operationId}`}>
                {method.toUpperCase()} {path}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-8 space-y-6">
        {operations.map(({ path, method, operation }) => (
          <OperationCard key={`${method} ${path}`} method={method} path={path} operation={operation} />
        ))}
      </div>
    </main>
  );
}
