import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * A Postgres cluster of the test's own (initdb + pg_ctl in a temp dir, on a free port), so a
 * test can stop and restart "the database" without touching the machine's server that other
 * suites share. As root (this VM), the server runs as the `postgres` user (initdb refuses root).
 */
const BIN = process.env.PG_BIN_DIR ?? "/usr/lib/postgresql/15/bin";

export interface PrivatePostgres {
  url: string;
  stop(): void;
  start(): void;
  /** `pg_ctl restart -m fast`: open connections are terminated (57P01), new ones refused meanwhile. */
  restart(): void;
  destroy(): void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startPrivatePostgres(database: string): Promise<PrivatePostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "duebill-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync("chown", ["postgres", dir]);
  const run = (bin: string, args: string[]) => {
    const cmd = asRoot ? "runuser" : path.join(BIN, bin);
    const argv = asRoot ? ["-u", "postgres", "--", path.join(BIN, bin), ...args] : args;
    const r = spawnSync(cmd, argv, { encoding: "utf8", cwd: dir });
    if (r.status !== 0) throw new Error(`${bin} ${args.join(" ")} failed: ${r.stderr || r.stdout}`);
  };
  const data = path.join(dir, "data");
  const port = await freePort();
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const ctl = (action: string, extra: string[] = []) =>
    run("pg_ctl", [action, "-D", data, "-w", "-t", "60", "-l", path.join(dir, "log"), "-o", opts, ...extra]);
  ctl("start");
  run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", database]);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/${database}`,
    stop: () => ctl("stop", ["-m", "fast"]),
    start: () => ctl("start"),
    restart: () => ctl("restart", ["-m", "fast"]),
    destroy: () => {
      try {
        ctl("stop", ["-m", "immediate"]);
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
