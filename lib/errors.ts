/**
 * One error class and one code → status table (docs/spec/DECISIONS.md "Errors"). `code` is the stable
 * string clients branch on; `message` is human text.
 */
export const ERROR_STATUS = {
  validation_failed: 400,
  invalid_json: 400,
  tron_batch_unsupported: 400,
  multicall_validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  credential_not_allowed: 403,
  client_id_inactive: 403,
  origin_not_allowed: 403,
  destination_mismatch: 403,
  not_found: 404,
  method_not_allowed: 405,
  gone: 410,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** A Safe transaction awaits its owners for this secure payment link (lib/secure-payments/safe.ts). */
  payment_in_progress: 423,
  rate_limited: 429,
  internal_error: 500,
  upstream_unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  423: "Locked",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export interface FieldError {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;
  /** Documented fields an error adds to the body (e.g. the multicall envelope's `failures` and `cap`). */
  readonly extra?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { errors?: FieldError[]; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.errors = opts.errors;
    this.headers = opts.headers;
    this.extra = opts.extra;
  }
}

/** A 400 for one field: `invalidField("amount", "must be greater than 0")`. */
export function invalidField(field: string, message: string): AppError {
  return new AppError("validation_failed", "Validation failed", { errors: [{ field, message }] });
}

export function notFound(message = "Not found"): AppError {
  return new AppError("not_found", message);
}

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  code: ErrorCode;
  errors?: FieldError[];
  requestId: string;
  [extra: string]: unknown;
}

export function errorBody(err: AppError, requestId: string): ErrorBody {
  return {
    statusCode: err.status,
    error: STATUS_TEXT[err.status] ?? "Error",
    message: err.message,
    code: err.code,
    ...(err.errors ? { errors: err.errors } : {}),
    ...err.extra,
    requestId,
  };
}

/** What a server action returns for a refused input: the API's words, and the field at fault when it names one. */
export interface FormError {
  error: string;
  field?: string;
  /** With a form's fields: each field at fault (the form's name) → a sentence naming it in words. */
  fieldErrors?: Record<string, string>;
}

/**
 * A form's fields, by the name of their input: the label the page shows, and the API's path when it
 * differs (`amount` ↔ `requests.0.amount`). Nested API paths under `path` belong to the field too
 * (`allowedDomains.3` → `allowedDomains`).
 */
export type FormFields = Readonly<Record<string, { label: string; path?: string }>>;

/** The form field an API path names, or undefined when the form has none for it. */
export function formFieldOf(fields: FormFields, apiPath: string): string | undefined {
  for (const [name, spec] of Object.entries(fields)) {
    const p = spec.path ?? name;
    if (apiPath === p || apiPath.startsWith(`${p}.`)) return name;
  }
  return undefined;
}

/**
 * A field's label and an API message as one sentence: a predicate reads on ("Amount must be greater
 * than 0", "Amount is required"), a bound after a colon ("Name: at most 100 characters").
 */
export function fieldSentence(label: string, message: string): string {
  return /^(must|is|has|have|contains|cannot|can|needs|does|should)\b/.test(message) ? `${label} ${message}` : `${label}: ${message}`;
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * A server action's answer for an error, in the API's words (`field: message` when the error
 * names a field, the message otherwise). Given the form's fields, each error on one of them is a
 * sentence naming it in words, in `fieldErrors` by input name (and the first in `error`); an error on
 * no field of the form is its message alone, never an internal path. Anything but an AppError is not
 * the user's to fix: it is thrown again, to the page's error boundary and the log.
 */
export function toFormState(err: unknown, fields?: FormFields): FormError {
  if (!(err instanceof AppError)) throw err;
  const first = err.errors?.[0];
  if (!fields) return first ? { error: `${first.field}: ${first.message}`, field: first.field } : { error: err.message };
  const fieldErrors: Record<string, string> = {};
  for (const e of err.errors ?? []) {
    const name = formFieldOf(fields, e.field);
    if (name && !fieldErrors[name]) fieldErrors[name] = fieldSentence(fields[name]!.label, e.message);
  }
  const firstName = first ? formFieldOf(fields, first.field) : undefined;
  if (first && firstName) return { error: fieldErrors[firstName]!, field: firstName, fieldErrors };
  return { error: capitalised(first?.message ?? err.message), ...(Object.keys(fieldErrors).length ? { fieldErrors } : {}) };
}
