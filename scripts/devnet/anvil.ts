/**
 * Starts and stops the anvil binary shipped inside the @foundry-rs/anvil-<os>-<arch> npm package.
 * The binary is spawned directly (not through `npx`/the meta package's bin.mjs): faster, and only
 * the platform package is installed here.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";

/** Anvil's own default mnemonic, passed explicitly so the accounts never depend on its defaults. */
export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

const OS: Partial<Record<NodeJS.Platform, string>> = { linux: "linux", darwin: "darwin", win32: "win32" };
const ARCH: Partial<Record<string, string>> = { x64: "amd64", arm64: "arm64" };

/** Path of the anvil executable for this OS/CPU; `ANVIL_BINARY` overrides (e.g. a foundryup install). */
export function anvilBinaryPath(): string {
  if (process.env.ANVIL_BINARY) return process.env.ANVIL_BINARY;
  const os = OS[process.platform];
  const arch = ARCH[process.arch];
  const pkg = os && arch ? `@foundry-rs/anvil-${os}-${arch}` : undefined;
  if (!pkg) throw new Error(`anvil: no @foundry-rs package for ${process.platform}/${process.arch}; set ANVIL_BINARY`);
  const require = createRequire(__filename);
  let pkgJson: string;
  try {
    pkgJson = require.resolve(`${pkg}/package.json`);
  } catch {
    throw new Error(`anvil: ${pkg} is not installed (npm install --save-optional ${pkg}@1.7.1), or set ANVIL_BINARY`);
  }
  return path.join(path.dirname(pkgJson), "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
}

/**
 * A port that was free a moment ago (bind 0, read it, close). `port: 0` in startAnvil/startDevnet
 * uses it and retries when another process takes the port in between.
 */
export function getFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === "object" ? resolve(addr.port) : reject(new Error("no port"))));
    });
  });
}

export interface AnvilOptions {
  /** 0 = any free port (see getFreePort). */
  port: number;
  chainId: number;
  quiet: boolean;
}

export interface AnvilProcess {
  rpcUrl: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * On POSIX anvil runs under a small `sh` watchdog that reads our stdin pipe: when this process
 * ends in any way (even SIGKILL, e.g. a killed vitest worker) the pipe closes, `cat` returns and
 * the watchdog kills anvil. Exit/signal hooks alone miss SIGKILL and crashes, and a leaked anvil
 * would hold its port and a core on a 2-core machine. The watchdog itself exits with anvil, so
 * an anvil that dies on its own (port taken, crash) is seen as an exit here.
 */
// fd 3: sh gives background jobs /dev/null as stdin unless it is redirected explicitly.
const WATCHDOG =
  'bin="$1"; shift; exec 3<&0; "$bin" "$@" </dev/null 3<&- & pid=$!; (cat <&3 >/dev/null; kill $pid 2>/dev/null) & wait $pid';

/** Fails fast with a clear message instead of talking to whatever already listens there. */
function assertPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === "EADDRINUSE" ? `port ${port} is already in use (another devnet or node running?)` : err.message)),
    );
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve()));
  });
}

export async function startAnvil(opts: AnvilOptions): Promise<AnvilProcess> {
  // anvil block-buffers stdout when it is not a TTY, so its "Listening on" line cannot be read
  // back in time: a port is picked here instead, retried if someone grabs it in between.
  for (let attempt = 1; ; attempt++) {
    const port = opts.port === 0 ? await getFreePort() : opts.port;
    try {
      return await launch({ ...opts, port });
    } catch (err) {
      const inUse = err instanceof Error && /already in use/i.test(err.message);
      if (!(opts.port === 0 && inUse && attempt < 3)) throw err;
    }
  }
}

async function launch(opts: AnvilOptions): Promise<AnvilProcess> {
  const bin = anvilBinaryPath();
  await assertPortFree(opts.port);
  // Automine (no --block-time): deployment is instant; interval mining is switched on afterwards.
  const args = [
    "--host",
    "127.0.0.1",
    "--port",
    String(opts.port),
    "--chain-id",
    String(opts.chainId),
    "--mnemonic",
    ANVIL_MNEMONIC,
    "--accounts",
    "10",
  ];
  if (opts.quiet) args.push("--quiet");
  const posix = process.platform !== "win32";
  const child = posix
    ? spawn("/bin/sh", ["-c", WATCHDOG, "anvil-watchdog", bin, ...args], { stdio: ["pipe", "pipe", "pipe"], detached: true })
    : spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
  const unhook = killOnExit(child, posix);
  const stop = async () => {
    await stopChild(child, posix);
    unhook();
  };

  let output = ""; // the start-up output only, for error messages
  let ready = false;
  const onData = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    if (!opts.quiet) process.stdout.write(text);
    if (!ready) output = (output + text).slice(-8_000);
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  const exited = new Promise<never>((_, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => {
      child.stdin?.destroy(); // lets the watchdog's leftover `cat` see EOF and go
      reject(new Error(`anvil exited with code ${code} while starting on port ${opts.port}: ${output.trim()}`));
    });
  });
  exited.catch(() => {}); // observed below; after start-up an exit is not an error

  const rpcUrl = `http://127.0.0.1:${opts.port}`;
  try {
    await Promise.race([waitForRpc(rpcUrl, opts.chainId), exited]);
  } catch (err) {
    await stop();
    // Give a late exit (e.g. "Address already in use") the chance to explain a timeout.
    throw err instanceof Error && !/already in use/i.test(err.message) && /already in use/i.test(output) ? new Error(output.trim()) : err;
  }
  ready = true;
  return { rpcUrl, port: opts.port, stop };
}

/** Polls eth_chainId until anvil answers with the expected chain (max ~10 s). */
async function waitForRpc(rpcUrl: string, chainId: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const result = await rpcCall(rpcUrl, "eth_chainId");
      if (result !== undefined && Number(result) === chainId) return await assertFreshChain(rpcUrl);
      last = `eth_chainId = ${String(result)}`;
    } catch (err) {
      if (err instanceof FreshChainError) throw err;
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`anvil at ${rpcUrl} did not answer eth_chainId=${chainId} within 10 s (${last})`);
}

async function rpcCall(rpcUrl: string, method: string): Promise<unknown> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: [] }),
  });
  return ((await res.json()) as { result?: unknown }).result;
}

class FreshChainError extends Error {}

/** A just-started anvil is at block 0: anything else means another node answered on this port. */
async function assertFreshChain(rpcUrl: string): Promise<void> {
  const block = Number(await rpcCall(rpcUrl, "eth_blockNumber"));
  if (block !== 0) throw new FreshChainError(`${rpcUrl} is an existing chain at block ${block}, not the anvil just started`);
}

function stopChild(child: ChildProcess, posix: boolean): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    // Escalate only if the polite way stalls: TERM the group, then KILL it.
    const term = setTimeout(() => signal(child, posix, "SIGTERM"), 2_000);
    const kill = setTimeout(() => signal(child, posix, "SIGKILL"), 4_000);
    child.once("exit", () => {
      clearTimeout(term);
      clearTimeout(kill);
      resolve();
    });
    // Closing the watchdog's stdin makes it kill anvil and reap it (signalling the group
    // first would kill sh too and leave anvil a zombie until init collects it).
    if (posix) child.stdin?.end();
    else signal(child, posix, "SIGTERM");
  });
}

/** The watchdog is its own process group (detached), so signalling -pid reaches sh and anvil. */
function signal(child: ChildProcess, posix: boolean, sig: NodeJS.Signals): void {
  try {
    if (posix && child.pid) process.kill(-child.pid, sig);
    else child.kill(sig);
  } catch {
    // Already gone.
  }
}

/** Best effort for a normal exit (and the only guard on Windows, where there is no watchdog). */
function killOnExit(child: ChildProcess, posix: boolean): () => void {
  const onExit = () => signal(child, posix, "SIGKILL");
  process.once("exit", onExit);
  return () => process.removeListener("exit", onExit);
}
