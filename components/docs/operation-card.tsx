import { cardClass } from "@/components/ui/card";
import { CodeBlock } from "./code-block";
import { InlineMarkdown, Markdown, plainText } from "./markdown";
import { MethodBadge } from "./method-badge";

export { MethodBadge };

type Schema = Record<string, unknown>;

export interface DocField {
  name: string;
  type: string;
  required: boolean;
  description?: string;
}

export interface DocOperation {
  operationId: string;
  method: string;
  path: string;
  tag: string;
  summary: string;
  description?: string;
  credentials: { label: string; header: string }[];
  parameters: { name: string; in: string; required: boolean; description?: string; schema: Schema }[];
  bodyFields?: DocField[];
  bodyOptional: boolean;
  /** Example JSON body (pretty-printed), when the operation takes one. */
  requestExample?: string;
  /** The example's placeholders (`<requestId>`) and where each value comes from (Markdown). */
  placeholders: { name: string; description: string }[];
  /** Examples to run before this one (the state it needs). */
  requires: { operationId: string; summary: string }[];
  response: { status: number; description: string; example?: string };
  responses: { status: number; description: string }[];
  curl: string;
}

const REASON: Record<number, string> = { 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content" };

/** A path template that breaks after its slashes, never inside a segment. */
function BreakablePath({ path }: { path: string }) {
  const parts = path.split("/");
  return (
    <>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: segments of a fixed path
        <span key={i}>
          {i > 0 ? "/" : ""}
          {part}
          {i < parts.length - 1 ? <wbr /> : null}
        </span>
      ))}
    </>
  );
}

export function typeLabel(schema: Schema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  return "value";
}

function FieldList({ title, fields }: { title: string; fields: DocField[] }) {
  return (
    <div className="mt-6">
      <h4 className="border-b border-slate-200 pb-2 text-sm font-semibold text-slate-900">{title}</h4>
      <ul className="divide-y divide-slate-100">
        {fields.map((f) => (
          <li key={f.name} className="py-2.5 text-sm">
            <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
              <code className="font-mono font-semibold break-all text-slate-900">{f.name}</code>
              <span className="font-mono text-xs break-all text-slate-600">{f.type}</span>
              {f.required ? <span className="text-xs font-medium text-rose-700">required</span> : null}
            </div>
            {f.description ? (
              <p className="mt-0.5 text-slate-600">
                <InlineMarkdown text={f.description} />
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function OperationCard({ operation: op }: { operation: DocOperation }) {
  const groups = (["path", "query", "header"] as const)
    .map((where) => ({
      where,
      fields: op.parameters
        .filter((p) => p.in === where)
        .map((p) => ({ name: p.name, type: typeLabel(p.schema), required: p.required, description: p.description })),
    }))
    .filter((g) => g.fields.length > 0);
  const titles = { path: "Path parameters", query: "Query parameters", header: "Headers" };
  return (
    <section
      id={op.operationId}
      aria-labelledby={`${op.operationId}-title`}
      data-operation={op.operationId}
      data-has-body={op.requestExample ? "true" : "false"}
      className={cardClass({ padding: "none", className: "scroll-mt-20" })}
    >
      <div className="grid gap-6 p-5 sm:p-6 xl:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <div className="min-w-0">
          <div className="flex items-start gap-2">
            <MethodBadge method={op.method} />
            <code className="min-w-0 font-mono text-sm text-slate-700">
              <BreakablePath path={op.path} />
            </code>
          </div>
          <h3 id={`${op.operationId}-title`} className="mt-3 text-lg font-semibold text-slate-900">
            <a href={`#${op.operationId}`} className="hover:underline">
              <InlineMarkdown text={op.summary} />
            </a>
          </h3>
          {op.description ? <Markdown text={op.description} className="mt-2 text-sm leading-6 text-slate-600" /> : null}
          <p className="mt-4 flex flex-wrap items-center gap-1.5 text-xs text-slate-600">
            <span className="font-medium text-slate-700">Credentials:</span>
            {op.credentials.length === 0 ? (
              <span className="rounded-full bg-emerald-50 px-2 py-0.5 font-medium text-emerald-700 ring-1 ring-emerald-200">
                none (public)
              </span>
            ) : (
              op.credentials.map((c, i) => (
                <span key={c.header} className="flex items-center gap-1.5">
                  {i > 0 ? <span className="text-slate-600">or</span> : null}
                  <span className="rounded-full bg-slate-100 px-2 py-0.5 ring-1 ring-slate-200">
                    {c.label} <code className="font-mono text-slate-600">{c.header}</code>
                  </span>
                </span>
              ))
            )}
          </p>
          {groups.map((g) => (
            <FieldList key={g.where} title={titles[g.where]} fields={g.fields} />
          ))}
          {op.bodyFields && op.bodyFields.length > 0 ? (
            <FieldList title={op.bodyOptional ? "Body (JSON, may be empty)" : "Body (JSON)"} fields={op.bodyFields} />
          ) : null}
          <div className="mt-6">
            <h4 className="border-b border-slate-200 pb-2 text-sm font-semibold text-slate-900">Responses</h4>
            <ul className="mt-2 space-y-1.5 text-sm">
              {op.responses.map((r) => (
                <li key={r.status} className="flex gap-3">
                  <span className={`w-9 shrink-0 font-mono font-semibold ${r.status < 300 ? "text-emerald-800" : "text-slate-600"}`}>
                    {r.status}
                  </span>
                  <span className="min-w-0 text-slate-600">
                    <InlineMarkdown text={r.description} />
                  </span>
                </li>
              ))}
            </ul>
          </div>
        </div>
        <div className="min-w-0 space-y-4 xl:sticky xl:top-20 xl:self-start">
          <CodeBlock
            title={op.requestExample ? "Example request" : "Request"}
            label="curl"
            name={`Example request: ${plainText(op.summary)}`}
            code={op.curl}
            data-example="request"
          />
          {op.placeholders.length > 0 || op.requires.length > 0 ? (
            <div
              className="min-w-0 rounded-xl bg-amber-50 p-3 text-sm [overflow-wrap:anywhere] text-slate-700 ring-1 ring-amber-200"
              data-placeholders=""
            >
              {op.requires.map((r) => (
                <p key={r.operationId}>
                  First run{" "}
                  <a className="font-medium text-indigo-700 underline underline-offset-2" href={`#${r.operationId}`}>
                    <InlineMarkdown text={r.summary} />
                  </a>
                  .
                </p>
              ))}
              {op.placeholders.length > 0 ? <p className="font-medium text-slate-900">Before you run it, replace</p> : null}
              <ul className="mt-1 space-y-1">
                {op.placeholders.map((p) => (
                  <li key={p.name}>
                    <code className="font-mono text-[0.85em] font-semibold break-all text-slate-900">{p.name}</code>:{" "}
                    <InlineMarkdown text={p.description} />
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <CodeBlock
            title="Example response"
            label={`${op.response.status} ${REASON[op.response.status] ?? ""}`.trim()}
            name={`Example response: ${plainText(op.summary)}`}
            code={op.response.example ?? `HTTP ${op.response.status} — no body`}
            data-example="response"
          />
        </div>
      </div>
    </section>
  );
}
