/**
 * `npm run devnet -- rate EUR 1.08`: sets one of the running devnet's price feeds (DevnetAggregator,
 * owner = anvil account 0). The feed is found on chain, the way the app finds it: the devnet's
 * ChainlinkConversionPath (from its chain config file) maps `EUR hash → USD hash` (or `token → USD`)
 * to the aggregator.
 */
import { readFileSync } from "node:fs";
import { createPublicClient, createWalletClient, defineChain, formatUnits, http, parseUnits, zeroAddress } from "viem";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { chainlinkConversionPathAbi } from "@/lib/chain/conversion-abis";
import { ANVIL_MNEMONIC } from "./anvil";
import { AGGREGATOR_DECIMALS, DEVNET_FEEDS, devnetFiatHash } from "./deploy";
import { chainTime, devnetRpcUrl } from "./time";

type Address = `0x${string}`;

const FIATS = ["EUR", "GBP", "CNY", "JPY"];
const aggregatorAbi = compiledContracts.DevnetAggregator.abi;

interface NetworkConfig {
  rpcUrl?: string;
  contracts?: { chainlinkConversionPath?: string | null };
  tokens?: Record<string, string>;
}

function devnetConfig(configFile: string, rpc: string | undefined): { rpcUrl: string; path: Address; tokens: Record<string, string> } {
  const config = JSON.parse(readFileSync(configFile, "utf8")) as Record<string, NetworkConfig>;
  const net = Object.values(config).find((n) => n?.contracts?.chainlinkConversionPath);
  if (!net?.contracts?.chainlinkConversionPath)
    throw new Error(
      `${configFile} names no chainlinkConversionPath: restart the devnet (npm run devnet / npm run dev) to deploy the conversion contracts`,
    );
  return { rpcUrl: devnetRpcUrl(rpc, configFile), path: net.contracts.chainlinkConversionPath as Address, tokens: net.tokens ?? {} };
}

function feedInput(feed: string, tokens: Record<string, string>): Address {
  if (FIATS.includes(feed)) return devnetFiatHash(feed);
  const token = tokens[feed];
  if (!token) throw new Error(`unknown feed "${feed}": use one of ${Object.keys(DEVNET_FEEDS).join(", ")}`);
  return token as Address;
}

/** `90s`, `30m`, `2h`, `1d` or plain seconds. */
export function parseAge(text: string): number {
  const m = /^(\d+)([smhd]?)$/.exec(text.trim());
  if (!m) throw new Error(`--age "${text}": expected seconds or <n>s|m|h|d (e.g. 2h)`);
  return Number(m[1]) * { "": 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as "" | "s" | "m" | "h" | "d"];
}

async function aggregatorOf(rpcUrl: string, path: Address, input: Address): Promise<Address> {
  const pub = createPublicClient({ transport: http(rpcUrl) });
  const aggregator = await pub.readContract({
    address: path,
    abi: chainlinkConversionPathAbi,
    functionName: "allAggregators",
    args: [input, devnetFiatHash("USD")],
  });
  if (aggregator === zeroAddress) throw new Error(`no feed to USD is registered for ${input}`);
  return aggregator;
}

export async function setDevnetRate(
  configFile: string,
  p: { feed: string; value: string; ageSeconds: number; rpc?: string },
): Promise<{ rpcUrl: string; feed: string; value: string; aggregator: Address; updatedAt: number }> {
  const feed = p.feed.toUpperCase();
  const { rpcUrl, path, tokens } = devnetConfig(configFile, p.rpc);
  if (!/^\d+(\.\d+)?$/.test(p.value) || Number(p.value) <= 0) throw new Error(`rate "${p.value}" must be a positive decimal (1.08)`);
  const answer = parseUnits(p.value, AGGREGATOR_DECIMALS);
  if (answer === 0n) throw new Error(`rate "${p.value}" is below the feed's ${AGGREGATOR_DECIMALS} decimals`);
  const aggregator = await aggregatorOf(rpcUrl, path, feedInput(feed, tokens));
  const pub = createPublicClient({ transport: http(rpcUrl) });
  const chain = defineChain({
    id: await pub.getChainId(),
    name: "devnet",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const { mnemonicToAccount } = await import("viem/accounts");
  const wallet = createWalletClient({ chain, transport: http(rpcUrl), account: mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 0 }) });
  // The contract stamps the next block's time for 0; an age is counted back from the chain's clock.
  const updatedAt = p.ageSeconds > 0 ? Math.max(0, (await chainTime(rpcUrl)) - p.ageSeconds) : 0;
  const hash = await wallet.writeContract({
    address: aggregator,
    abi: aggregatorAbi,
    functionName: "setAnswer",
    args: [answer, BigInt(updatedAt)],
  });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`setAnswer reverted (${hash})`);
  const stamped = await pub.readContract({ address: aggregator, abi: aggregatorAbi, functionName: "latestTimestamp" });
  return { rpcUrl, feed, value: p.value, aggregator, updatedAt: Number(stamped) };
}

export async function listDevnetRates(configFile: string, rpc?: string): Promise<string[]> {
  const { rpcUrl, path, tokens } = devnetConfig(configFile, rpc);
  const pub = createPublicClient({ transport: http(rpcUrl) });
  const now = await chainTime(rpcUrl);
  const lines = [`[devnet] ${rpcUrl}: price feeds (chain time ${new Date(now * 1000).toISOString()})`];
  for (const feed of Object.keys(DEVNET_FEEDS)) {
    const aggregator = await aggregatorOf(rpcUrl, path, feedInput(feed, tokens));
    const [answer, at] = await Promise.all([
      pub.readContract({ address: aggregator, abi: aggregatorAbi, functionName: "latestAnswer" }),
      pub.readContract({ address: aggregator, abi: aggregatorAbi, functionName: "latestTimestamp" }),
    ]);
    lines.push(
      `  ${feed.padEnd(5)} → USD  ${formatUnits(answer, AGGREGATOR_DECIMALS).padEnd(10)} age ${now - Number(at)} s  (${aggregator})`,
    );
  }
  return lines;
}
