/**
 * `npx tsx scripts/devnet/cli.ts [--port 8545] [--chain-id 11155111] [--network sepolia]
 *  [--block-time <s>] [--out .data/devnet.json] [--verbose]`
 * Starts the devnet, writes its chain config for the app (CHAIN_CONFIG_FILE) and stays up until
 * SIGINT/SIGTERM. The file is kept on exit: with the same port the next run writes the same
 * addresses (fixed deployer nonces), so a running app's config stays valid across restarts.
 *
 * `npm run devnet -- time [+30d | 2028-01-31T12:00:00Z | @<unix>] [--rpc URL] [--config .data/devnet.json]`
 * moves the running devnet's clock (scripts/devnet/time.ts); without a target it prints the chain's time.
 *
 * `npm run devnet -- rate EUR 1.08 [--age 2h] [--rpc URL] [--config .data/devnet.json]` sets a price feed of
 * the running devnet (scripts/devnet/rate.ts): EUR, GBP, CNY or JPY → USD, or a test token → USD.
 * `--age` backdates the feed's update time (a rate older than maxRateTimespan makes conversion payments revert);
 * without a value it prints the feeds.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { readRuntimeFile } from "../runtime/runtime-file";
import { describeDevnet } from "./describe";
import { startDevnet } from "./index";
import { listDevnetRates, parseAge, setDevnetRate } from "./rate";
import { chainTime, devnetRpcUrl, moveDevnetClock, parseClockTarget } from "./time";

const DEFAULT_OUT = path.join(".data", "devnet.json");

async function time(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { rpc: { type: "string" }, config: { type: "string", default: DEFAULT_OUT } },
  });
  if (positionals.length > 1) throw new Error("usage: npm run devnet -- time [+30d | 2028-01-31T12:00:00Z | @<unix seconds>] [--rpc URL]");
  const rpcUrl = devnetRpcUrl(values.rpc, values.config);
  const iso = (t: number) => new Date(t * 1000).toISOString();
  const [target] = positionals;
  if (target === undefined) {
    console.log(`[devnet] ${rpcUrl}: chain time ${iso(await chainTime(rpcUrl))}`);
    return;
  }
  const { before, after } = await moveDevnetClock(rpcUrl, parseClockTarget(target));
  console.log(`[devnet] ${rpcUrl}: chain time ${iso(before)} -> ${iso(after)} (+${after - before} s, new block mined)`);
}

async function rate(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { rpc: { type: "string" }, config: { type: "string" }, age: { type: "string" } },
  });
  // A running `npm run dev` names its devnet's config file (.data/runtime.json); else the default one.
  const config = values.config ?? readRuntimeFile()?.chainConfigFile ?? DEFAULT_OUT;
  const [feed, value] = positionals;
  if (positionals.length > 2 || (feed !== undefined && value === undefined))
    throw new Error("usage: npm run devnet -- rate [EUR|GBP|CNY|JPY|USDC|USDT|FAU <rate to USD>] [--age 2h] [--rpc URL] [--config FILE]");
  if (feed === undefined || value === undefined) {
    for (const line of await listDevnetRates(config, values.rpc)) console.log(line);
    return;
  }
  const set = await setDevnetRate(config, { feed, value, ageSeconds: values.age ? parseAge(values.age) : 0, rpc: values.rpc });
  console.log(
    `[devnet] ${set.rpcUrl}: ${set.feed} → USD = ${set.value} (feed ${set.aggregator}, updated ${new Date(set.updatedAt * 1000).toISOString()})`,
  );
}

const argv = process.argv.slice(2);
const values =
  argv[0] === "time" || argv[0] === "rate"
    ? undefined
    : parseArgs({
        args: argv,
        options: {
          port: { type: "string", default: "8545" },
          "chain-id": { type: "string", default: "11155111" },
          network: { type: "string", default: "sepolia" },
          "block-time": { type: "string" },
          out: { type: "string", default: DEFAULT_OUT },
          verbose: { type: "boolean", default: false },
        },
      }).values;

function int(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

async function main(): Promise<void> {
  if (!values) return argv[0] === "rate" ? rate(argv.slice(1)) : time(argv.slice(1));
  const devnet = await startDevnet({
    port: int("port", values.port),
    chainId: int("chain-id", values["chain-id"]),
    network: values.network,
    blockTime: values["block-time"] === undefined ? undefined : int("block-time", values["block-time"]),
    quiet: !values.verbose,
  });
  const out = path.resolve(values.out);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(devnet.chainConfig(), null, 2)}\n`);

  const shown = path.relative(process.cwd(), out).startsWith("..") ? out : path.relative(process.cwd(), out);
  console.log(`${describeDevnet(devnet, `${shown}  -> start the app with CHAIN_CONFIG_FILE=${shown}`)}\n[devnet] Ctrl-C to stop`);

  let stopping = false;
  const stop = async (sig: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[devnet] ${sig}: stopping anvil`);
    await devnet.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((err: unknown) => {
  console.error(`[devnet] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
