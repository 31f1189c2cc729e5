import type { z } from "zod";
import { AppError, type FieldError } from "@/lib/errors";

export function zodFieldErrors(error: z.ZodError, prefix?: string): FieldError[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      const keys = (issue as { keys?: string[] }).keys ?? [];
      // An empty key ({"": 1}) is no path segment: the error then names the object that holds it.
      return {
        field: [...(prefix ? [prefix] : []), ...path, keys[0] ?? ""].filter(Boolean).join(".") || (prefix ?? "body"),
        message: `Unknown field${keys.length > 1 ? "s" : ""}: ${keys.map((k) => (k === "" ? '""' : k)).join(", ")}`,
      };
    }
    const field = [...path].join(".") || (prefix ?? "body");
    return { field, message: issue.message };
  });
}

const MAX_DEPTH = 20;
/** NUL (Postgres text cannot hold it) and UTF-16 surrogates without their pair (not valid Unicode). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this refuses
const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Input no field may carry, whatever its schema: strings with NUL or lone surrogates, and
 * nesting deeper than MAX_DEPTH. Checked before zod, so every such 400 names the field.
 */
function unsafeInput(value: unknown, path: string, depth: number): FieldError | null {
  if (typeof value === "string") return UNSAFE.test(value) ? { field: path, message: "contains a NUL character or invalid Unicode" } : null;
  if (value === null || typeof value !== "object") return null;
  if (depth >= MAX_DEPTH) return { field: path, message: `is nested more than ${MAX_DEPTH} levels deep` };
  for (const [k, v] of Object.entries(value)) {
    const field = path ? `${path}.${k}` : k;
    if (UNSAFE.test(k)) return { field, message: "field name contains a NUL character or invalid Unicode" };
    const bad = unsafeInput(v, field, depth + 1);
    if (bad) return bad;
  }
  return null;
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown, prefix?: string): z.output<S> {
  const unsafe = unsafeInput(input, prefix ?? "", 0);
  if (unsafe)
    throw new AppError("validation_failed", "Validation failed", { errors: [{ ...unsafe, field: unsafe.field || (prefix ?? "body") }] });
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new AppError("validation_failed", "Validation failed", { errors: zodFieldErrors(result.error, prefix) });
  }
  return result.data;
}

/** Query strings become a flat object; a repeated key keeps its last value. */
export function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) out[k] = v;
  return out;
}

/** Reads a JSON body with a byte limit, without trusting Content-Length alone. */
export async function readJsonBody(req: Request, maxBytes: number, optional = false): Promise<unknown> {
  const type = req.headers.get("content-type") ?? "";
  const isJson = /^application\/([a-z.+-]*\+)?json\b/i.test(type);
  // An optional body may be absent: no bytes, whatever Content-Type the client sent (servers hand
  // route handlers an empty stream rather than none, and many clients label an empty PUT as JSON or
  // text/plain, so the bytes are read to know).
  if (optional) {
    const text = await readText(req, maxBytes);
    if (text.trim() === "") return {};
    if (!isJson) throw new AppError("unsupported_media_type", "Content-Type must be application/json");
    return parseJsonText(text);
  }
  if (!isJson) throw new AppError("unsupported_media_type", "Content-Type must be application/json");
  const text = await readText(req, maxBytes);
  if (text.trim() === "") {
    throw new AppError("validation_failed", "Validation failed", { errors: [{ field: "body", message: "Request body is required" }] });
  }
  return parseJsonText(text);
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid_json", "Request body is not valid JSON", { errors: [{ field: "body", message: "is not valid JSON" }] });
  }
}

async function readText(req: Request, maxBytes: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new AppError("payload_too_large", `Request body exceeds ${maxBytes} bytes`);
  const reader = req.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new AppError("payload_too_large", `Request body exceeds ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
