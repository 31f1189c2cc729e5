import type { z } from "zod";
import { AppError, type FieldError } from "@/lib/errors";

export function zodFieldErrors(error: z.ZodError, prefix?: string): FieldError[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      const keys = (issue as { keys?: string[] }).keys ?? [];
      return {
        field: [...(prefix ? [prefix] : []), ...path, keys[0] ?? ""].filter(Boolean).join("."),
        message: `Unknown field${keys.length > 1 ? "s" : ""}: ${keys.join(", ")}`,
      };
    }
    const field = [...path].join(".") || (prefix ?? "body");
    return { field, message: issue.message };
  });
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown, prefix?: string): z.output<S> {
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
  if (optional && !req.body && !req.headers.get("content-type")) return {};
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/([a-z.+-]*\+)?json\b/i.test(type)) {
    throw new AppError("unsupported_media_type", "Content-Type must be application/json");
  }
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new AppError("payload_too_large", `Request body exceeds ${maxBytes} bytes`);
  const reader = req.body?.getReader();
  if (!reader) throw new AppError("validation_failed", "Validation failed", { errors: [{ field: "body", message: "Request body is required" }] });
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
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") {
    throw new AppError("validation_failed", "Validation failed", { errors: [{ field: "body", message: "Request body is required" }] });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid_json", "Request body is not valid JSON");
  }
}
