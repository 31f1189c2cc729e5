import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";

/**
 * The only reader of process.env in lib/, app/, components/, proxy.ts and instrumentation.ts
 * (tests/env/process-env.test.ts fails on any other; its two exceptions are Next's compile-time
 * reads, see there). Parsed lazily on first use so `next build` and tools that import lib modules
 * do not need a configured environment.
 */
const boolString = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

const hexKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key");

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  APP_URL: z.string().url().default("http://localhost:3000"),
  SERVICE_NAME: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,30}$/)
    .default("duebill"),
  /** How long a verified credential is trusted before it is looked up again. */
  CREDENTIAL_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** Largest accepted request body. */
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(10_485_760).default(1_048_576),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  BENCH_ROUTES: boolString.default(false),
  /** JSON merged over the built-in network table: {"sepolia": {"rpcUrl", "confirmations", "contracts": {...}, "tokens": {"USDC": "0x.."}}}. */
  CHAIN_CONFIG: z.string().optional(),
  /** Path of a JSON file in the CHAIN_CONFIG format (the devnet writes .data/devnet.json). */
  CHAIN_CONFIG_FILE: z.string().optional(),
  RPC_URL_MAINNET: z.string().url().optional(),
  RPC_URL_ARBITRUM_ONE: z.string().url().optional(),
  RPC_URL_OPTIMISM: z.string().url().optional(),
  RPC_URL_BASE: z.string().url().optional(),
  RPC_URL_MATIC: z.string().url().optional(),
  RPC_URL_BSC: z.string().url().optional(),
  RPC_URL_SEPOLIA: z.string().url().optional(),
  /** Blocks scanned per detection step and network. */
  DETECTION_MAX_BLOCK_RANGE: z.coerce.number().int().min(1).max(100_000).default(2_000),
  /** On a network's first sweep, how far behind the head to start. */
  DETECTION_INITIAL_LOOKBACK: z.coerce.number().int().min(0).default(5_000),
  /** Run the background sweeps inside the web server process (dev and embedded mode turn this on). */
  WORKER_INLINE: boolString.default(false),
  /** Pause between detection sweeps of the worker. */
  DETECTION_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(1_000),
  /** Pause between webhook delivery sweeps of the worker. */
  WEBHOOK_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(1_000),
  /**
   * Server secret (≥ 32 chars) that encrypts webhook signing secrets at rest. Required in
   * production; development falls back to a fixed, public value. The rule: appSecretProblem.
   */
  APP_SECRET: z.string().optional(),
  /** Allow webhook URLs on loopback/private addresses and plain http (local development only). */
  WEBHOOK_ALLOW_PRIVATE: boolString.default(false),
  /** Also send the reference's header names (x-request-network-signature, -delivery, -retry-count, -test) with the same values. */
  WEBHOOK_REFERENCE_HEADERS: boolString.default(true),
  /** Webhook HTTP timeout. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Redis for rate-limit counters shared by all instances; in-memory per instance when unset. */
  REDIS_URL: z.string().url().optional(),
  /** Multiplies every rate limit (default 1 in production, 10 elsewhere). */
  RATE_LIMIT_MULTIPLIER: z.coerce.number().positive().max(1000).optional(),
  /** Bearer token of the cron routes under /api/cron (unset: cron routes answer 401). */
  CRON_SECRET: z.string().min(16).optional(),
  /** Number of trusted reverse proxies in front of the app (how many X-Forwarded-For hops to skip from the right). */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** Folder of sanctioned_addresses_<ASSET>.txt files (default: the bundled data/ofac-sdn). */
  KYT_SANCTIONS_DIR: z.string().optional(),
  /** Operators who may open /admin, by sign-in email (comma-separated); also User.isAdmin. */
  ADMIN_EMAILS: z.string().optional(),
  /** Operators by sign-in wallet address (comma-separated, EVM case-insensitive). */
  ADMIN_WALLETS: z.string().optional(),
  /** Extra blocked addresses, comma-separated. */
  KYT_DENY_LIST: z.string().optional(),
  /** File of extra blocked addresses, one per line. */
  KYT_DENY_LIST_FILE: z.string().optional(),
  /**
   * Key of the relayer that triggers recurring payments (pays gas only; funds move payer → payee
   * through the contract). RELAYER_PRIVATE_KEY_<NETWORK> (e.g. _BASE, _ARBITRUM_ONE) overrides it per network.
   */
  RELAYER_PRIVATE_KEY: hexKey.optional(),
  RELAYER_PRIVATE_KEY_MAINNET: hexKey.optional(),
  RELAYER_PRIVATE_KEY_ARBITRUM_ONE: hexKey.optional(),
  RELAYER_PRIVATE_KEY_OPTIMISM: hexKey.optional(),
  RELAYER_PRIVATE_KEY_BASE: hexKey.optional(),
  RELAYER_PRIVATE_KEY_MATIC: hexKey.optional(),
  RELAYER_PRIVATE_KEY_BSC: hexKey.optional(),
  RELAYER_PRIVATE_KEY_SEPOLIA: hexKey.optional(),
  /**
   * Key of the deposit relayer (lib/deposits): deploys a request's deposit address (a SingleRequestProxy)
   * and forwards what is sent to it. Pays gas only; its own account, apart from the recurring relayer's nonces.
   */
  DEPOSIT_RELAYER_PRIVATE_KEY: hexKey.optional(),
  /**
   * Networks that offer deposit addresses, comma-separated. Default: every configured EVM network but
   * Ethereum mainnet, where each address's deployment (~1.2 M gas) costs the operator real money.
   */
  DEPOSIT_NETWORKS: z.string().optional(),
  /** Pause between deposit sweeps of the worker. */
  DEPOSIT_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(2_000),
  /** Pause between recurring sweeps of the worker. */
  RECURRING_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(2_000),
  /** The relayer is "low on gas" (an operator alert) below this many payments' worth of gas. */
  RELAYER_LOW_BALANCE_PAYMENTS: z.coerce.number().int().min(1).max(100_000).default(50),
  /** LI.FI API for cross-chain routes (lib/routing/lifi); paths are /v1/... under it. */
  /** Cross-chain routing: `none` (default; the devnet bridge when a local source chain is configured) or `lifi`. */
  ROUTING_PROVIDER: z.enum(["none", "lifi"]).default("none"),
  LIFI_API_URL: z.string().url().default("https://li.quest"),
  /** LI.FI partner key (header x-lifi-api-key): optional, raises LI.FI's rate limits. */
  LIFI_API_KEY: z.string().min(1).optional(),
  /** Integrator name registered with LI.FI, sent with every quote. */
  LIFI_INTEGRATOR: z.string().min(1).max(64).optional(),
  /** TronGrid-compatible API (e.g. https://api.trongrid.io): set, Tron payments are detected through it. */
  TRON_API_URL: z.string().url().optional(),
  /** TronGrid key (header TRON-PRO-API-KEY); keyless calls are severely rate limited. */
  TRON_API_KEY: z.string().min(1).optional(),
  /** Screening provider: the bundled sanctions/deny lists alone, or those plus Chainalysis' Sanctions API. */
  KYT_PROVIDER: z.enum(["sanctions-list", "chainalysis"]).default("sanctions-list"),
  /** Chainalysis Sanctions API key (header X-API-Key); required when KYT_PROVIDER=chainalysis. */
  CHAINALYSIS_API_KEY: z.string().min(1).optional(),
  /** Chainalysis Sanctions API base URL (tests point it elsewhere). */
  CHAINALYSIS_API_URL: z.string().url().default("https://public.chainalysis.com"),
  /** Secure payment links expire this long after creation. */
  SECURE_PAYMENT_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(24 * 7),
  /** Seed of the demo account's API key (`npm run seed`, `npm run dev`); a fixed development value by default. */
  DEMO_SEED: z.string().min(1).optional(),
  /**
   * WalletConnect Cloud project ID: set, the pay page offers WalletConnect wallets. Browser code reads it
   * as Next inlines it at build time (components/wallet/wallet-env.ts); checked here with the rest.
   */
  NEXT_PUBLIC_WALLETCONNECT_PROJECT_ID: z.string().min(1).optional(),
});

/**
 * Set for the app by its own launchers, never by an operator (so not configuration, and not in
 * CHECKED_VARIABLES), but read through env() like the rest.
 */
const internalSchema = z.object({
  /** Per-process secret scripts/runtime/server.mjs sets before Next loads; proxy.ts trusts x-duebill-socket-ip only beside it. */
  DUEBILL_SOCKET_IP_PROOF: z.string().optional(),
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

const tcpPort = z.coerce.number().int().min(0).max(65_535);

/**
 * Variables only the launchers read (scripts/runtime/run.ts, scripts/runtime/server.mjs, the devnet): checked at
 * boot with the rest, so a typo there stops the boot too instead of surfacing later.
 */
const launcherSchema = z.object({
  PORT: tcpPort.optional(),
  EMBEDDED_DB_PORT: tcpPort.optional(),
  DEVNET: boolString.optional(),
  DEVNET_PORT: tcpPort.optional(),
  DEVNET_BRIDGE: boolString.optional(),
  DEVNET_BRIDGE_PORT: tcpPort.optional(),
});

/** Every variable the boot check reads (README "Configuration" lists each). */
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

let cached: Env | undefined;

export function env(): Env {
  if (!cached) {
    const parsed = appSchema.safeParse(process.env);
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
