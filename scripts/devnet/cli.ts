/**
 * `npx tsx scripts/devnet/cli.ts [--port 8545] [--chain-id 11155111] [--network sepolia]
 *  [--block-time <s>] [--out .data/devnet.json] [--verbose]`
 * Starts the devnet, writes its chain config for the app (CHAIN_CONFIG_FILE) and stays up until
 * SIGINT/SIGTERM. The file is kept on exit: with the same port the next run writes the same
 * addresses (fixed deployer nonces), so a running app's config stays valid across restarts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { startDevnet } from "./index";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8545" },
    "chain-id": { type: "string", default: "11155111" },
    network: { type: "string", default: "sepolia" },
    "block-time": { type: "string" },
    out: { type: "string", default: path.join(".data", "devnet.json") },
    verbose: { type: "boolean", default: false },
  },
});

function int(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

async function main(): Promise<void> {
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

  const a = devnet.accounts;
  const shown = path.relative(process.cwd(), out).startsWith("..") ? out : path.relative(process.cwd(), out);
  console.log(
    [
      `[devnet] anvil up in ${devnet.timings.anvilMs} ms, contracts deployed in ${devnet.timings.deployMs} ms`,
      `  RPC URL        ${devnet.rpcUrl}  (chain id ${devnet.chainId}, standing in for "${devnet.network}")`,
      `  ERC20FeeProxy  ${devnet.contracts.erc20FeeProxy}  (creation block ${devnet.contracts.erc20FeeProxyCreationBlock})`,
      `  Batch          ${devnet.contracts.batchPayments}  (BatchConversionPayments)`,
      `  USDC (6)       ${devnet.tokens.USDC}`,
      `  USDT (6)       ${devnet.tokens.USDT}  (USDT-like: no return values, approve 0 before changing)`,
      `  FAU (18)       ${devnet.tokens.FAU}`,
      `  payer          ${a.payer.address}  key ${a.payer.privateKey}  (1,000,000 of each token + 10,000 ETH)`,
      `  payee          ${a.payee.address}`,
      `  fee recipient  ${a.feeRecipient.address}`,
      `  relayer        ${a.relayer.address}  key ${a.relayer.privateKey}  (funded like the payer)`,
      `  chain config   ${shown}  -> start the app with CHAIN_CONFIG_FILE=${shown}`,
      "  Anyone may mint test tokens: mint(address,uint256). These keys are public: local use only.",
      "[devnet] Ctrl-C to stop",
    ].join("\n"),
  );

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
