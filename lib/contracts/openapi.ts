import { z } from "zod";
import { OPERATIONS } from "@/lib/contracts/index";
import { env } from "@/lib/env";
import type { AuthMode, Operation } from "@/lib/http/operation";

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

let cachedDoc: string | undefined;

/** The OpenAPI 3.1 document served at /v2/openapi.json, built from the operations' zod schemas. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const components: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const responses: Record<string, unknown> = {};
    for (const [status, spec] of Object.entries(op.responses)) {
      responses[status] = {
        description: spec.description,
        ...(spec.schema ? { content: { "application/json": { schema: schemaOf(spec.schema, "output", components) } } } : {}),
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

export function openApiJson(): string {
  cachedDoc ??= JSON.stringify(buildOpenApiDocument());
  return cachedDoc;
}
