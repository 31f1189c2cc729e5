import fc from "fast-check";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import type { AuthMode } from "@/lib/auth/principal";
import { createSession } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { env, reloadEnv } from "@/lib/env";
import type { ApiRoute } from "@/lib/http/handler";
import type { Operation } from "@/lib/http/operation";
import { prefixedId } from "@/lib/ids";
import { OPERATIONS } from "@/lib/operations/index";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import {
  invoke,
  operationHandlers,
  operationUrl,
  opKey,
  PLAUSIBLE,
  pathParamNames,
  type RawResponse,
  sampleBody,
  schemaKeys,
} from "@/tests/helpers/operations";

/**
 * Property-based fuzzing of every registered operation (fast-check, fixed seed): with valid
 * credentials, so parsing is exercised past authentication, each operation gets arbitrary JSON,
 * valid-shaped bodies with one field made hostile (NUL, lone surrogates, 1e308, -0, 1e309, huge
 * strings, 50-level nesting, wrong types, arrays for objects, `__proto__` keys…), raw garbage,
 * hostile path parameters and query strings, malformed cookies and odd content types.
 * Every answer must be:
 * - below 500;
 * - free of stack traces and source file references;
 * - for 400: `errors[0].field` a non-empty string (except `tron_batch_unsupported`);
 * - for any error: the JSON error body, its `statusCode` equal to the status, with a `code`.
 * Runs per operation: FUZZ_RUNS (default below; raise it for a long run, e.g. FUZZ_RUNS=5000); FUZZ_SEED
 * explores other inputs (a failure prints the input; the seed reproduces the run).
 */

// No real DNS in tests: every webhook host resolves to a public address.
vi.mock("@/lib/webhooks/resolver", () => ({ webhookResolver: () => async () => [{ address: "93.184.216.34", family: 4 }] }));

const SEED = Number(process.env.FUZZ_SEED ?? 0x0d0eb111);
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

// ---------------------------------------------------------------------------------------------
// Hostile values
// ---------------------------------------------------------------------------------------------

function nested(depth: number, leaf: unknown, asArray = false): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { a: v };
  return v;
}

const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udc00",
  "\udbff\udbff",
  "\ud83d\ude00",
  "\u202e\u2066evil",
  "\ufeff1",
  "１２３",
  "٣",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  '"; DROP TABLE "Account"; --',
  "../../../../etc/passwd",
  "%00",
  "%E0%A4%A",
  "\\",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal log4j-style lookup, not a template
  "${jndi:ldap://x/a}",
  "{{7*7}}",
  "__proto__",
  "constructor",
  "NaN",
  "Infinity",
  "-Infinity",
  "1e309",
  "-1e309",
  "1e-400",
  "-0",
  "0",
  "-1",
  "0.0000000000000000001",
  "1".repeat(80),
  `${"9".repeat(78)}.9`,
  " 1",
  "1 ",
  "1,5",
  "0x",
  `0x${"f".repeat(64)}`,
  `0x${"0".repeat(40)}`,
  "T".repeat(34),
  "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW",
  `01${"0".repeat(64)}`,
  "cli_",
  "orc_",
  "https://127.0.0.1/x",
  "javascript:alert(1)",
  "a".repeat(101),
  "a".repeat(256),
  "é".repeat(70),
  "a".repeat(5_000),
];

/** Values that one field of a valid body is replaced with (a JSON value, or raw JSON text). */
const HOSTILE_VALUES: unknown[] = [
  ...HOSTILE_STRINGS,
  null,
  true,
  false,
  0,
  1,
  -1,
  1.5,
  1e308,
  -1e308,
  5e-324,
  Number.MAX_SAFE_INTEGER + 2,
  [],
  {},
  [1, 2],
  [null],
  { a: 1 },
  nested(50, "x"),
  nested(50, 1, true),
  nested(19, "ok"),
  "z".repeat(600_000),
];

/** Raw JSON tokens JSON.stringify cannot produce: placed as text where a value goes. */
const RAW_TOKENS = ["-0", "1e309", "-1e309", "1E-400", "123456789012345678901234567890", "0.1e1", "1e1000000", "-0.0e0"];

const RAW_BODIES = [
  "",
  " ",
  "null",
  "true",
  "0",
  "-0",
  "1e309",
  '"string"',
  "[]",
  "[{}]",
  "{",
  "}",
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"\\u0000":1}',
  '{"\\ud800":1}',
  "\u0000",
  "\ufeff{}",
  "[".repeat(5_000),
  `${"[".repeat(50)}${"]".repeat(50)}`,
  `${'{"a":'.repeat(60)}1${"}".repeat(60)}`,
  // Over MAX_BODY_BYTES (1 MiB by default): 413, read no further.
  `{"a":"${"x".repeat(1_100_000)}"}`,
];

/** Odd content types (a well-formed one is sent most of the time). */
const ODD_CONTENT_TYPES = [
  "application/json; charset=utf-8",
  "application/vnd.api+json",
  "APPLICATION/JSON",
  "application/json; charset=utf-16",
  "application/jsonx",
  "application/json-seq",
  "text/plain",
  "text/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/octet-stream",
  "*/*",
  "",
];

const MALFORMED_COOKIES = [
  "session_token=%E0%A4%A",
  "session_token=%",
  "session_token=",
  "session_token",
  "session_token=;session_token=%ZZ",
  "=; ;;=",
  `session_token=${"x".repeat(5_000)}`,
  'session_token="quoted"',
  "session_token=a=b=c",
  "other=1; session_token=%C0%80",
];

/** Credential headers that are malformed rather than merely wrong. */
const ODD_CREDENTIALS: Record<string, string>[] = [
  { authorization: "Bearer" },
  { authorization: "Bearer " },
  { authorization: `Bearer ${"x".repeat(300)}` },
  { authorization: "Bearer %E0%A4%A" },
  { authorization: "Basic Zm9vOmJhcg==" },
  { authorization: "bearer\tabc" },
  { "x-api-key": "" },
  { "x-api-key": " " },
  { "x-api-key": `key_${"\u00e9".repeat(20)}` },
  { "x-api-key": "k".repeat(4_000) },
  { "x-client-id": "cli_" },
  { "x-client-id": `cli_${"a".repeat(100)}` },
  { "x-client-id": "cli_\u00ff\u00fe" },
  { "x-client-id": "cli_x", origin: "null" },
  { "x-orchestrator-key": "orc_" },
  { "x-orchestrator-key": `orc_${"\u00e9".repeat(30)}` },
  { origin: "null" },
  { origin: "https://shop.example." },
  { origin: "HTTPS://SHOP.EXAMPLE:443" },
  { origin: "%E0%A4%A" },
];

const RAW_QUERY_FRAGMENTS = [
  "%E0%A4%A",
  "%",
  "%zz",
  "%00",
  "%ED%A0%80",
  "%C0%80",
  "a=%FF",
  "&&&",
  "=",
  "==x",
  "a[]=1&a[]=2",
  "a.b=1",
  "__proto__[x]=1",
  "+",
  "%2B",
];

// ---------------------------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------------------------

/** Any UTF-16 code unit, lone surrogates included. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const wildString = fc.oneof(
  fc.string({ unit: anyCodeUnit, maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(...HOSTILE_STRINGS),
);
/** Header values must be ByteStrings without CR, LF or NUL (the Request constructor refuses the rest). */
const headerChar = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })).map((c) => String.fromCharCode(c));
const headerValue = fc.string({ unit: headerChar, maxLength: 60 });

/** Every path in a JSON value (object keys and array indexes), the root excluded. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== "object") return [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
}

function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = value;
  return copy;
}

function deleteAt(root: unknown, path: (string | number)[]): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (Array.isArray(node)) node.splice(Number(last), 1);
  else delete node[last];
  return copy;
}

const MARK = "\u0001RAW\u0001";

/** A body as raw text: JSON, or JSON with a raw token or extra key spliced in. */
function bodyArb(op: Operation, fx: Fixtures): fc.Arbitrary<{ text: string; kind: string }> {
  const sample = sampleBody(op);
  for (const [k, v] of Object.entries(fx.bodyOverrides)) if (k in sample) sample[k] = v;
  const paths = pathsOf(sample);
  const pathArb = paths.length > 0 ? fc.constantFrom(...paths) : fc.constant(["field"] as (string | number)[]);
  const json = (v: unknown, kind: string) => ({ text: JSON.stringify(v), kind });
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(json(sample, "valid sample")) },
    {
      weight: 6,
      arbitrary: fc
        .tuple(pathArb, fc.oneof(fc.constantFrom(...HOSTILE_VALUES), wildString))
        .map(([path, v]) => json(setAt(sample, path, v), `sample with ${path.join(".")} replaced`)),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(pathArb, fc.constantFrom(...RAW_TOKENS)).map(([path, token]) => ({
        text: JSON.stringify(setAt(sample, path, MARK)).replace(JSON.stringify(MARK), token),
        kind: `sample with ${path.join(".")} = ${token}`,
      })),
    },
    {
      weight: 1,
      arbitrary: pathArb.map((path) => {
        // The same field as an array, or an array field as an object.
        const current = path.reduce<unknown>((n, k) => (n as Record<string | number, unknown>)[k], sample);
        const swapped = Array.isArray(current) ? { ...current } : [current];
        return json(setAt(sample, path, swapped), `sample with ${path.join(".")} wrapped`);
      }),
    },
    { weight: 1, arbitrary: pathArb.map((path) => json(deleteAt(sample, path), `sample without ${path.join(".")}`)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom("__proto__", "constructor", "prototype", "", "a.b", "\u00e9", "toString"), fc.jsonValue({ maxDepth: 2 }))
        .map(([key, v]) => ({
          // Spliced as text: an own "__proto__" key cannot be made with an object literal.
          text: `{${JSON.stringify(key)}:${JSON.stringify(v)}${Object.keys(sample).length > 0 ? "," : ""}${JSON.stringify(sample).slice(1)}`,
          kind: `sample with extra key ${JSON.stringify(key)}`,
        })),
    },
    { weight: 1, arbitrary: fc.constant(json([sample], "sample in an array")) },
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => json(v, "arbitrary JSON")) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: anyCodeUnit }).map((v) => json(v, "arbitrary JSON, any code units")) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((text) => ({ text, kind: "raw text" })) },
    { weight: 1, arbitrary: fc.string({ unit: anyCodeUnit, maxLength: 80 }).map((text) => ({ text, kind: "random text" })) },
  );
}

type Credential = AuthMode | "none" | "malformed cookie" | "session cookie" | "browser client ID" | "odd headers";

interface Spec {
  credential: Credential;
  /** For "odd headers": which of ODD_CREDENTIALS. */
  odd: number;
  params: Record<string, string>;
  query: string;
  body?: { text: string; kind: string };
  contentType: string;
  cookie?: string;
  idempotencyKey?: string;
  requestIdHeader?: string;
}

/** Real objects of the fuzzed account, so some requests reach past the lookup of their object. */
interface Fixtures {
  apiKey: string;
  clientId: string;
  browserClientId: string;
  orchestratorKey: string;
  walletUser: { id: string; accountId: string };
  emailUser: { id: string; accountId: string };
  walletSession: string;
  emailSession: string;
  /** Top-level sample body fields made to fit this account (the wallet its wallet session controls). */
  bodyOverrides: Record<string, unknown>;
  /** Real values by parameter name (request IDs, the destination, the link token, the webhook and its delivery…). */
  values: Record<string, string[]>;
}

function paramArb(name: string, fx: Fixtures): fc.Arbitrary<string> {
  const real = fx.values[name] ?? [];
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...(real.length > 0 ? real : [PLAUSIBLE[name] ?? "plausible"])) },
    { weight: 1, arbitrary: fc.constant(PLAUSIBLE[name] ?? "plausible") },
    { weight: 3, arbitrary: wildString },
  );
}

function queryArb(op: Operation, fx: Fixtures): fc.Arbitrary<string> {
  const keys = schemaKeys(op.query);
  const pair = (k: string) =>
    fc.option(
      paramArb(k, fx).map((v) => new URLSearchParams({ [k]: v }).toString()),
      { nil: undefined, freq: 3 },
    );
  const known = fc.tuple(...keys.map(pair)).map((parts) => parts.filter((p): p is string => p !== undefined));
  const extra = fc.array(
    fc.oneof(
      fc.constantFrom(...RAW_QUERY_FRAGMENTS),
      fc.tuple(fc.constantFrom(...keys, "x", "wallet", "__proto__"), fc.constantFrom(...RAW_QUERY_FRAGMENTS)).map(([k, v]) => `${k}=${v}`),
      fc.tuple(wildString, wildString).map(([k, v]) => new URLSearchParams([[k, v]]).toString()),
    ),
    { maxLength: 2 },
  );
  return fc.tuple(known, extra).map(([a, b]) => [...a, ...b].join("&"));
}

function specArb(op: Operation, fx: Fixtures): fc.Arbitrary<Spec> {
  const modes: Credential[] = [...op.auth];
  if (op.auth.includes("session")) modes.push("session cookie");
  if (op.auth.includes("clientId") && op.browser !== false) modes.push("browser client ID");
  const credential = fc.oneof(
    { weight: 12, arbitrary: modes.length > 0 ? fc.constantFrom(...modes) : fc.constant<Credential>("none") },
    { weight: 2, arbitrary: fc.constantFrom<Credential>("none", "malformed cookie", "odd headers") },
  );
  const params = fc.record(Object.fromEntries(pathParamNames(op).map((n) => [n, paramArb(n, fx)])) as Record<string, fc.Arbitrary<string>>);
  const hasBody = op.body !== undefined && op.method !== "GET";
  return fc.record({
    credential,
    odd: fc.nat({ max: ODD_CREDENTIALS.length - 1 }),
    params,
    query: queryArb(op, fx),
    body: hasBody ? fc.option(bodyArb(op, fx), { nil: undefined, freq: 12 }) : fc.constant(undefined),
    contentType: fc.oneof(
      { weight: 6, arbitrary: fc.constant("application/json") },
      { weight: 1, arbitrary: fc.constantFrom(...ODD_CONTENT_TYPES) },
    ),
    cookie: fc.option(fc.oneof(fc.constantFrom(...MALFORMED_COOKIES), headerValue), { nil: undefined, freq: 4 }),
    idempotencyKey: op.idempotent
      ? fc.option(fc.oneof(headerValue, fc.constant("k".repeat(300))), { nil: undefined, freq: 2 })
      : fc.constant(undefined),
    requestIdHeader: fc.option(headerValue, { nil: undefined, freq: 4 }),
  });
}

// ---------------------------------------------------------------------------------------------
// Running a spec, checking the answer
// ---------------------------------------------------------------------------------------------

let handlers: Map<Operation, ApiRoute>;
let requests = 0;
let serverErrors = 0;
const statusCounts = new Map<number, number>();
const violations: { op: string; problem: string; input: string }[] = [];

/** The fixture's session of that kind; a fresh one for logout, which revokes the session it is called with. */
async function sessionOf(fx: Fixtures, kind: "wallet" | "email", fresh: boolean): Promise<string> {
  if (fresh) return (await createSession(kind === "wallet" ? fx.walletUser : fx.emailUser, kind)).token;
  return kind === "wallet" ? fx.walletSession : fx.emailSession;
}

async function headersFor(op: Operation, spec: Spec, fx: Fixtures): Promise<Record<string, string>> {
  const logout = op.operationId === "logout";
  const h: Record<string, string> = {};
  switch (spec.credential) {
    case "apiKey":
      h["x-api-key"] = fx.apiKey;
      break;
    case "clientId":
      h["x-client-id"] = fx.clientId;
      break;
    case "browser client ID":
      h["x-client-id"] = fx.browserClientId;
      h.origin = "https://shop.example";
      break;
    case "orchestratorKey":
      h["x-orchestrator-key"] = fx.orchestratorKey;
      break;
    case "session":
      h.authorization = `Bearer ${await sessionOf(fx, "wallet", logout)}`;
      break;
    case "session cookie":
      h.cookie = `session_token=${await sessionOf(fx, "email", logout)}`;
      h.origin = new URL(env().APP_URL).origin;
      break;
    case "malformed cookie":
      h.cookie = "session_token=%E0%A4%A";
      break;
    case "odd headers":
      Object.assign(h, ODD_CREDENTIALS[spec.odd]);
      break;
    case "none":
      break;
  }
  // An extra, odd cookie rides along (the session, when sent by cookie, comes first).
  if (spec.cookie !== undefined) h.cookie = h.cookie ? `${h.cookie}; ${spec.cookie}` : spec.cookie;
  if (spec.body && spec.contentType) h["content-type"] = spec.contentType;
  if (spec.idempotencyKey !== undefined) h["idempotency-key"] = spec.idempotencyKey;
  if (spec.requestIdHeader !== undefined) h["x-request-id"] = spec.requestIdHeader;
  return h;
}

function describeSpec(spec: Spec): string {
  const body = spec.body
    ? `${spec.body.kind}: ${spec.body.text.length > 300 ? `${spec.body.text.slice(0, 300)}… (${spec.body.text.length} chars)` : spec.body.text}`
    : "none";
  return JSON.stringify({ ...spec, body });
}

function problemsOf(res: RawResponse): string[] {
  const out: string[] = [];
  if (res.status >= 500) out.push(`status ${res.status}`);
  if (/^\s{2,}at \S/m.test(res.text) || /\bat .*\(.*:\d+:\d+\)/.test(res.text)) out.push("stack trace in the body");
  if (/\.tsx?:\d+/.test(res.text) || /node_modules\//.test(res.text)) out.push("source file reference in the body");
  if (res.status >= 400) {
    const body = res.json as { statusCode?: unknown; code?: unknown; errors?: { field?: unknown }[] } | undefined | null;
    if (!body || typeof body !== "object") out.push(`${res.status} without a JSON error body`);
    else {
      if (body.statusCode !== res.status || typeof body.code !== "string") out.push(`${res.status} error body without statusCode/code`);
      if (res.status === 400 && body.code !== "tron_batch_unsupported") {
        const field = body.errors?.[0]?.field;
        if (typeof field !== "string" || field === "") out.push(`400 (${String(body.code)}) without errors[0].field`);
      }
    }
  }
  return out;
}

async function run(op: Operation, spec: Spec, fx: Fixtures): Promise<void> {
  const headers = await headersFor(op, spec, fx);
  // The handler reads its params from the route context (as under Next); the URL carries the query.
  const url = operationUrl(op, Object.fromEntries(pathParamNames(op).map((n) => [n, "p"]))) + (spec.query ? `?${spec.query}` : "");
  const res = await invoke(handlers.get(op)!, url, { method: op.method, headers, params: spec.params, body: spec.body?.text });
  requests += 1;
  statusCounts.set(res.status, (statusCounts.get(res.status) ?? 0) + 1);
  if (res.status >= 500) serverErrors += 1;
  for (const problem of problemsOf(res)) {
    violations.push({ op: opKey(op), problem: `${problem}: ${res.text.slice(0, 300)}`, input: describeSpec(spec) });
  }
}

// ---------------------------------------------------------------------------------------------
// Fixtures and the suite
// ---------------------------------------------------------------------------------------------

const PAYEE = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";

/** A fresh account with one object of each kind (fuzzing DELETE or PUT must not starve the next operation). */
async function fixtures(): Promise<Fixtures> {
  const it = await makeIntegrator();
  const accountId = it.account.id;
  // Valid-shaped destination bodies register the wallet session's own wallet (proof of control).
  const walletAddress = privateKeyToAccount(generatePrivateKey()).address;
  const walletUser = await db().user.create({ data: { id: prefixedId("usr_"), accountId, walletAddress: walletAddress.toLowerCase() } });
  const emailUser = await db().user.create({ data: { id: prefixedId("usr_"), accountId, email: `${prefixedId("u")}@example.com` } });
  const byOp = (method: string, path: string) => {
    const op = OPERATIONS.find((o) => o.method === method && o.path === path)!;
    return async (headers: Record<string, string>, json?: unknown, params: Record<string, string> = {}) => {
      const res = await invoke(handlers.get(op)!, operationUrl(op, params), {
        method: op.method,
        headers: { ...headers, ...(json === undefined ? {} : { "content-type": "application/json" }) },
        params,
        body: json === undefined ? undefined : JSON.stringify(json),
      });
      if (res.status >= 300) throw new Error(`fixture ${method} ${path}: ${res.status} ${res.text}`);
      return res.json as Record<string, unknown>;
    };
  };
  const key = { "x-api-key": it.apiKey };
  const request = await byOp("POST", "/v2/request")(key, {
    amount: "12.5",
    invoiceCurrency: "USDC-base",
    paymentCurrency: "USDC-base",
    payee: PAYEE,
  });
  const dest = await byOp("POST", "/v2/payee-destination")(
    { authorization: `Bearer ${(await createSession(walletUser, "wallet")).token}` },
    { currency: "USDC-base" },
  );
  const link = await byOp("POST", "/v2/secure-payments")(key, { requests: [{ amount: "10" }] });
  const hook = await byOp("POST", "/v1/webhook")({ "x-client-id": it.clientId }, { url: "https://hooks.example.test/fuzz" });
  await byOp("POST", "/v1/webhook/test")({ "x-client-id": it.clientId }, { eventType: "payment.confirmed" });
  const deliveries = await byOp("GET", "/v1/webhook/{id}/deliveries")({ "x-client-id": it.clientId }, undefined, { id: hook.id as string });
  return {
    apiKey: it.apiKey,
    clientId: it.clientId,
    browserClientId: it.browserClientId,
    orchestratorKey: it.orchestratorKey,
    walletUser,
    emailUser,
    walletSession: (await createSession(walletUser, "wallet")).token,
    emailSession: (await createSession(emailUser, "email")).token,
    bodyOverrides: { walletAddress },
    values: {
      requestId: [request.requestId as string, ...(link.requestIds as string[])],
      destinationId: [dest.destinationId as string],
      token: [link.token as string],
      id: [hook.id as string],
      deliveryId: (deliveries.deliveries as { id: string }[]).map((d) => d.id),
      clientId: [it.clientId],
      currencyId: ["USDC-base", "USDT-tron", "USDC-sepolia"],
    },
  };
}

const started = Date.now();
const savedEnv = { RATE_LIMIT_MULTIPLIER: process.env.RATE_LIMIT_MULTIPLIER, CREDENTIAL_CACHE_TTL_MS: process.env.CREDENTIAL_CACHE_TTL_MS };

beforeAll(async () => {
  // Thousands of requests a second from one credential: lift the rate limit as far as the
  // environment allows (RATE_LIMIT_MULTIPLIER is capped at 1000 by lib/env.ts; the limiter reads
  // the policy per request, so no store reset is needed).
  process.env.RATE_LIMIT_MULTIPLIER = "1000";
  // Credentials are not revoked here: cache them as production does (5 s there), one query less per request.
  process.env.CREDENTIAL_CACHE_TTL_MS = "60000";
  reloadEnv();
  await resetDb();
  handlers = await operationHandlers();
});

afterAll(() => {
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  reloadEnv();
  const statuses = [...statusCounts].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
  console.log(
    `fuzz: ${requests} requests over ${OPERATIONS.length} operations (${RUNS} runs each, seed ${SEED}), ${serverErrors} 5xx, ` +
      `${violations.length} violations, ${((Date.now() - started) / 1000).toFixed(1)} s; statuses ${statuses.join(" ")}`,
  );
});

// Operations run concurrently (vitest's maxConcurrency, 5 by default), each on its own account
// and objects: the database round trips overlap, and each operation's inputs stay those of its seed.
describe.concurrent("fuzzing every operation", () => {
  it.for(OPERATIONS.map((op, i) => [opKey(op), op, i] as const))(
    "%s: no 5xx, no stack trace, every 400 names its field",
    { timeout: 60_000 + RUNS * 200 },
    async ([key, op, i], { expect }) => {
      const fx = await fixtures();
      await fc.assert(
        fc.asyncProperty(specArb(op, fx), async (spec) => {
          await run(op, spec, fx);
        }),
        { seed: SEED + i, numRuns: RUNS, endOnFailure: true },
      );
      // One line per distinct problem, with the first input that caused it.
      const distinct = new Map<string, string>();
      for (const v of violations.filter((x) => x.op === key)) {
        const k = v.problem.replace(/"requestId":"[^"]*"/, "");
        if (!distinct.has(k)) distinct.set(k, `${v.problem}\n      input: ${v.input.slice(0, 800)}`);
      }
      expect([...distinct.values()]).toEqual([]);
    },
  );
});

describe("inputs fuzzing found", () => {
  // An unknown key with an empty name made a 400 with `field: ""` (lib/http/parse.ts, zodFieldErrors).
  it.for(OPERATIONS.filter((op) => op.body !== undefined).map((op) => [opKey(op), op] as const))(
    '%s: an unknown "" key is a 400 naming the object that holds it',
    async ([, op], { expect }) => {
      const fx = await fixtures();
      const sample = sampleBody(op);
      const nestedKey = Object.keys(sample).find((k) => sample[k] !== null && typeof sample[k] === "object" && !Array.isArray(sample[k]));
      const bodies = [
        `{"":1,${JSON.stringify(sample).slice(1)}`,
        ...(nestedKey ? [JSON.stringify({ ...sample, [nestedKey]: { ...(sample[nestedKey] as object), "": 1 } })] : []),
      ];
      for (const body of bodies) {
        const credential: Credential = op.auth[0] ?? "none";
        const headers = await headersFor(
          op,
          { credential, odd: 0, params: {}, query: "", body: { text: body, kind: "" }, contentType: "application/json" },
          fx,
        );
        const params = Object.fromEntries(pathParamNames(op).map((n) => [n, fx.values[n]?.[0] ?? PLAUSIBLE[n] ?? "x"]));
        const res = await invoke(handlers.get(op)!, operationUrl(op, params), { method: op.method, headers, params, body });
        expect(res.status, `${body}: ${res.text}`).toBe(400);
        const field = (res.json as { errors: { field: string }[] }).errors[0]!.field;
        expect(field).toBe(body.startsWith('{"":') ? "body" : nestedKey);
      }
    },
  );
});
