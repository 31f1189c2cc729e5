type Schema = Record<string, unknown>;

export interface DocOperation {
  operationId: string;
  summary: string;
  description?: string;
  parameters: { name: string; in: string; required: boolean; description?: string; schema: Schema }[];
  requestBody?: { content: { "application/json": { schema: Schema } } };
  responses: Record<string, { description: string }>;
  security: Record<string, string[]>[];
}

function typeLabel(schema: Schema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (typeof schema.type === "string") return schema.type;
  return "value";
}

export function OperationCard({ method, path, operation }: { method: string; path: string; operation: DocOperation }) {
  const credentials = operation.security.flatMap((s) => Object.keys(s));
  return (
    <section id={operation.operationId} className="scroll-mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 className="font-mono text-lg">
        <span className="mr-2 rounded bg-indigo-100 px-2 py-0.5 text-sm font-semibold text-indigo-800">{method.toUpperCase()}</span>
        {path}
      </h2>
      <p className="mt-2 font-medium">{operation.summary}</p>
      {operation.description ? <p className="mt-1 text-slate-600">{operation.description}</p> : null}
      <p className="mt-3 text-sm text-slate-600">Credentials: {credentials.length ? credentials.join(" or ") : "none"}</p>
      {operation.parameters.length > 0 ? (
        <table className="mt-4 w-full text-left text-sm">
          <caption className="sr-only">Parameters</caption>
          <thead>
            <tr className="border-b border-slate-200 text-slate-500">
              <th className="py-1 pr-4 font-medium">Parameter</th>
              <th className="py-1 pr-4 font-medium">In</th>
              <th className="py-1 pr-4 font-medium">Type</th>
              <th className="py-1 font-medium">Description</th>
            </tr>
          </thead>
          <tbody>
            {operation.parameters.map((p) => (
              <tr key={`${p.in}-${p.name}`} className="border-b border-slate-100 align-top">
                <td className="py-1 pr-4 font-mono">
                  {p.name}
                  {p.required ? <span className="text-rose-600"> *</span> : null}
                </td>
                <td className="py-1 pr-4">{p.in}</td>
                <td className="py-1 pr-4 font-mono text-xs">{typeLabel(p.schema)}</td>
                <td className="py-1 text-slate-600">{p.description ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {operation.requestBody ? (
        <details className="mt-4">
          <summary className="cursor-pointer text-sm font-medium">Request body (JSON Schema)</summary>
          <pre className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
            {JSON.stringify(operation.requestBody.content["application/json"].schema, null, 2)}
          </pre>
        </details>
      ) : null}
      <ul className="mt-4 space-y-1 text-sm">
        {Object.entries(operation.responses).map(([status, r]) => (
          <li key={status}>
            <span className="font-mono font-semibold">{status}</span> — {r.description}
          </li>
        ))}
      </ul>
    </section>
  );
}
