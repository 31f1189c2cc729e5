/**
 * `npm run dev` / `npm start`. With DATABASE_URL set it migrates that database and starts
 * Next. Without it, it starts the embedded database (scripts/runtime/embedded-db.ts), migrates it,
 * seeds the demo account, prints its credentials, and starts Next against it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { appUrlOf, environmentProblems, formatEnvProblems } from "@/lib/env";
import { type Devnet, devAccount, startDevnet } from "../devnet";
import { BRIDGE_RELAYER_INDEX, type BridgeDevnet, startBridgeDevnet } from "../devnet/bridge";
import { type BridgeRelayer, relayerFor } from "../devnet/bridge-relayer";
import { describeDevnet } from "../devnet/describe";
import { type EmbeddedDb, startEmbeddedDb } from "./embedded-db";
import { removeRuntimeFile, writeRuntimeFile } from "./runtime-file";

const mode = process.argv[2] === "start" ? "start" : "dev";
const root = path.resolve(__dirname, "../..");
const port = process.env.PORT ?? "3000";
const children: ChildProcess[] = [];
let embedded: EmbeddedDb | undefined;
let devnet: Devnet | undefined;
let bridge: BridgeDevnet | undefined;
let bridgeRelayer: BridgeRelayer | undefined;

/**
 * Runs a child to completion without blocking this process's event loop: the embedded
 * database lives in this process and must keep answering while migrations run.
 */
function run(args: string[], env: NodeJS.ProcessEnv, capture = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: capture ? ["ignore", "pipe", "inherit"] : "inherit" });
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString("utf8");
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${path.basename(args[0] ?? "")} ${args.slice(1).join(" ")} exited with ${code}`)),
    );
  });
}

let stopping: Promise<never> | undefined;

/** Stops what this run started, waiting (at most 10 s) for the server to close, then exits with `code`. */
function shutdown(code: number): Promise<never> {
  stopping ??= stopAll(code);
  return stopping;
}

async function stopAll(code: number): Promise<never> {
  removeRuntimeFile(process.pid);
  const exited = children
    .filter((c) => c.exitCode === null && c.signalCode === null)
    .map((c) => {
      const done = new Promise<void>((resolve) => c.once("exit", () => resolve()));
      c.kill("SIGTERM");
      return done;
    });
  await Promise.race([Promise.all(exited), new Promise((r) => setTimeout(r, 10_000).unref())]);
  bridgeRelayer?.stop();
  await bridge?.stop().catch(() => {});
  await devnet?.stop().catch(() => {});
  await embedded?.stop().catch(() => {});
  process.exit(code);
}

async function main(): Promise<void> {
  // The whole environment is checked before anything starts or listens: one message lists every
  // missing or malformed variable. `npm start` serves with NODE_ENV=production, so it is checked as such.
  const problems = environmentProblems(mode === "start" ? { ...process.env, NODE_ENV: "production" } : process.env, {
    production: mode === "start",
  });
  if (problems.length > 0) {
    console.error(`[duebill] refusing to start: ${formatEnvProblems(problems)}`);
    process.exit(1);
  }
  // Ctrl-C / SIGTERM at any point stops what was started so far and exits 0.
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => void shutdown(0));
  // The mode, whatever the shell exported: `dev` lets webhooks reach this machine (lib/webhooks/policy.ts), `start` never.
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1", DUEBILL_MODE: mode };
  // Without APP_URL the app lives at http://localhost:<PORT>: links, the sign-in domain and cookies follow the port.
  env.APP_URL = appUrlOf(env);
  const appUrl = env.APP_URL.replace(/\/$/, "");
  const isEmbedded = !env.DATABASE_URL;
  if (isEmbedded) {
    const dataDir = path.join(root, ".data", "pglite");
    const dbPort = Number(env.EMBEDDED_DB_PORT ?? 54329);
    console.log(`[duebill] no DATABASE_URL: starting the embedded database (${path.relative(root, dataDir)}, port ${dbPort})`);
    embedded = await startEmbeddedDb({ dataDir, port: dbPort });
    Object.assign(env, embedded.env);
  }
  // No chain configured: run a local devnet standing in for sepolia (DEVNET=false to skip).
  const chainConfigured = env.CHAIN_CONFIG || env.CHAIN_CONFIG_FILE || Object.keys(env).some((k) => k.startsWith("RPC_URL_") && env[k]);
  if ((env.DEVNET ?? (mode === "dev" && !chainConfigured ? "true" : "false")) === "true") {
    devnet = await startDevnet({ port: Number(env.DEVNET_PORT ?? 8545) });
    // The cross-chain source chain (standing in for Arbitrum One) and its bridge relayer (DEVNET_BRIDGE=false to skip).
    if (env.DEVNET_BRIDGE !== "false") {
      bridge = await startBridgeDevnet(devnet, {
        port: Number(env.DEVNET_BRIDGE_PORT ?? 8546),
        relayerPrivateKey: devAccount(BRIDGE_RELAYER_INDEX).privateKey,
      });
      bridgeRelayer = relayerFor(devnet, bridge);
    }
    const file = path.join(root, ".data", "devnet.json");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ ...devnet.chainConfig(), ...bridge?.chainConfig() }, null, 2)}\n`);
    env.CHAIN_CONFIG_FILE = file;
    // The devnet's funded relayer triggers recurring payments (DuebillRecurringPayments grants it RELAYER_ROLE).
    env.RELAYER_PRIVATE_KEY ??= devnet.accounts.relayer.privateKey;
    env.DEPOSIT_RELAYER_PRIVATE_KEY ??= devnet.accounts.depositRelayer.privateKey;
    env.SIGNATURE_RELAYER_PRIVATE_KEY ??= devnet.accounts.signatureRelayer.privateKey;
    console.log(describeDevnet(devnet, path.relative(root, file)));
    if (bridge)
      console.log(
        `  Cross-chain    source chain ${bridge.rpcUrl} (chain id ${bridge.chainId}, standing in for "${bridge.network}"), bridge ${bridge.bridge};\n` +
          `                 pay a request from it: GET /v2/request/{id}/pay?wallet=…&chain=ARBITRUM&token=USDC`,
      );
  }
  // Dev and embedded runs detect payments inside the web server; production runs `npm run worker` or cron.
  env.WORKER_INLINE ??= mode === "dev" || isEmbedded ? "true" : "false";
  const prisma = path.join(root, "node_modules", "prisma", "build", "index.js");
  await run([prisma, "migrate", "deploy"], env);
  if (isEmbedded) {
    const out = await run(
      [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/ops/seed.ts", "--json", ...(devnet ? ["--demo-payments"] : [])],
      env,
      true,
    );
    const demo = JSON.parse(out.trim().split("\n").pop() ?? "{}");
    console.log(
      `[duebill] demo account ready. Try:\n  curl -H "x-api-key: ${demo.apiKey}" ${appUrl}/v2/currencies\n  (client IDs: ${demo.clientId}, ${demo.browserClientId})\n` +
        `  Dashboard: ${appUrl}/sign-in as ${demo.signIn?.email} / ${demo.signIn?.password}\n` +
        `  Operations: ${appUrl}/admin (the demo user is the local operator)`,
    );
  }
  // The CLIs (npm run seed / admin / devnet:*) find this run's embedded database and devnet here.
  writeRuntimeFile({
    pid: process.pid,
    appUrl: env.APP_URL,
    ...(isEmbedded ? { embeddedDatabaseUrl: env.DATABASE_URL } : {}),
    ...(devnet ? { chainConfigFile: env.CHAIN_CONFIG_FILE } : {}),
  });
  const next = path.join(root, "node_modules", "next", "dist", "bin", "next");
  if (mode === "start" && !existsSync(path.join(root, ".next", "BUILD_ID"))) {
    console.log("[duebill] no production build yet: running `next build` first");
    await run([next, "build"], env);
  }
  // Production serves through scripts/runtime/server.mjs (Next's handler with the socket's peer address, see there).
  const args = mode === "start" ? [path.join(root, "scripts", "runtime", "server.mjs"), "--port", port] : [next, "dev", "--port", port];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: mode === "start" ? { ...env, NODE_ENV: "production" } : env,
    // The production server gets an IPC channel only to notice this process going away (see server.mjs).
    stdio: mode === "start" ? ["inherit", "inherit", "inherit", "ipc"] : "inherit",
  });
  children.push(child);
  // The server ending on its own (e.g. its port is taken: exit code 1) ends the run with its code; stopped
  // by Ctrl-C / SIGTERM (the whole process group gets them) is a clean stop, killed otherwise is a failure.
  child.on("exit", (code, signal) => void shutdown(code ?? (stopping || signal === "SIGINT" || signal === "SIGTERM" ? 0 : 1)));
}

main().catch(async (err: unknown) => {
  console.error(`[duebill] ${err instanceof Error ? err.message : String(err)}`);
  await shutdown(1);
});
