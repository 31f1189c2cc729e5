/**
 * `npm run devnet:subscribe -- <created.json | -> --key <api key> [--app http://localhost:3000] [--rpc http://127.0.0.1:8545]`
 * The payer's side of a recurring payout on the local devnet, as the demo payer (anvil account 1):
 * reads the response of `POST /v2/payouts` with `recurrence` (a file, or `-` for stdin), sends its
 * approval transactions, signs `recurringPaymentPermit` exactly as returned (EIP-712) and activates
 * the schedule with `POST /v2/payouts/recurring/{id}`. A wallet does the same in production.
 */
import { readFileSync } from "node:fs";
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

interface Created {
  id?: string;
  transactions?: { to: `0x${string}`; data: `0x${string}`; value: { hex: `0x${string}` } }[];
  recurringPaymentPermit?: {
    domain: Record<string, unknown>;
    types: Record<string, unknown>;
    primaryType: string;
    values: Record<string, unknown>;
  };
  message?: string;
}

async function main(): Promise<void> {
  const source = positionals[0];
  if (!source || !values.key) throw new Error("usage: npm run devnet:subscribe -- <created.json | -> --key <api key>");
  const created = JSON.parse(readFileSync(source === "-" ? 0 : source, "utf8")) as Created;
  if (!created.id || !created.recurringPaymentPermit || !created.transactions)
    throw new Error(`not a recurring payout creation response: ${created.message ?? JSON.stringify(created).slice(0, 200)}`);
  const account = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 1 });
  const permit = created.recurringPaymentPermit;
  if (String(permit.values.subscriber).toLowerCase() !== account.address.toLowerCase())
    throw new Error(`the permit's payer is ${permit.values.subscriber}; this script signs as the devnet payer ${account.address}`);
  const rpc = createPublicClient({ transport: http(rpcUrl) });
  const chain = defineChain({
    id: await rpc.getChainId(),
    name: "devnet",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
  for (const [i, tx] of created.transactions.entries()) {
    const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value.hex) });
    const receipt = await rpc.waitForTransactionReceipt({ hash });
    console.log(`approval ${i + 1}/${created.transactions.length}: ${hash} (${receipt.status})`);
  }
  const signature = await account.signTypedData({
    domain: permit.domain,
    types: permit.types,
    primaryType: permit.primaryType,
    message: permit.values,
  } as Parameters<typeof account.signTypedData>[0]);
  console.log(`permit signed by ${account.address}: ${signature}`);
  const res = await fetch(`${app}/v2/payouts/recurring/${created.id}`, {
    method: "POST",
    headers: { "x-api-key": values.key, "content-type": "application/json" },
    body: JSON.stringify({ permitSignature: signature }),
  });
  console.log(`POST /v2/payouts/recurring/${created.id} → ${res.status} ${await res.text()}`);
  if (!res.ok) process.exitCode = 1;
  else console.log(`move the devnet clock to run it: npm run devnet -- time +1d; then GET ${app}/v2/payouts/recurring/${created.id}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
