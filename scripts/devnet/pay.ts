/**
 * `npm run devnet:pay -- <requestId> --key <api key> [--app URL] [--rpc URL]` (default: the running `npm run dev`, whatever its ports)
 * Pays a request on the local devnet as the demo payer (anvil account 1): asks the running
 * app for the calldata (GET /v2/request/{id}/pay?wallet=payer) and sends each transaction.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { createPublicClient, createWalletClient, defineChain, http } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { readRuntimeFile } from "../runtime/runtime-file";
import { ANVIL_MNEMONIC } from "./anvil";
import { devnetRpcUrl } from "./time";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    key: { type: "string" },
    app: { type: "string" },
    rpc: { type: "string" },
  },
});
// A running `npm run dev` says where it is (.data/runtime.json and its devnet's chain config), whatever its ports.
const running = readRuntimeFile();
const app = values.app ?? running?.appUrl ?? "http://localhost:3000";
const rpcUrl = devnetRpcUrl(values.rpc, running?.chainConfigFile ?? path.join(".data", "devnet.json"));

async function main(): Promise<void> {
  const requestId = positionals[0];
  if (!requestId || !values.key) throw new Error("usage: npm run devnet:pay -- <requestId> --key <api key>");
  const account = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 1 });
  const res = await fetch(`${app}/v2/request/${requestId}/pay?wallet=${account.address}`, { headers: { "x-api-key": values.key } });
  const body = (await res.json()) as {
    transactions?: { to: `0x${string}`; data: `0x${string}`; value: { hex: `0x${string}` } }[];
    message?: string;
  };
  if (!res.ok || !body.transactions) throw new Error(`the app answered ${res.status}: ${body.message ?? JSON.stringify(body)}`);
  const rpc = createPublicClient({ transport: http(rpcUrl) });
  const chain = defineChain({
    id: await rpc.getChainId(),
    name: "devnet",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
  for (const [i, tx] of body.transactions.entries()) {
    const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value.hex) });
    const receipt = await rpc.waitForTransactionReceipt({ hash });
    console.log(`transaction ${i + 1}/${body.transactions.length}: ${hash} (${receipt.status}, block ${receipt.blockNumber})`);
  }
  console.log(`paid from ${account.address}; GET ${app}/v2/request/${requestId} shows hasBeenPaid once detected (~1 s)`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
