/**
 * How the CLIs find a running `npm run dev` / `npm start`: run.ts writes `.data/runtime.json`
 * (the embedded database's URL, the devnet's chain config file, the app URL, its pid) and removes
 * it on exit. `adoptRunningApp()` fills in what the caller's environment leaves unset, so
 * `npm run seed`, `npm run admin …` and the devnet helpers work beside a running app exactly as
 * the README shows, without copying URLs around. Only an embedded database's URL is written
 * (it has no password); a configured DATABASE_URL stays in the environment it came from.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
export const RUNTIME_FILE = path.join(ROOT, ".data", "runtime.json");

export interface RuntimeInfo {
  pid: number;
  appUrl: string;
  /** Set in embedded mode only. */
  embeddedDatabaseUrl?: string;
  /** Set when run.ts started a devnet. */
  chainConfigFile?: string;
}

export function writeRuntimeFile(info: RuntimeInfo): void {
  // A fresh clone has no .data/ (git-ignored): with DATABASE_URL nothing else creates it.
  mkdirSync(path.dirname(RUNTIME_FILE), { recursive: true });
  writeFileSync(RUNTIME_FILE, `${JSON.stringify(info, null, 2)}\n`);
}

export function removeRuntimeFile(pid: number): void {
  const info = readRuntimeFile();
  if (info?.pid === pid) rmSync(RUNTIME_FILE, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function readRuntimeFile(): RuntimeInfo | null {
  if (!existsSync(RUNTIME_FILE)) return null;
  try {
    const info = JSON.parse(readFileSync(RUNTIME_FILE, "utf8")) as RuntimeInfo;
    return typeof info.pid === "number" && alive(info.pid) ? info : null;
  } catch {
    return null;
  }
}

/**
 * Points this process at the running app's embedded database and devnet where its own
 * environment says nothing (an explicit DATABASE_URL / CHAIN_CONFIG / RPC_URL_* always wins).
 * Call before anything reads lib/env. Returns what was taken, for a one-line notice.
 */
export function adoptRunningApp(env: NodeJS.ProcessEnv = process.env): string[] {
  const info = readRuntimeFile();
  if (!info) return [];
  const taken: string[] = [];
  if (!env.DATABASE_URL && info.embeddedDatabaseUrl) {
    env.DATABASE_URL = info.embeddedDatabaseUrl;
    taken.push("embedded database");
  }
  const chainConfigured = env.CHAIN_CONFIG || env.CHAIN_CONFIG_FILE || Object.keys(env).some((k) => k.startsWith("RPC_URL_") && env[k]);
  if (!chainConfigured && info.chainConfigFile && existsSync(info.chainConfigFile)) {
    env.CHAIN_CONFIG_FILE = info.chainConfigFile;
    taken.push("devnet");
  }
  if (!env.APP_URL) env.APP_URL = info.appUrl;
  return taken;
}
