/**
 * The first hour, as a newcomer lives it: a fresh clone, `npm run dev`, and the README's
 * walkthrough commands run exactly as written (the blocks after `<!-- walkthrough: name -->`
 * markers, with only the placeholders filled in and the port moved off 3000). Then Ctrl-C and
 * `npm run dev` again: the devnet restarts from block 0 while the embedded database keeps its
 * detection cursor, and a new payment must still be detected, with nothing lost.
 *
 * `npm install` itself is what CI's `.ci/run` runs; the clone gets this checkout's node_modules
 * as hard links (a symlink would point Turbopack outside the project root).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { getFreePort } from "@/scripts/devnet";
import { expect, test } from "./support/fixtures";

const ROOT = path.resolve(__dirname, "..");

/** The bash block that follows `<!-- walkthrough: name -->` in the README. */
function walkthrough(readme: string, name: string): string {
  const m = new RegExp(`<!-- walkthrough: ${name} -->\\s*\`\`\`bash\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!m?.[1]) throw new Error(`README has no walkthrough block "${name}"`);
  return m[1];
}

interface Dev {
  proc: ChildProcess;
  output: () => string;
}

function startDev(dir: string, env: NodeJS.ProcessEnv): Dev {
  const proc = spawn("npm", ["run", "dev"], { cwd: dir, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout?.on("data", (d: Buffer) => {
    out += d.toString("utf8");
  });
  proc.stderr?.on("data", (d: Buffer) => {
    out += d.toString("utf8");
  });
  return { proc, output: () => out };
}

async function stopDev(dev: Dev): Promise<void> {
  if (dev.proc.exitCode !== null || !dev.proc.pid) return;
  const exited = new Promise<void>((r) => dev.proc.once("exit", () => r()));
  process.kill(-dev.proc.pid, "SIGINT"); // Ctrl-C reaches the whole process group
  const timer = setTimeout(() => {
    try {
      process.kill(-dev.proc.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }, 20_000);
  await exited;
  clearTimeout(timer);
}

const tail = (dev: Dev) => dev.output().split("\n").slice(-40).join("\n");

async function waitFor(dev: Dev, what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (dev.proc.exitCode !== null) throw new Error(`npm run dev exited (${dev.proc.exitCode}) while waiting for ${what}:\n${tail(dev)}`);
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`timed out waiting for ${what}:\n${tail(dev)}`);
}

test("a fresh clone: npm run dev and the README's walkthrough as written; after a restart a new payment is detected", async () => {
  test.setTimeout(8 * 60_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), "duebill-first-hour-"));
  let dev: Dev | undefined;
  try {
    execFileSync("git", ["clone", "-q", ROOT, dir]);
    try {
      execFileSync("cp", ["-al", path.join(ROOT, "node_modules"), path.join(dir, "node_modules")]);
    } catch {
      cpSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), { recursive: true, verbatimSymlinks: true });
    }
    execFileSync(process.execPath, ["node_modules/prisma/build/index.js", "generate"], { cwd: dir, stdio: "ignore" });
    const [port, dbPort, chainPort, bridgePort] = [await getFreePort(), await getFreePort(), await getFreePort(), await getFreePort()];
    const env: NodeJS.ProcessEnv = {
      NODE_ENV: "development",
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      EMBEDDED_DB_PORT: String(dbPort),
    };
    env.DEVNET_PORT = String(chainPort);
    env.DEVNET_BRIDGE_PORT = String(bridgePort);
    const base = `http://localhost:${port}`;
    const readme = readFileSync(path.join(dir, "README.md"), "utf8");
    const bash = (script: string, vars: Record<string, string> = {}) => {
      let s = script.replaceAll("localhost:3000", `localhost:${port}`);
      for (const [k, v] of Object.entries(vars)) s = s.replaceAll(k, v);
      return execFileSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", s], {
        cwd: dir,
        env,
        encoding: "utf8",
        timeout: 120_000,
      });
    };

    dev = startDev(dir, env);
    await waitFor(dev, "the demo key", async () => /x-api-key: (dbk_\S+?)"/.test(dev!.output()), 120_000);
    const key = /x-api-key: (dbk_\S+?)"/.exec(dev.output())![1]!;
    await waitFor(dev, "the app", async () => (await fetch(`${base}/api/health`)).status < 500, 120_000);

    // Quick start: currencies with the printed key.
    const currencies = JSON.parse(bash(walkthrough(readme, "currencies").replace("curl ", "curl -sf "), { "<printed key>": key }));
    expect(Array.isArray(currencies) && currencies.length).toBeGreaterThan(0);

    // Create a payout, pay it with devnet:pay, see it paid.
    const payout = JSON.parse(bash(walkthrough(readme, "payout"), { "<printed api key>": key }));
    expect(payout.requestId, JSON.stringify(payout)).toMatch(/^01[0-9a-f]{64}$/);
    const pay = walkthrough(readme, "pay").split("\n");
    bash(pay.filter((l) => l.startsWith("npm run devnet:pay")).join("\n"), { "<requestId>": payout.requestId, $KEY: key });
    const getRequest = pay.find((l) => l.startsWith("curl"))!.replace(/\s+#.*$/, "");
    const paid = async (id: string) => JSON.parse(bash(getRequest, { "<requestId>": id, $KEY: key })).hasBeenPaid === true;
    await waitFor(dev, "the payout detected", () => paid(payout.requestId), 30_000);

    // A link: seed (finds the running app by itself), admin, create, open the page.
    const link = walkthrough(readme, "link").split("\n");
    const seeded = JSON.parse(
      bash(link.find((l) => l.startsWith("npm run seed"))!.replace(/\s+#.*$/, ""))
        .trim()
        .split("\n")
        .pop()!,
    );
    expect(seeded.apiKey).toBe(key);
    const devnetConfig = JSON.parse(readFileSync(path.join(dir, ".data", "devnet.json"), "utf8"));
    expect(String(seeded.destinationId).toLowerCase()).toContain(String(devnetConfig.sepolia.tokens.USDC).toLowerCase());
    bash(link.find((l) => l.startsWith("npm run admin"))!.replace(/\s+#.*$/, ""));
    const curlLink = link.slice(link.findIndex((l) => l.startsWith("curl"))).join("\n");
    const created = JSON.parse(bash(curlLink, { $KEY: key }));
    expect(created.securePaymentUrl, JSON.stringify(created)).toContain(`/pay/${created.token}`);
    const page = await fetch(`${base}/pay/${created.token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Demo shop");
    expect(html).toContain("Studio plan, November");

    // Ctrl-C, then npm run dev again: a fresh devnet from block 0, the same database.
    await stopDev(dev);
    dev = startDev(dir, env);
    await waitFor(dev, "the app after the restart", async () => (await fetch(`${base}/api/health`)).status < 500, 120_000);
    expect(await paid(payout.requestId)).toBe(true); // nothing lost
    const second = JSON.parse(bash(walkthrough(readme, "payout"), { "<printed api key>": key }));
    bash(pay.filter((l) => l.startsWith("npm run devnet:pay")).join("\n"), { "<requestId>": second.requestId, $KEY: key });
    await waitFor(dev, "the payment on the restarted devnet detected", () => paid(second.requestId), 30_000);
  } finally {
    if (dev) await stopDev(dev);
    rmSync(dir, { recursive: true, force: true });
  }
});
