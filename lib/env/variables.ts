import { z } from "zod";
import { gaslessVariables } from "./gasless-variables";
import { mailVariables } from "./mail-variables";
import { receiptVariables } from "./receipt-variables";
import { relayerVariables } from "./relayer-variables";

/**
 * Every environment variable Duebill documents, as zod schemas with a VariableDoc each (`.meta()`):
 * lib/env.ts parses and checks them at boot; scripts/gen/config-docs.ts renders
 * docs/operations/configuration.md from them.
 */
const boolString = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

const hexKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key");

/**
 * What docs/operations/configuration.md says of a variable (rendered by scripts/gen/config-docs.ts, checked by
 * tests/env/config-docs.test.ts). `default` as an operator reads it; `requiredWhen`: when it must be set.
 */
export interface VariableDoc {
  description: string;
  default?: string;
  requiredWhen?: string;
}

const doc = <T extends z.ZodType>(schema: T, d: VariableDoc): T => schema.meta({ ...d });

const rpcUrl = () =>
  doc(z.string().url().optional(), {
    description: "JSON-RPC endpoint per EVM network; detection and allowance checks run where one is set",
  });

const relayerKey = () =>
  doc(hexKey.optional(), { description: "per-network key of the recurring relayer; overrides `RELAYER_PRIVATE_KEY` on its network" });

export const envSchema = z.object({
  NODE_ENV: doc(z.enum(["development", "test", "production"]).default("development"), {
    description: "`npm start` serves with `production` whatever is set; production requires `APP_SECRET`",
    default: "`development` (`npm start`: `production`)",
  }),
  DATABASE_URL: doc(z.string().url().optional(), {
    description: "Postgres connection string",
    default: "unset → embedded PGlite",
  }),
  DATABASE_POOL_MAX: doc(z.coerce.number().int().min(1).max(200).default(10), {
    description: "connections per instance",
    default: "`10` (`4` embedded)",
  }),
  APP_URL: doc(z.string().url().default("http://localhost:3000"), {
    description:
      "public base URL: payment links, the sign-in message's domain, session cookies, OpenAPI `servers`; when unset it follows `PORT`, and a set `APP_URL` always wins",
    default: "`http://localhost:<PORT>` (`http://localhost:3000` without `PORT`)",
  }),
  SERVICE_NAME: doc(
    z
      .string()
      .regex(/^[a-z][a-z0-9-]{0,30}$/)
      .default("duebill"),
    { description: "service name (webhook header `x-<name>-signature`)" },
  ),
  CREDENTIAL_CACHE_TTL_MS: doc(z.coerce.number().int().min(0).max(60_000).default(5_000), {
    description:
      "how long a verified credential is trusted per instance before it is looked up again; a revocation reaches other instances within this time",
  }),
  MAX_BODY_BYTES: doc(z.coerce.number().int().min(1024).max(10_485_760).default(1_048_576), {
    description: "largest accepted request body",
  }),
  LOG_LEVEL: doc(z.enum(["debug", "info", "warn", "error", "silent"]).default("info"), {
    description: "`debug`, `info`, `warn`, `error`, `silent` (JSON lines on stderr)",
  }),
  BENCH_ROUTES: doc(boolString.default(false), {
    description: "enables `/api/bench/empty` and `/api/bench/insert`, the benchmark baselines",
  }),
  CHAIN_CONFIG: doc(z.string().optional(), {
    description:
      'JSON merged over the built-in network table: `{"base": {"rpcUrl": "...", "confirmations": 10, "contracts": {"erc20FeeProxy": "0x..."}, "tokens": {"USDC": "0x..."}}}`; `"explorerTxUrl"` sets the explorer\'s transaction-page prefix (`null`: no explorer links); a local `rpcUrl` or another `chainId` than the network\'s has none unless set',
  }),
  CHAIN_CONFIG_FILE: doc(z.string().optional(), {
    description: "path of a JSON file in the `CHAIN_CONFIG` format",
    default: "unset (`.data/devnet.json` under the devnet)",
  }),
  RPC_URL_MAINNET: rpcUrl(),
  RPC_URL_ARBITRUM_ONE: rpcUrl(),
  RPC_URL_OPTIMISM: rpcUrl(),
  RPC_URL_BASE: rpcUrl(),
  RPC_URL_MATIC: rpcUrl(),
  RPC_URL_BSC: rpcUrl(),
  RPC_URL_SEPOLIA: rpcUrl(),
  DETECTION_MAX_BLOCK_RANGE: doc(z.coerce.number().int().min(1).max(100_000).default(2_000), {
    description: "blocks per `eth_getLogs` step, per network",
  }),
  DETECTION_INITIAL_LOOKBACK: doc(z.coerce.number().int().min(0).default(5_000), {
    description: "on a network's first sweep, how far behind the head to start",
  }),
  WORKER_INLINE: doc(boolString.default(false), {
    description: "run the background sweeps inside the web server (otherwise `npm run worker`)",
    default: "`true` in dev and embedded mode, else `false`",
  }),
  DETECTION_INTERVAL_MS: doc(z.coerce.number().int().min(100).max(600_000).default(1_000), {
    description: "pause between detection sweeps",
  }),
  WEBHOOK_INTERVAL_MS: doc(z.coerce.number().int().min(100).max(600_000).default(1_000), {
    description: "pause between webhook delivery sweeps of the worker",
  }),
  ...mailVariables,
  APP_SECRET: doc(z.string().optional(), {
    description: "≥ 32 characters (the rule: `appSecretProblem` in lib/env.ts); encrypts webhook signing secrets at rest; keep it stable",
    default: "a fixed public value in development",
    requiredWhen: "production (`npm start` refuses to start without it)",
  }),
  WEBHOOK_ALLOW_PRIVATE: doc(boolString.default(false), {
    description:
      "allow http and loopback/private webhook URLs (local development only); `npm run dev` accepts this machine's own (`localhost`, 127.0.0.0/8, ::1) without it, `npm start` never does",
  }),
  WEBHOOK_REFERENCE_HEADERS: doc(boolString.default(true), {
    description:
      "also send the reference's webhook header names (`x-request-network-signature`, `-delivery`, `-retry-count`, `-test`) with the same values",
  }),
  WEBHOOK_TIMEOUT_MS: doc(z.coerce.number().int().min(100).max(60_000).default(10_000), {
    description: "webhook HTTP timeout",
  }),
  REDIS_URL: doc(z.string().url().optional(), {
    description: "Redis for rate-limit counters shared by all instances",
    default: "unset (in-memory counters per instance)",
  }),
  RATE_LIMIT_MULTIPLIER: doc(z.coerce.number().positive().max(1000).optional(), {
    description: "multiplies every rate limit",
    default: "`1` in production, `10` elsewhere",
  }),
  CRON_SECRET: doc(z.string().min(16).optional(), {
    description: "bearer token of `/api/cron/*` (at least 16 characters)",
    default: "unset (cron routes refuse every call)",
  }),
  TRUSTED_PROXY_HOPS: doc(z.coerce.number().int().min(0).max(10).default(0), {
    description:
      "reverse proxies in front of the app. `0`: the client IP is the TCP peer (X-Forwarded-For and X-Real-IP are ignored); `N`: the N-th `X-Forwarded-For` entry from the right (the one your nearest proxy appended)",
  }),
  KYT_SANCTIONS_DIR: doc(z.string().optional(), {
    description: "folder of `sanctioned_addresses_<ASSET>.txt` files",
    default: "`data/ofac-sdn`",
  }),
  SCREENING_LIST_MAX_AGE_HOURS: doc(z.coerce.number().int().min(1).max(87_600).default(24), {
    description:
      "age of the screening list (its date in `SOURCE.md`, else its newest file) past which `/admin` warns that it is out of date",
  }),
  ADMIN_EMAILS: doc(z.string().optional(), {
    description: "operators who may open `/admin`, by sign-in email (comma-separated; also `npm run admin -- user:grant-admin`)",
  }),
  ADMIN_WALLETS: doc(z.string().optional(), {
    description: "operators by sign-in wallet address (comma-separated, EVM case-insensitive)",
  }),
  KYT_DENY_LIST: doc(z.string().optional(), { description: "extra blocked addresses, comma-separated" }),
  KYT_DENY_LIST_FILE: doc(z.string().optional(), { description: "file of extra blocked addresses, one per line" }),
  RELAYER_PRIVATE_KEY: doc(hexKey.optional(), {
    description: "key of the relayer that triggers recurring payments (pays gas only; funds move payer → payee through the contract)",
    default: "unset (the devnet's relayer under `npm run dev`)",
    requiredWhen: "recurring payouts, on networks without their own `RELAYER_PRIVATE_KEY_<NETWORK>`",
  }),
  RELAYER_PRIVATE_KEY_MAINNET: relayerKey(),
  RELAYER_PRIVATE_KEY_ARBITRUM_ONE: relayerKey(),
  RELAYER_PRIVATE_KEY_OPTIMISM: relayerKey(),
  RELAYER_PRIVATE_KEY_BASE: relayerKey(),
  RELAYER_PRIVATE_KEY_MATIC: relayerKey(),
  RELAYER_PRIVATE_KEY_BSC: relayerKey(),
  RELAYER_PRIVATE_KEY_SEPOLIA: relayerKey(),
  ...relayerVariables,
  ...gaslessVariables,
  DEPOSIT_NETWORKS: doc(z.string().optional(), {
    description:
      "comma-separated networks that offer deposit addresses; mainnet is left out by default because each address's deployment (~1.2 M gas) costs the operator real money",
    default: "every configured EVM network but `mainnet`",
  }),
  DEPOSIT_INTERVAL_MS: doc(z.coerce.number().int().min(100).max(600_000).default(2_000), {
    description: "pause between deposit sweeps of the worker",
  }),
  RECURRING_INTERVAL_MS: doc(z.coerce.number().int().min(100).max(600_000).default(2_000), {
    description: "pause between recurring sweeps of the worker",
  }),
  RELAYER_LOW_BALANCE_PAYMENTS: doc(z.coerce.number().int().min(1).max(100_000).default(50), {
    description: "the relayer is reported low on gas (an operator alert) below this many payments' worth",
  }),
  ROUTING_PROVIDER: doc(z.enum(["none", "lifi"]).default("none"), {
    description:
      "cross-chain routing: `lifi` (production) or `none`; the devnet bridge is used whenever its local source chain is configured",
  }),
  LIFI_API_URL: doc(z.string().url().default("https://li.quest"), {
    description: "LI.FI API of the cross-chain routing adapter (lib/routing/lifi; paths are `/v1/...` under it)",
  }),
  LIFI_API_KEY: doc(z.string().min(1).optional(), {
    description: "LI.FI partner key (`x-lifi-api-key`); optional, raises LI.FI's rate limits (75 quotes per 2 h without one)",
  }),
  LIFI_INTEGRATOR: doc(z.string().min(1).max(64).optional(), {
    description: "integrator name registered with LI.FI, sent with every quote",
  }),
  TRON_API_URL: doc(z.string().url().optional(), {
    description: "TronGrid-compatible API, e.g. `https://api.trongrid.io`; set, Tron payments are detected through it",
    default: "unset (no Tron detection)",
  }),
  TRON_API_KEY: doc(z.string().min(1).optional(), {
    description: "TronGrid key (`TRON-PRO-API-KEY`); keyless calls are severely rate limited",
  }),
  TRON_CONVERSION_RATE_NETWORK: doc(z.enum(["mainnet", "arbitrum-one", "optimism", "base", "matic", "bsc", "sepolia"]).default("mainnet"), {
    description:
      "EVM network whose ChainlinkConversionPath prices fiat invoices paid on Tron (no conversion proxy there): USDT-tron at USDT's rate on that network, USDC alike. It needs an RPC; the devnet's is `sepolia`",
  }),
  KYT_PROVIDER: doc(z.enum(["sanctions-list", "chainalysis"]).default("sanctions-list"), {
    description:
      "screening provider: the bundled sanctions/deny lists alone, or `chainalysis`: those plus Chainalysis' Sanctions API (see [Production adapters](production-adapters.md))",
  }),
  CHAINALYSIS_API_KEY: doc(z.string().min(1).optional(), {
    description: "Chainalysis Sanctions API key (`X-API-Key`)",
    requiredWhen: "`KYT_PROVIDER=chainalysis`",
  }),
  CHAINALYSIS_API_URL: doc(z.string().url().default("https://public.chainalysis.com"), {
    description: "Chainalysis Sanctions API base URL (tests point it elsewhere)",
  }),
  SECURE_PAYMENT_TTL_HOURS: doc(
    z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 365)
      .default(24 * 7),
    { description: "lifetime of a payment link", default: "`168` (7 days)" },
  ),
  DEMO_SEED: doc(z.string().min(1).optional(), {
    description: "derives the demo API key printed by `npm run seed` (and `npm run dev`)",
    default: "fixed dev value",
  }),
  NEXT_PUBLIC_WALLETCONNECT_PROJECT_ID: doc(z.string().min(1).optional(), {
    description:
      "enables WalletConnect on the hosted page (it then calls out to WalletConnect's servers); the browser bundle reads it at build time (components/wallet/wallet-env.ts), checked here with the rest",
    default: "unset (injected wallets only)",
  }),
  ...receiptVariables,
});

const tcpPort = z.coerce.number().int().min(0).max(65_535);

/**
 * Variables only the launchers read (scripts/runtime/run.ts, scripts/runtime/server.mjs, the devnet): checked at
 * boot with the rest, so a typo there stops the boot too instead of surfacing later.
 */
export const launcherSchema = z.object({
  PORT: doc(tcpPort.optional(), {
    description: "HTTP port of `npm run dev` / `npm start`; `APP_URL` follows it unless set",
    default: "`3000`",
  }),
  EMBEDDED_DB_PORT: doc(tcpPort.optional(), {
    description: "port of the embedded database (dev/start without `DATABASE_URL`)",
    default: "`54329`",
  }),
  DEVNET: doc(boolString.optional(), {
    description: "start the local anvil devnet from `npm run dev` / `npm start`",
    default: "`true` in `npm run dev` when no chain is configured",
  }),
  DEVNET_PORT: doc(tcpPort.optional(), { description: "port of that devnet", default: "`8545`" }),
  DEVNET_BRIDGE: doc(boolString.optional(), {
    description: "also start the cross-chain source chain and its bridge relayer",
    default: "`true` with the devnet",
  }),
  DEVNET_BRIDGE_PORT: doc(tcpPort.optional(), { description: "port of the source chain", default: "`8546`" }),
});

/**
 * Variables read outside this module and the boot check (the test and bench harnesses). Listed here so the configuration page documents them too.
 */
export const otherVariablesSchema = z.object({
  TEST_DATABASE_URL: doc(z.string().optional(), {
    description: "tests only; must be local",
    default: "`postgresql://postgres@127.0.0.1:5432/duebill_test`",
  }),
  BENCH_DATABASE_URL: doc(z.string().optional(), {
    description: "benchmark only; recreated each run",
    default: "`postgresql://postgres@127.0.0.1:5432/duebill_bench`",
  }),
  BENCH_DASHBOARD_DATABASE_URL: doc(z.string().optional(), {
    description: "the dashboard bench case only; recreated each run",
    default: "`postgresql://postgres@127.0.0.1:5432/duebill_bench_dashboard`",
  }),
});

/** The schemas the configuration page is generated from, in its order (scripts/gen/config-docs.ts). */
export const DOCUMENTED_SCHEMAS = [
  { title: "The app", intro: "Read by the app through `lib/env.ts`; checked at boot.", schema: () => envSchema },
  {
    title: "The launchers",
    intro: "Read by `npm run dev` / `npm start` and the devnet; checked at boot with the rest.",
    schema: () => launcherSchema,
  },
  {
    title: "Read elsewhere",
    intro: "Read by the test and bench harnesses; not checked at boot.",
    schema: () => otherVariablesSchema,
  },
] as const;
