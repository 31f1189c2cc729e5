/**
 * The whole stack the journeys run against, on this machine only: a fresh Postgres database
 * (`duebill_e2e`, migrated), an anvil devnet with the Request Network contracts standing in
 * for Sepolia, the production build served by `next start` on a free port (detection
 * running inline every 500 ms, Tron's through a local TronGrid stand-in, e2e/support/tron-node-stub.ts),
 * and the demo account seeded (scripts/ops/seed.ts).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { type Devnet, devAccount, getFreePort, startDevnet } from "@/scripts/devnet";
import { BRIDGE_RELAYER_INDEX, type BridgeDevnet, startBridgeDevnet } from "@/scripts/devnet/bridge";
import { relayerFor } from "@/scripts/devnet/bridge-relayer";
import { type SmtpSink, startSmtpSink } from "@/tests/mail/smtp-sink";
import { startTronNodeStub, type TronNodeStub } from "./tron-node-stub";

const ROOT = path.resolve(__dirname, "../..");
/** Fixed, public: this server only ever holds test data. */
const E2E_APP_SECRET = "duebill-e2e-app-secret-not-for-production-use";

export interface SeededDemo {
  accountId: string;
  apiKey: string;
  clientId: string;
  browserClientId: string;
  destinationId: string;
}

export interface AppServer {
  baseUrl: string;
  databaseUrl: string;
  devnet: Devnet;
  /** The cross-chain source chain (standing in for Arbitrum One); its relayer runs in this process. */
  bridge: BridgeDevnet;
  /** The TronGrid-compatible API the server watches Tron through (TRON_API_URL). */
  tronNode: TronNodeStub;
  demo: SeededDemo;
  logFile: string;
  stop(): Promise<void>;
}

/** The e2e database; like the unit tests, it refuses anything but a local server. */
export function e2eDatabaseUrl(): string {
  const url = process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/duebill_e2e";
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host))
    throw new Error(`E2E_DATABASE_URL must point at a local database, got host ${host}`);
  return url;
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Drops and recreates the database, then applies the migrations (as tests/helpers/global-setup.ts). */
export async function createE2eDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unexpected database name ${name}`);
  await adminQuery(url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await adminQuery(url, `CREATE DATABASE "${name}"`);
  const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, CHECKPOINT_DISABLE: "1" },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`prisma migrate deploy failed:\n${r.stdout}\n${r.stderr}`);
}

/**
 * seedDemo() from scripts/ops/seed.ts, run through tsx in its own process: the generated Prisma
 * client is ESM with import.meta, which Playwright's loader does not run.
 */
function seed(env: NodeJS.ProcessEnv): SeededDemo {
  const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/ops/seed.ts", "--json"], {
    cwd: ROOT,
    env,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`seed failed:\n${r.stdout}\n${r.stderr}`);
  const line = r.stdout.trim().split("\n").pop() ?? "";
  return JSON.parse(line) as SeededDemo;
}

async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode} (see the server log)`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`next start did not answer /api/health within ${timeoutMs} ms`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export async function startAppServer(): Promise<AppServer> {
  if (!existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    throw new Error("No production build in .next: run `npx next build` first (the e2e script does).");
  }
  const databaseUrl = e2eDatabaseUrl();
  await createE2eDatabase(databaseUrl);
  const devnet = await startDevnet({ port: 0 });
  let child: ChildProcess | undefined;
  let bridge: BridgeDevnet | undefined;
  let relayer: ReturnType<typeof relayerFor> | undefined;
  let tronNode: TronNodeStub | undefined;
  let smtp: SmtpSink | undefined;
  try {
    tronNode = await startTronNodeStub();
    // A real SMTP server: links may collect a payer's email only where the server sends email (SMTP_URL).
    smtp = await startSmtpSink();
    bridge = await startBridgeDevnet(devnet, { port: 0, relayerPrivateKey: devAccount(BRIDGE_RELAYER_INDEX).privateKey });
    relayer = relayerFor(devnet, bridge, { pollMs: 500, log: () => {} });
    const port = await getFreePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: databaseUrl,
      CHAIN_CONFIG: JSON.stringify({ ...devnet.chainConfig(), ...bridge.chainConfig() }),
      // The server watches Tron as a deployment with TronGrid does (lib/chain/watched.ts): detection sweeps
      // it through this local stand-in (no events: no Tron chain runs here; the Tron journeys' wallet is
      // e2e/support/tron-stub.ts), and Settings and onboarding offer it. Tron has no rpcUrl, so it keeps its
      // public explorer links (lib/chain/explorer.ts).
      TRON_API_URL: tronNode.url,
      TRON_API_KEY: undefined,
      WORKER_INLINE: "true",
      DETECTION_INTERVAL_MS: "500",
      DEPOSIT_INTERVAL_MS: "500",
      DEPOSIT_RELAYER_PRIVATE_KEY: devnet.accounts.depositRelayer.privateKey,
      SIGNATURE_RELAYER_PRIVATE_KEY: devnet.accounts.signatureRelayer.privateKey,
      APP_URL: baseUrl,
      APP_SECRET: E2E_APP_SECRET,
      // Production signs receipts only with configured keys (docs/guides/receipts.md): one made for this run.
      RECEIPT_SIGNING_KEYS: JSON.stringify([
        { keyId: "rk_e2e", privateKey: generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }) },
      ]),
      RATE_LIMIT_MULTIPLIER: "1000",
      // The relayer account (funded like the payer) stands in for a blocked wallet.
      KYT_DENY_LIST: devnet.accounts.relayer.address,
      // The journeys' webhook receivers listen on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE: "true",
      SMTP_URL: smtp.url,
      MAIL_FROM: "Duebill e2e <receipts@e2e.example>",
    };
    const demo = seed({ ...env, NODE_ENV: "test" });
    const logDir = path.join(ROOT, "test-results");
    mkdirSync(logDir, { recursive: true });
    const logFile = path.join(logDir, "app-server.log");
    const log = createWriteStream(logFile);
    // The production server of `npm start` (scripts/runtime/server.mjs), not bare `next start`.
    child = spawn(process.execPath, [path.join(ROOT, "scripts/runtime/server.mjs"), "--port", String(port), "--hostname", "127.0.0.1"], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    await waitForHealth(baseUrl, child, 60_000);
    const server = child;
    const source = bridge;
    const bridgeRelayer = relayer;
    const tron = tronNode;
    const mail = smtp;
    return {
      baseUrl,
      databaseUrl,
      devnet,
      bridge: source,
      tronNode: tron,
      demo,
      logFile,
      stop: async () => {
        await stopChild(server);
        log.end();
        bridgeRelayer.stop();
        await source.stop();
        await tron.stop();
        await mail.close();
        if (tron.unknown.length) console.warn(`tron-node-stub was asked what it does not answer: ${[...new Set(tron.unknown)].join(", ")}`);
        await devnet.stop();
        await adminQuery(databaseUrl, `DROP DATABASE IF EXISTS "${new URL(databaseUrl).pathname.slice(1)}" WITH (FORCE)`).catch(() => {});
      },
    };
  } catch (err) {
    if (child) await stopChild(child);
    relayer?.stop();
    await bridge?.stop();
    await tronNode?.stop();
    await smtp?.close();
    await devnet.stop();
    throw err;
  }
}
