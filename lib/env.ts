/**
 * The only reader of process.env in lib/, app/, components/, proxy.ts and instrumentation.ts
 * (tests/env/process-env.test.ts fails on any other; its two exceptions are Next's compile-time
 * reads, see there). Parsed lazily on first use so `next build` and tools that import lib modules
 * do not need a configured environment. The variables, with their descriptions: lib/env/variables.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { envSchema, launcherSchema } from "./env/variables";

export { DOCUMENTED_SCHEMAS, otherVariablesSchema, type VariableDoc } from "./env/variables";

/**
 * Set for the app by its own launchers, never by an operator (so not configuration, and not in
 * CHECKED_VARIABLES), but read through env() like the rest.
 */
const internalSchema = z.object({
  /** Per-process secret scripts/runtime/server.mjs sets before Next loads; proxy.ts trusts x-duebill-socket-ip only beside it. */
  DUEBILL_SOCKET_IP_PROOF: z.string().optional(),
  /**
   * `dev` under `npm run dev`, `start` under `npm start` (scripts/runtime/run.ts sets it whatever the shell
   * exported): `dev` lets webhooks reach this machine (lib/webhooks/policy.ts).
   */
  DUEBILL_MODE: z.enum(["dev", "start"]).optional(),
});

const appSchema = envSchema.extend(internalSchema.shape);

export type Env = z.infer<typeof appSchema>;

/** An environment to check (process.env, or a copy with overrides). */
export type EnvSource = Readonly<Record<string, string | undefined>>;

/** One variable at fault and what is wrong with it (never its value: it may be a secret). */
export interface EnvProblem {
  name: string;
  message: string;
}

/** Every variable the boot check reads (docs/operations/configuration.md lists each). */
export const CHECKED_VARIABLES: readonly string[] = [...Object.keys(envSchema.shape), ...Object.keys(launcherSchema.shape)];

export const APP_SECRET_MIN_LENGTH = 32;

/**
 * The APP_SECRET rule, its one copy: when set, at least APP_SECRET_MIN_LENGTH characters; in
 * production, set. What is wrong (never the value), or undefined. The boot check
 * (environmentProblems: `npm start`, `npm run dev`, `npm run worker`, and scripts/runtime/server.mjs
 * through it), env() and the webhook secret box (lib/webhooks/secret-box.ts) all call it.
 */
export function appSecretProblem(value: string | undefined, production: boolean): string | undefined {
  const howTo = "e.g. APP_SECRET=$(openssl rand -base64 48); keep it stable across restarts";
  if (value === undefined)
    return production
      ? `is not set: production needs at least ${APP_SECRET_MIN_LENGTH} random characters (it encrypts webhook secrets at rest), ${howTo}`
      : undefined;
  if (value.length < APP_SECRET_MIN_LENGTH)
    return `must be at least ${APP_SECRET_MIN_LENGTH} characters, not ${value.length} (it encrypts webhook secrets at rest), ${howTo}`;
  return undefined;
}

/** Rules between variables; run whatever else is wrong, so one message lists every problem. */
function crossFieldProblems(source: EnvSource, production: boolean): EnvProblem[] {
  const out: EnvProblem[] = [];
  if (source.KYT_PROVIDER === "chainalysis" && !source.CHAINALYSIS_API_KEY)
    out.push({ name: "CHAINALYSIS_API_KEY", message: "is required when KYT_PROVIDER=chainalysis" });
  const appSecret = appSecretProblem(source.APP_SECRET, production);
  if (appSecret) out.push({ name: "APP_SECRET", message: appSecret });
  if (source.CHAIN_CONFIG) {
    try {
      const v: unknown = JSON.parse(source.CHAIN_CONFIG);
      if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error("not an object");
    } catch {
      out.push({ name: "CHAIN_CONFIG", message: 'must be a JSON object such as {"base": {"rpcUrl": "https://..."}}' });
    }
  }
  if (source.CHAIN_CONFIG_FILE) {
    const file = source.CHAIN_CONFIG_FILE;
    if (!existsSync(file)) out.push({ name: "CHAIN_CONFIG_FILE", message: `no such file: ${file}` });
    else {
      try {
        JSON.parse(readFileSync(file, "utf8"));
      } catch {
        out.push({ name: "CHAIN_CONFIG_FILE", message: `${file} is not valid JSON` });
      }
    }
  }
  return out;
}

/** Zod's words for a variable, made readable for an operator (no values echoed). */
function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "too_small" && issue.origin === "string") return `must be at least ${issue.minimum} characters`;
  if (issue.code === "invalid_format" && issue.format === "url") return "must be a URL";
  if (issue.code === "invalid_type" && issue.expected === "number") return "must be a number";
  return issue.message.replace(/^Invalid input: /, "");
}

/**
 * Every missing or malformed variable of the environment, one entry per variable, in the
 * schema's order. `production` adds what only production requires (APP_SECRET). Empty: the
 * environment is usable. `npm start`, `npm run dev` and `npm run worker` call it before they
 * start anything (formatEnvProblems gives their one message).
 */
export function environmentProblems(source: EnvSource = process.env, opts: { production?: boolean } = {}): EnvProblem[] {
  const problems = new Map<string, string[]>();
  const add = (name: string, message: string) => {
    const list = problems.get(name) ?? [];
    if (!list.includes(message)) list.push(message);
    problems.set(name, list);
  };
  for (const schema of [envSchema, launcherSchema] as const) {
    const parsed = schema.safeParse(source);
    if (!parsed.success) for (const i of parsed.error.issues) add(String(i.path[0] ?? "environment"), describeIssue(i));
  }
  for (const p of crossFieldProblems(source, opts.production ?? false)) add(p.name, p.message);
  return [...problems].map(([name, messages]) => ({ name, message: messages.join("; ") }));
}

/** The one message a launcher prints before it refuses to start. */
export function formatEnvProblems(problems: readonly EnvProblem[]): string {
  const head =
    problems.length === 1
      ? "1 environment variable is missing or malformed"
      : `${problems.length} environment variables are missing or malformed`;
  return `${head} (see README "Configuration"):\n${problems.map((p) => `  - ${p.name}: ${p.message}`).join("\n")}`;
}

/**
 * The app's public URL: APP_URL when set, else http://localhost:<PORT> (PORT defaults to 3000), so
 * changing only PORT moves links, the sign-in message's domain and next-auth's cookies with it.
 * env() applies it; `npm run dev` / `npm start` (scripts/runtime/run.ts) pass the result to Next.
 */
export function appUrlOf(source: EnvSource): string {
  if (source.APP_URL !== undefined) return source.APP_URL;
  const port = source.PORT && /^\d+$/.test(source.PORT) ? source.PORT : "3000";
  return `http://localhost:${port}`;
}

let cached: Env | undefined;

export function env(): Env {
  if (!cached) {
    const parsed = appSchema.safeParse({ ...process.env, APP_URL: appUrlOf(process.env) });
    const issues = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${describeIssue(i)}`);
    if (process.env.KYT_PROVIDER === "chainalysis" && !process.env.CHAINALYSIS_API_KEY)
      issues.push("CHAINALYSIS_API_KEY: is required when KYT_PROVIDER=chainalysis");
    // Unset is the secret box's to refuse (at use, in production): env() also serves tools that need no secret.
    const appSecret = appSecretProblem(process.env.APP_SECRET, false);
    if (appSecret) issues.push(`APP_SECRET: ${appSecret}`);
    if (!parsed.success || issues.length > 0) throw new Error(`Invalid environment configuration: ${issues.join("; ")}`);
    cached = parsed.data;
  }
  return cached;
}

/**
 * DUEBILL_SOCKET_IP_PROOF for proxy.ts, read on each call and without the full parse: the proxy
 * runs before every request and must not fail on an unrelated variable (env() throws on any).
 */
export function socketIpProof(): string | undefined {
  return internalSchema.shape.DUEBILL_SOCKET_IP_PROOF.parse(process.env.DUEBILL_SOCKET_IP_PROOF);
}

/** Re-reads process.env (tests change it between cases; caches keyed on env() follow). */
export function reloadEnv(): void {
  cached = undefined;
}

/**
 * next-auth 4 reads its own origin from process.env.NEXTAUTH_URL only (lib/http/next-auth.ts):
 * it is APP_URL, so page sign-in needs no variable of its own. Called before next-auth runs.
 */
export function exportNextAuthUrl(): void {
  process.env.NEXTAUTH_URL = env().APP_URL;
}
