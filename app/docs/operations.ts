import { type DocField, type DocOperation, typeLabel } from "@/components/docs/operation-card";
import { DEMO, demoApiKey } from "@/lib/accounts/demo";
import { env } from "@/lib/env";
import { errorBodySchema } from "@/lib/openapi/common";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { exampleParameter, exampleRequest, exampleResponse } from "@/lib/openapi/examples";
import { exampleContext, OPERATION_EXAMPLES } from "@/lib/openapi/operation-examples";
import { CREDENTIAL_HEADERS, curlSnippet } from "@/lib/openapi/snippets";
import { OPERATIONS } from "@/lib/operations/index";

type Parameter = DocOperation["parameters"][number];

type Schema = Record<string, unknown>;

interface OpenApiOperation {
  parameters: Parameter[];
  requestBody?: { content: { "application/json": { schema: Schema } } };
}

function deref(schema: Schema, components: Record<string, Schema>): Schema {
  const ref = schema.$ref;
  return typeof ref === "string" ? (components[ref.replace("#/components/schemas/", "")] ?? {}) : schema;
}

function fieldType(raw: Schema, components: Record<string, Schema>): string {
  const schema = deref(raw, components);
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives)) return [...new Set(alternatives.map((a) => fieldType(a, components)))].join(" | ");
  if (schema.type === "array" && schema.items) return `${fieldType(schema.items as Schema, components)}[]`;
  return typeLabel(schema);
}

/** The top-level fields of a JSON body, for the reference's field list. */
function bodyFields(raw: Schema | undefined, components: Record<string, Schema>): DocField[] | undefined {
  if (!raw) return undefined;
  const schema = deref(raw, components);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([name, prop]) => ({
    name,
    type: fieldType(prop, components),
    required: required.has(name),
    description: (prop.description ?? deref(prop, components).description) as string | undefined,
  }));
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/**
 * Everything /docs shows, per operation: its OpenAPI entry (parameters with descriptions), the
 * credentials, and examples generated from the operation's own zod schemas.
 */
export function docOperations(): { baseUrl: string; operations: DocOperation[]; errorExample: string; demo: boolean } {
  // In development the examples carry the demo account's credentials (`npm run dev` seeds it), so they run as pasted.
  const demo = env().NODE_ENV === "development";
  const credentials = demo ? { apiKey: demoApiKey(), clientId: DEMO.backendClientId } : undefined;
  const doc = buildOpenApiDocument(OPERATIONS) as {
    paths: Record<string, Record<string, OpenApiOperation>>;
    servers: { url: string }[];
    components: { schemas: Record<string, Schema> };
  };
  const baseUrl = doc.servers[0]?.url ?? "http://localhost:3000";
  const ctx = exampleContext();
  const operations = OPERATIONS.map((op): DocOperation => {
    const example = OPERATION_EXAMPLES[op.operationId]?.(ctx) ?? {};
    const documented = doc.paths[op.path]?.[op.method.toLowerCase()];
    const parameters = documented?.parameters ?? [];
    const pathParams = Object.fromEntries(
      parameters.filter((p) => p.in === "path").map((p) => [p.name, example.params?.[p.name] ?? exampleParameter(p.name, p.schema)]),
    );
    const query =
      example.query ??
      Object.fromEntries(parameters.filter((p) => p.in === "query" && p.required).map((p) => [p.name, exampleParameter(p.name, p.schema)]));
    const requestBody = "body" in example ? example.body : op.body ? exampleRequest(op.body) : undefined;
    const auth = example.auth ? [example.auth, ...op.auth.filter((m) => m !== example.auth)] : op.auth;
    const statuses = Object.keys(op.responses)
      .map(Number)
      .sort((a, b) => a - b);
    const success = example.status ?? statuses.find((s) => s < 300) ?? statuses[0]!;
    const successSpec = op.responses[success]!;
    return {
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      tag: op.tags[0] ?? "Other",
      summary: op.summary,
      description: op.description,
      credentials: op.auth.map((m) => ({ label: CREDENTIAL_HEADERS[m].label, header: CREDENTIAL_HEADERS[m].header })),
      parameters,
      bodyFields: bodyFields(documented?.requestBody?.content["application/json"].schema, doc.components.schemas),
      requestExample: requestBody === undefined ? undefined : json(requestBody),
      requires: (example.requires ?? []).map((id) => ({
        operationId: id,
        summary: OPERATIONS.find((o) => o.operationId === id)?.summary ?? id,
      })),
      placeholders: Object.entries(example.placeholders ?? {}).map(([name, description]) => ({ name, description })),
      bodyOptional: op.bodyOptional === true,
      response: {
        status: success,
        description: successSpec.description,
        example: successSpec.schema ? json(exampleResponse(successSpec.schema)) : undefined,
      },
      responses: statuses.map((s) => ({ status: s, description: op.responses[s]!.description })),
      curl: curlSnippet({
        method: op.method,
        path: op.path,
        baseUrl,
        auth,
        pathParams,
        query,
        body: requestBody,
        idempotent: op.idempotent,
        credentials,
      }),
    };
  });
  // The error shape from its schema, with the values of a typical 400.
  const errorExample = errorBodySchema.parse({
    ...(exampleResponse(errorBodySchema) as object),
    statusCode: 400,
    error: "Bad Request",
    message: "Invalid input",
    code: "validation_failed",
    errors: [{ field: "amount", message: "Expected a decimal string" }],
    requestId: "req_01JH3Q8Z6X9V2M4N7P5R8T1W3Y",
  });
  return { baseUrl, operations, errorExample: json(errorExample), demo };
}
