/**
 * `npm run dev` / `npm start`. With DATABASE_URL set it migrates that database and starts
 * Next. Without it, it starts the embedded database (scripts/embedded-db.ts), migrates it,
 * seeds the demo account, prints its credentials, and starts Next against it.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { type EmbeddedDb, startEmbeddedDb } from "./embedded-db";

const mode = process.argv[2] === "start" ? "start" : "dev";
const root = path.resolve(__dirname, "..");
const port = process.env.PORT ?? "3000";
const children: ChildProcess[] = [];
let embedded: EmbeddedDb | undefined;

function runSync(cmd: string, args: string[], env: NodeJS.ProcessEnv): void {
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited with ${r.status}`);
}

async function shutdown(code: number): Promise<never> {
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  await embedded?.stop().catch(() => {});
  process.exit(code);
}

async function main(): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1" };
  const isEmbedded = !env.DATABASE_URL;
  if (isEmbedded) {
    const dataDir = path.join(root, ".data", "pglite");
    const dbPort = Number(env.EMBEDDED_DB_PORT ?? 54329);
    console.log(`[duebill] no DATABASE_URL: starting the embedded database (${path.relative(root, dataDir)}, port ${dbPort})`);
    embedded = await startEmbeddedDb({ dataDir, port: dbPort });
    // PGlite runs one transaction at a time: a small pool avoids queueing behind itself.
    Object.assign(env, { DATABASE_URL: embedded.url, DATABASE_POOL_MAX: env.DATABASE_POOL_MAX ?? "4" });
  }
  const prisma = path.join(root, "node_modules", "prisma", "build", "index.js");
  runSync(process.execPath, [prisma, "migrate", "deploy"], env);
  if (isEmbedded) {
    const seed = spawnSync(process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/seed.ts", "--json"], {
      cwd: root,
      env,
      encoding: "utf8",
    });
    if (seed.status === 0) {
      const demo = JSON.parse(seed.stdout.trim().split("\n").pop() ?? "{}");
      console.log(
        `[duebill] demo account ready. Try:\n  curl -H "x-api-key: ${demo.apiKey}" http://localhost:${port}/v2/currencies\n  (client IDs: ${demo.clientId}, ${demo.browserClientId})`,
      );
    } else {
      console.error(`[duebill] seeding the demo account failed:\n${seed.stderr}`);
    }
  }
  const next = path.join(root, "node_modules", "next", "dist", "bin", "next");
  if (mode === "start" && !existsSync(path.join(root, ".next", "BUILD_ID"))) {
    console.log("[duebill] no production build yet: running `next build` first");
    runSync(process.execPath, [next, "build"], env);
  }
  const child = spawn(process.execPath, [next, mode, "--port", port], { cwd: root, env, stdio: "inherit" });
  children.push(child);
  child.on("exit", (code) => void shutdown(code ?? 0));
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => void shutdown(0));
}

main().catch(async (err: unknown) => {
  console.error(`[duebill] ${err instanceof Error ? err.message : String(err)}`);
  await shutdown(1);
});
