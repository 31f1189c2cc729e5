import { z } from "zod";
import { stringByFormat, valueByName } from "@/lib/openapi/example-values";

/**
 * Example values for the API reference, generated from the same zod schemas that validate the
 * requests and shape the responses (via their JSON Schema, as in /v2/openapi.json): a schema's
 * `.meta({ example })` wins, then its default, then a placeholder by format, pattern, property
 * name and type. Request examples are checked against their schema
 * (tests/operations/openapi-examples.test.ts), so the docs never show a body the API would reject.
 */

type JsonSchema = Record<string, unknown>;

interface Ctx {
  defs: Record<string, JsonSchema>;
  root: JsonSchema;
  /** $refs being expanded: a recursive schema stops at its second visit. */
  seen: Set<string>;
  /** Include optional properties (requests fall back to required-only when the full example fails). */
  optional: boolean;
}

const NUMBERS_BY_NAME: readonly (readonly [RegExp, number])[] = [
  [/^chainid$/, 8453],
  [/blocknumber$/, 24_180_512],
  [/^decimals$/, 6],
  [/^statuscode$/, 200],
  [/^totalpayments$/, 12],
  [/^paymentindex$/, 1],
  [/^(limit|pagesize)$/, 20],
];

function resolve(schema: JsonSchema, ctx: Ctx): { schema: JsonSchema; ref?: string } {
  const ref = schema.$ref;
  if (typeof ref !== "string") return { schema };
  if (ref === "#") return { schema: ctx.root, ref };
  const name = ref.replace(/^#\/(\$defs|components\/schemas)\//, "");
  return { schema: ctx.defs[name] ?? {}, ref };
}

function clampString(value: string, schema: JsonSchema): string {
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
  let out = value;
  if (out.length > max) out = out.slice(0, max);
  while (out.length < min) out += "x";
  return out;
}

function exampleString(schema: JsonSchema, name: string | undefined): string {
  const byPattern = stringByFormat(undefined, schema.pattern);
  if (byPattern !== undefined) return byPattern;
  const byName = valueByName(name, "string");
  if (typeof byName === "string") return clampString(byName, schema);
  return clampString(stringByFormat(schema.format, undefined) ?? "string", schema);
}

function exampleNumber(schema: JsonSchema, name: string | undefined, integer: boolean): number {
  const key = name?.toLowerCase() ?? "";
  let value = NUMBERS_BY_NAME.find(([re]) => re.test(key))?.[1] ?? 1;
  const min = typeof schema.minimum === "number" ? schema.minimum : undefined;
  const exMin = typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : undefined;
  const max = typeof schema.maximum === "number" ? schema.maximum : undefined;
  const exMax = typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum : undefined;
  if (min !== undefined && value < min) value = min;
  if (exMin !== undefined && value <= exMin) value = integer ? Math.floor(exMin) + 1 : exMin + 1;
  if (max !== undefined && value > max) value = max;
  if (exMax !== undefined && value >= exMax) value = integer ? Math.ceil(exMax) - 1 : exMax - 1;
  return integer ? Math.trunc(value) : value;
}

function build(input: JsonSchema, name: string | undefined, ctx: Ctx): unknown {
  const { schema, ref } = resolve(input, ctx);
  if ("example" in input) return input.example;
  if ("example" in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ("default" in schema) return schema.default;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (ref) {
    if (ctx.seen.has(ref)) return null;
    ctx.seen.add(ref);
    try {
      return build(schema, name, ctx);
    } finally {
      ctx.seen.delete(ref);
    }
  }
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    const pick = alternatives.find((a) => a.type !== "null") ?? alternatives[0]!;
    return build(pick, name, ctx);
  }
  if (Array.isArray(schema.allOf)) {
    const parts = (schema.allOf as JsonSchema[]).map((s) => build(s, name, ctx));
    if (parts.every((p) => typeof p === "object" && p !== null && !Array.isArray(p))) return Object.assign({}, ...parts);
    return parts[0];
  }
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== "null") ?? "null") : schema.type;
  switch (type) {
    case "object":
      return exampleObject(schema, ctx);
    case "array": {
      const items = (schema.prefixItems as JsonSchema[] | undefined) ?? undefined;
      if (items) return items.map((s) => build(s, undefined, ctx));
      const item = build((schema.items as JsonSchema | undefined) ?? {}, singular(name), ctx);
      const count = Math.max(1, typeof schema.minItems === "number" ? schema.minItems : 1);
      return Array.from({ length: count }, () => structuredClone(item));
    }
    case "string":
      return exampleString(schema, name);
    case "integer":
    case "number":
      return exampleNumber(schema, name, type === "integer");
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      if (schema.properties) return exampleObject(schema, ctx);
      return name ? exampleString(schema, name) : {};
  }
}

function singular(name: string | undefined): string | undefined {
  if (!name) return name;
  if (/addresses$/i.test(name)) return name.slice(0, -2);
  return name.endsWith("s") ? name.slice(0, -1) : name;
}

function exampleObject(schema: JsonSchema, ctx: Ctx): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const out: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(properties)) {
    if (!ctx.optional && !required.has(key) && !("example" in prop)) continue;
    out[key] = build(prop, key, ctx);
  }
  const extra = schema.additionalProperties;
  if (Object.keys(properties).length === 0 && extra && typeof extra === "object") {
    out.key = build(extra as JsonSchema, "key", ctx);
  }
  return out;
}

function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  return z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
}

function fromJsonSchema(root: JsonSchema, optional: boolean): unknown {
  const ctx: Ctx = { defs: (root.$defs ?? {}) as Record<string, JsonSchema>, root, seen: new Set(), optional };
  return build(root, undefined, ctx);
}

/**
 * An example request body: every documented field when that example passes the schema, else
 * the required fields only (some fields exclude each other), else the full one anyway.
 */
export function exampleRequest(schema: z.ZodType): unknown {
  const json = toJsonSchema(schema, "input");
  const full = fromJsonSchema(json, true);
  if (schema.safeParse(full).success) return full;
  const minimal = fromJsonSchema(json, false);
  if (schema.safeParse(minimal).success) return minimal;
  return full;
}

/** An example response body (every field, optional ones included). */
export function exampleResponse(schema: z.ZodType): unknown {
  return fromJsonSchema(toJsonSchema(schema, "output"), true);
}

/** An example value for one parameter (path or query), from its JSON Schema in the OpenAPI document. */
export function exampleParameter(name: string, schema: JsonSchema): string {
  const value = fromJsonSchema({ type: "object", properties: { [name]: schema }, required: [name] }, true) as Record<string, unknown>;
  const v = value[name];
  return typeof v === "string" ? v : JSON.stringify(v);
}
