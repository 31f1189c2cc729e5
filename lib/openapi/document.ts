import { z } from "zod";
import { env } from "@/lib/env";
import { browserMethods, CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS, CORS_MAX_AGE_SECONDS, isBrowserOperation } from "@/lib/http/cors";
import type { AuthMode, Operation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";

type JsonSchema = Record<string, unknown>;

const SECURITY: Record<AuthMode, { name: string; scheme: Record<string, unknown> }> = {
  apiKey: { name: "ApiKey", scheme: { type: "apiKey", in: "header", name: "x-api-key", description: "Server-side API key" } },
  clientId: {
    name: "ClientId",
    scheme: {
      type: "apiKey",
      in: "header",
      name: "x-client-id",
      description: "Client ID (`cli_...`); browser requests must come from one of its allowed domains (Origin)",
    },
  },
  orchestratorKey: {
    name: "OrchestratorKey",
    scheme: { type: "apiKey", in: "header", name: "x-orchestrator-key", description: "Orchestrator key (`orc_...`)" },
  },
  session: {
    name: "Session",
    scheme: { type: "http", scheme: "bearer", description: "Session token (or the httpOnly `session_token` cookie)" },
  },
};

/** zod → JSON Schema 2020-12 (the dialect of OpenAPI 3.1), named schemas hoisted to components. */
function schemaOf(schema: z.ZodType, io: "input" | "output", components: Record<string, JsonSchema>): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12", override: () => {} }) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  const { $defs, $schema: _s, ...rest } = out as JsonSchema & { $defs?: Record<string, JsonSchema> };
  for (const [name, def] of Object.entries($defs ?? {})) components[name] = def;
  const text = JSON.stringify(rest).replaceAll('"#/$defs/', '"#/components/schemas/');
  const meta = z.globalRegistry.get(schema) as { id?: string } | undefined;
  if (meta?.id) {
    components[meta.id] = JSON.parse(text.replace(/,?"id":"[^"]*"/, ""));
    return { $ref: `#/components/schemas/${meta.id}` };
  }
  return JSON.parse(text);
}

function parameters(op: Operation, components: Record<string, JsonSchema>): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [where, schema] of [
    ["path", op.params],
    ["query", op.query],
  ] as const) {
    if (!schema) continue;
    const obj = schemaOf(schema, "input", components) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, prop] of Object.entries(obj.properties ?? {})) {
      const { description, ...propSchema } = prop as JsonSchema & { description?: string };
      out.push({
        name,
        in: where,
        required: where === "path" || (obj.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: propSchema,
      });
    }
  }
  if (op.idempotent) {
    out.push({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: "Retry-safe writes: the first successful response is replayed for 24 h to the same key and body; another body → 409",
      schema: { type: "string", maxLength: 255 },
    });
  }
  return out;
}

const header = (description: string) => ({ description, schema: { type: "string" } });

/** Headers of a response a browser client ID's cross-origin call gets (lib/http/cors.ts). */
const CORS_RESPONSE_HEADERS = {
  "Access-Control-Allow-Origin": header(
    "The request's Origin, only when the presented x-client-id allows it (a browser call from one of its allowed domains); absent otherwise",
  ),
  "Access-Control-Expose-Headers": header(`With the grant: ${CORS_EXPOSE_HEADERS.join(", ")}`),
  Vary: header("Origin"),
};

/**
 * OPTIONS of a path: a plain OPTIONS answers 204 with Allow; a CORS preflight (Origin and
 * Access-Control-Request-Method) is granted only for the methods browser client IDs may call
 * there, only to an Origin that is an allowed domain of some active client ID.
 */
function optionsOperation(path: string, ops: readonly Operation[], components: Record<string, JsonSchema>): Record<string, unknown> {
  const methods = browserMethods(ops);
  const errors = Object.fromEntries(
    Object.entries(errorResponses(403, 429)).map(([status, spec]) => [
      status,
      { description: spec.description, content: { "application/json": { schema: schemaOf(spec.schema!, "output", components) } } },
    ]),
  );
  return {
    operationId: `options${path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    summary:
      methods.length > 0
        ? `Allowed methods; CORS preflight for ${methods.join(", ")} with x-client-id`
        : "Allowed methods (no cross-origin access)",
    description:
      methods.length > 0
        ? `Without \`Origin\` and \`Access-Control-Request-Method\`: 204 with \`Allow\`. A CORS preflight is granted (204) to an Origin that is an allowed domain of at least one active client ID — a preflight carries no x-client-id value, so the client ID itself is checked on the actual request, whose answer carries \`Access-Control-Allow-Origin\` only when that client ID allows the Origin. Never credentialed (no cookies, no \`Access-Control-Allow-Credentials\`); allowed request headers: ${CORS_ALLOW_HEADERS.join(", ")} (server credentials such as x-api-key are refused). Other methods, headers or origins: 403 without a grant.`
        : "Without `Origin` and `Access-Control-Request-Method`: 204 with `Allow`. No operation here takes a browser client ID, so every CORS preflight is refused (403, no grant): call it from your server or, for the session operations, from this application's own pages.",
    tags: ["CORS"],
    parameters: [
      { name: "Origin", in: "header", required: false, description: "The calling page's origin (a preflight)", schema: { type: "string" } },
      {
        name: "Access-Control-Request-Method",
        in: "header",
        required: false,
        description: "The method the page wants to call (a preflight)",
        schema: { type: "string" },
      },
      {
        name: "Access-Control-Request-Headers",
        in: "header",
        required: false,
        description: `Headers the page wants to send; allowed: ${CORS_ALLOW_HEADERS.join(", ")}`,
        schema: { type: "string" },
      },
    ],
    responses: {
      204: {
        description: "Allowed methods; for a granted preflight, the grant",
        headers: {
          Allow: header("Methods this path answers"),
          "Access-Control-Allow-Origin": header("A granted preflight: the request's Origin"),
          "Access-Control-Allow-Methods": header(`A granted preflight: ${methods.join(", ") || "(never granted here)"}`),
          "Access-Control-Allow-Headers": header(`A granted preflight: ${CORS_ALLOW_HEADERS.join(", ")}`),
          "Access-Control-Max-Age": header(`A granted preflight: ${CORS_MAX_AGE_SECONDS} (seconds)`),
        },
      },
      ...errors,
    },
    security: [],
  };
}

const cachedDocs = new WeakMap<readonly Operation[], string>();

/**
 * The OpenAPI 3.1 document served at /v2/openapi.json, built from the operations' zod schemas
 * (the registry, `OPERATIONS` of lib/operations, is passed in: this module sits below it).
 */
export function buildOpenApiDocument(operations: readonly Operation[]): Record<string, unknown> {
  const components: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const responses: Record<string, unknown> = {};
    for (const [status, spec] of Object.entries(op.responses)) {
      responses[status] = {
        description: spec.description,
        ...(isBrowserOperation(op) ? { headers: CORS_RESPONSE_HEADERS } : {}),
        ...(spec.contentType
          ? { content: { [spec.contentType]: { schema: { type: "string", format: "binary" } } } }
          : spec.content
            ? {
                content: Object.fromEntries(
                  Object.entries(spec.content).map(([type, schema]) => [type, { schema: schemaOf(schema, "output", components) }]),
                ),
              }
            : spec.schema
              ? { content: { "application/json": { schema: schemaOf(spec.schema, "output", components) } } }
              : {}),
      };
    }
    paths[op.path] ??= {};
    paths[op.path]![op.method.toLowerCase()] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: op.tags,
      parameters: parameters(op, components),
      ...(op.body
        ? {
            requestBody: {
              required: !op.bodyOptional,
              content: { "application/json": { schema: schemaOf(op.body, "input", components) } },
            },
          }
        : {}),
      responses,
      security: op.auth.map((m) => ({ [SECURITY[m].name]: [] })),
    };
  }
  for (const path of Object.keys(paths)) {
    paths[path]!.options = optionsOperation(
      path,
      operations.filter((op) => op.path === path),
      components,
    );
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Duebill API",
      version: "0.13.0",
      description:
        "Non-custodial payment requests, payouts, secure payment links and webhooks. Shapes follow the Request Network API 0.13.0, so existing integrations switch by changing the base URL.",
    },
    servers: [{ url: env().APP_URL }],
    paths,
    components: { schemas: components, securitySchemes: Object.fromEntries(Object.values(SECURITY).map((s) => [s.name, s.scheme])) },
  };
}

/** The document as JSON, built once per registry. */
export function openApiJson(operations: readonly Operation[]): string {
  let doc = cachedDocs.get(operations);
  if (doc === undefined) {
    doc = JSON.stringify(buildOpenApiDocument(operations));
    cachedDocs.set(operations, doc);
  }
  return doc;
}
