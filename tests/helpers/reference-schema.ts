import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv, { type ValidateFunction } from "ajv";

/**
 * The reference's published OpenAPI (spec/reference-openapi.v2.json, OpenAPI 3.0) as ajv
 * validators of its response schemas, one per operation and status code.
 *
 * OpenAPI 3.0 schemas are not JSON Schema; they are converted first:
 * - `nullable: true` becomes `type: [t, "null"]` (or `anyOf [schema, {type: null}]` where the
 *   schema has no `type`), and `null` joins an `enum`;
 * - `exclusiveMinimum: true` (3.0's boolean form) becomes the numeric form;
 * - `$ref`s to `#/components/schemas/*` are inlined;
 * - `example`/`examples`/`deprecated` are annotations (ajv runs with `strict: false`).
 * Formats: `date-time` is checked (an ISO 8601 timestamp); every other format (`uuid`, `email`,
 * `uri`, …) is accepted as a plain string, since the reference uses them as documentation.
 *
 * Waived keywords, each where the reference contradicts its own documented behaviour, are
 * listed in WAIVERS with the reason; nothing else is relaxed.
 */
type Schema = Record<string, unknown>;
type Spec = {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>;
  components?: { schemas?: Record<string, Schema> };
};

export const REFERENCE_SPEC_PATH = path.resolve(__dirname, "../../spec/reference-openapi.v2.json");

/**
 * Keywords removed from one operation's response schema, with why. Key: `METHOD path status`,
 * value: JSON-pointer-like paths (property names joined with "/") of the keyword to drop.
 */
export const WAIVERS: Record<string, { drop: string[]; why: string }> = {
  "POST /v2/payouts/batch 201": {
    drop: ["additionalProperties"],
    why:
      "The reference closes this object (additionalProperties: false) yet gives a caller no way to learn the IDs of the " +
      "requests a `requests[]` batch creates. Duebill adds `requestIds` (to track them), `metadata` (the balance and " +
      "approval flags every other pay answer has) and `batchPaymentTransaction` (the same call under the name the " +
      "secure-payment plans use); every field the reference defines keeps its type.",
  },
};

let spec: Spec | undefined;
export function referenceSpec(): Spec {
  spec ??= JSON.parse(readFileSync(REFERENCE_SPEC_PATH, "utf8")) as Spec;
  return spec;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function toJsonSchema(node: unknown, components: Record<string, Schema>, seen: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((n) => toJsonSchema(n, components, seen));
  if (!node || typeof node !== "object") return node;
  const s = node as Schema;
  if (typeof s.$ref === "string") {
    const name = s.$ref.replace("#/components/schemas/", "");
    if (seen.includes(name)) return {}; // a recursive reference: validated one level deep
    const target = components[name];
    if (!target) throw new Error(`Unresolved $ref ${s.$ref}`);
    return toJsonSchema(target, components, [...seen, name]);
  }
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "example" || k === "examples") continue;
    if (k === "properties" && v && typeof v === "object")
      out[k] = Object.fromEntries(Object.entries(v as Schema).map(([name, sub]) => [name, toJsonSchema(sub, components, seen)]));
    else out[k] = toJsonSchema(v, components, seen);
  }
  if (out.exclusiveMinimum === true) {
    out.exclusiveMinimum = out.minimum ?? 0;
    delete out.minimum;
  } else if (out.exclusiveMinimum === false) delete out.exclusiveMinimum;
  if (out.exclusiveMaximum === true) {
    out.exclusiveMaximum = out.maximum;
    delete out.maximum;
  } else if (out.exclusiveMaximum === false) delete out.exclusiveMaximum;
  if (out.nullable === true) {
    delete out.nullable;
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (typeof out.type === "string") return { ...out, type: [out.type, "null"] };
    return { anyOf: [out, { type: "null" }] };
  }
  delete out.nullable;
  return out;
}

function drop(schema: Schema, pointer: string): void {
  const parts = pointer.split("/");
  let node: Schema = schema;
  for (const p of parts.slice(0, -1)) {
    node = node[p] as Schema;
    if (!node) throw new Error(`Waiver path ${pointer} does not exist`);
  }
  const last = parts.at(-1)!;
  if (!(last in node)) throw new Error(`Waiver path ${pointer} does not exist`);
  delete node[last];
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
ajv.addFormat("date-time", { type: "string", validate: (s: string) => ISO_DATE_TIME.test(s) && !Number.isNaN(Date.parse(s)) });
for (const f of ["uuid", "email", "uri", "url", "date", "int32", "int64", "double", "float"]) ajv.addFormat(f, true);

const cache = new Map<string, ValidateFunction | null>();

/**
 * Stricter than the reference, never looser: where its schema is an `anyOf` of variants told
 * apart by `paymentType` (the secure-payment view and pay plan), an answer is held to the
 * variants naming its `paymentType` (else to those without one), not to any variant: the
 * reference's catch-all variant (only paymentType, status and branding required) would accept
 * a view missing every display field.
 */
function narrowed(schema: Schema, body: unknown): Schema {
  const variants = schema.anyOf as Schema[] | undefined;
  const kind = (body as { paymentType?: unknown } | null)?.paymentType;
  if (!variants || typeof kind !== "string") return schema;
  const typeOf = (v: Schema) => (v.properties as Record<string, Schema> | undefined)?.paymentType;
  const named = variants.filter((v) => (typeOf(v)?.enum as unknown[] | undefined)?.includes(kind));
  const candidates = named.length > 0 ? named.slice(0, 1) : variants.filter((v) => !typeOf(v));
  return candidates.length === 0 ? schema : { anyOf: candidates };
}

function schemaOf(method: string, p: string, status: number): Schema | null {
  const key = `${method.toUpperCase()} ${p} ${status}`;
  const doc = referenceSpec();
  const raw = doc.paths[p]?.[method.toLowerCase()]?.responses?.[String(status)]?.content?.["application/json"]?.schema;
  if (!raw) return null;
  const schema = toJsonSchema(raw, doc.components?.schemas ?? {}) as Schema;
  for (const pointer of WAIVERS[key]?.drop ?? []) drop(schema, pointer);
  return schema;
}

/**
 * The validator of a reference operation's response for `status` (narrowed to the answer's
 * `paymentType` variant, see `narrowed`), or null when the reference gives that status no JSON schema.
 */
export function referenceResponseValidator(method: string, p: string, status: number): ValidateFunction | null {
  const schema = schemaOf(method, p, status);
  if (!schema) return null;
  const validate = ((body: unknown) => {
    const narrow = narrowed(schema, body);
    const key = `${method.toUpperCase()} ${p} ${status} ${JSON.stringify(narrow === schema ? null : (narrow.anyOf as Schema[]).map((v) => (schema.anyOf as Schema[]).indexOf(v)))}`;
    let compiled = cache.get(key);
    if (!compiled) {
      compiled = ajv.compile(narrow);
      cache.set(key, compiled);
    }
    const ok = compiled(body);
    validate.errors = compiled.errors;
    return ok;
  }) as ValidateFunction;
  return validate;
}

/**
 * Operations the reference documents in prose only (added after its 0.13.0 OpenAPI,
 * docs/spec/reference-notes.md §3) whose answers its docs describe as another operation's: each is
 * held to that operation's schema for the same status — the whole answer, or with `items`, each
 * element of the array under that key (a list of what the single operation answers).
 */
export const REFERENCE_SHAPES: Record<string, { as: string; items?: string }> = {
  "POST /v2/secure-payments/{token}/calldata": { as: "GET /v2/secure-payments/{token}/pay" },
  "GET /v2/request": { as: "GET /v2/request/{requestId}", items: "requests" },
};

/** The validator of a REFERENCE_SHAPES operation's answer for `status`, or null when it has none. */
export function referenceShapeValidator(method: string, p: string, status: number): ValidateFunction | null {
  const shape = REFERENCE_SHAPES[`${method.toUpperCase()} ${p}`];
  if (!shape) return null;
  const [asMethod = "", asPath = ""] = shape.as.split(" ");
  const inner = referenceResponseValidator(asMethod, asPath, status);
  if (!inner) return null;
  const items = shape.items;
  if (!items) return inner;
  const validate = ((body: unknown) => {
    const list = (body as Record<string, unknown> | null)?.[items];
    if (!Array.isArray(list)) {
      validate.errors = [{ instancePath: `/${items}`, schemaPath: "#", keyword: "type", params: {}, message: "must be an array" }];
      return false;
    }
    for (const [i, item] of list.entries()) {
      if (!inner(item)) {
        validate.errors = (inner.errors ?? []).map((e) => ({ ...e, instancePath: `/${items}/${i}${e.instancePath}` }));
        return false;
      }
    }
    validate.errors = null;
    return true;
  }) as ValidateFunction;
  return validate;
}

/** Every reference operation (`METHOD path`) and the statuses it documents with a JSON schema. */
export function referenceSchemaStatuses(): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const [p, item] of Object.entries(referenceSpec().paths))
    for (const [m, op] of Object.entries(item)) {
      const statuses = Object.entries(op.responses ?? {})
        .filter(([, r]) => r.content?.["application/json"]?.schema)
        .map(([s]) => Number(s));
      out.set(`${m.toUpperCase()} ${p}`, statuses);
    }
  return out;
}
