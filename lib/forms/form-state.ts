import type { z } from "zod";
import { type FormError, type FormFields, fieldSentence, formFieldOf } from "@/lib/errors";

/**
 * Forms that check in the browser what the server checks, with the same zod schema (the API's,
 * or one derived from it), and say which field is wrong in words. Everything under lib/forms/ is
 * browser-safe: it imports zod, lib/errors and zod-only schema modules, nothing that reaches the
 * server (tests/architecture/layers-app.test.ts checks this), so components may import it.
 */

/** What a dashboard form's server action answers: the error (if any), each field's, and what was typed. */
export interface FormState extends Omit<FormError, "error"> {
  error: string | null;
  /** The typed values, given back after an error so that nothing typed is lost. */
  values?: Record<string, string>;
}

/** zod's own messages ("Too big: expected string to have <=100 characters") are replaced by words; a schema's are kept. */
const ZOD_DEFAULT = /^(Invalid|Too big|Too small|Unrecognized|Expected)/;

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const k of path) v = v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/** One zod issue as the predicate of a sentence about its field ("is required", "at most 100 characters"). */
export function issueWords(issue: z.core.$ZodIssue, value: unknown): string {
  const empty = value === undefined || value === null || (typeof value === "string" && value.trim() === "");
  // Optional inputs left empty are dropped before the check (optionalText), so an issue on an empty value means a required one.
  if (empty) return issue.message.startsWith("is required") ? issue.message : "is required";
  if (!ZOD_DEFAULT.test(issue.message)) return issue.message;
  switch (issue.code) {
    case "too_big":
      return issue.origin === "string"
        ? `at most ${issue.maximum} characters`
        : issue.origin === "array"
          ? `at most ${issue.maximum} entries`
          : `at most ${issue.maximum}`;
    case "too_small":
      return issue.origin === "string"
        ? `at least ${issue.minimum} characters`
        : issue.origin === "array"
          ? `at least ${issue.minimum} entries`
          : `at least ${issue.minimum}`;
    case "invalid_format":
      return issue.format === "email" ? "must be an email address" : issue.format === "url" ? "must be a URL" : "has the wrong format";
    case "invalid_value":
      return `must be one of ${issue.values.map(String).join(", ")}`;
    case "invalid_type":
      return `must be a ${issue.expected}`;
    case "unrecognized_keys":
      return `has unknown fields: ${issue.keys.join(", ")}`;
    default:
      return "is not valid";
  }
}

export type FormCheck<T> = { ok: true; data: T } | { ok: false; fieldErrors: Record<string, string> };

/**
 * Checks a form's input (built the way the API's body is) with `schema`: the data, or each field's
 * first error in words by input name. Errors on paths no field shows go to the first field's entry
 * only if nothing else names it, so a refusal is never silent.
 */
export function checkForm<S extends z.ZodType>(schema: S, input: unknown, fields: FormFields): FormCheck<z.output<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  const fieldErrors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const apiPath = issue.path.map(String).join(".");
    const name = formFieldOf(fields, apiPath) ?? Object.keys(fields)[0]!;
    if (fieldErrors[name]) continue;
    fieldErrors[name] = fieldSentence(fields[name]!.label, issueWords(issue, valueAt(input, issue.path)));
  }
  return { ok: false, fieldErrors };
}

/** A refused check as a server action's state: the first field's sentence as the error, each field's, the typed values. */
export function refusedState(fieldErrors: Record<string, string>, values: Record<string, string>): FormState {
  const [field, error] = Object.entries(fieldErrors)[0] ?? ["", "Check the form"];
  return { error, field: field || undefined, fieldErrors, values };
}

/** The `maxLength` of a string schema (through optional, default and trim wrappers), for the input that feeds it. */
export function maxLengthOf(schema: z.ZodType): number | undefined {
  let s: unknown = schema;
  for (let i = 0; i < 5 && s; i++) {
    const def = (s as { def?: { type?: string; innerType?: unknown; in?: unknown } }).def;
    if (def?.type === "string") return (s as z.ZodString).maxLength ?? undefined;
    s = def?.innerType ?? def?.in;
  }
  return undefined;
}

/** FormData's text fields as plain strings (what the form's inputs held). */
export function formValues(form: FormData, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, String(form.get(n) ?? "")]));
}

/** "" (an empty optional input) → undefined, as the API's optional fields expect; other text trimmed. */
export const optionalText = (v: string | undefined): string | undefined => (v?.trim() ? v.trim() : undefined);
