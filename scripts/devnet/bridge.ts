/**
 * The devnet's second chain for cross-chain payment: a source chain (anvil, standing in for
 * Arbitrum One by default) with USDC/USDT test tokens and the project's bridge contract
 * (contracts/devnet/DuebillDevnetBridge.sol). The bridge relayer (./bridge-relayer.ts) watches it
 * and pays requests on the destination devnet through ERC20FeeProxy from its own liquidity, so
 * ordinary detection marks them paid there.
 */
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  parseUnits,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { startAnvil } from "./anvil";
import { FUNDING_WHOLE_TOKENS } from "./deploy";
import type { Devnet } from "./index";

/** Anvil's dev account 6 relays the bridge on both chains (0–5 have other roles, scripts/devnet/index.ts). */
export const BRIDGE_RELAYER_INDEX = 6;

export interface BridgeDevnet {
  rpcUrl: string;
  chainId: number;
  /** The network id the source chain stands in for (a cross-chain source of the interface). */
  network: string;
  chain: Chain;
  bridge: Address;
  bridgeCreationBlock: number;
  tokens: { USDC: Address; USDT: Address };
  relayer: { address: Address; privateKey: Hex };
  /** The app's chain-config entry for the source network (merge with the destination devnet's). */
  chainConfig(): Record<string, unknown>;
  stop(): Promise<void>;
}

const SOURCE_TOKENS = { USDC: "TestUSDC", USDT: "TestUSDT" } as const;

export async function startBridgeDevnet(
  destination: Devnet,
  opts: { port?: number; chainId?: number; network?: string; relayerPrivateKey: Hex; quiet?: boolean },
): Promise<BridgeDevnet> {
  const chainId = opts.chainId ?? 42161;
  const network = opts.network ?? "arbitrum-one";
  const anvil = await startAnvil({ port: opts.port ?? 8546, chainId, quiet: opts.quiet ?? true });
  try {
    const chain = defineChain({
      id: chainId,
      name: `Duebill devnet source (${network})`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    });
    const deployer = privateKeyToAccount(destination.accounts.deployer.privateKey);
    const relayer = privateKeyToAccount(opts.relayerPrivateKey);
    const transport = http(anvil.rpcUrl);
    const pub = createPublicClient({ chain, transport, pollingInterval: 20 });
    const wallet = createWalletClient({ chain, transport, account: deployer, pollingInterval: 20 });
    const deploy = async (bytecode: Hex, abi: readonly unknown[] = [], args: readonly unknown[] = []) => {
      const hash = await wallet.deployContract({ abi: abi as never, bytecode, args: args as never });
      const r = await pub.waitForTransactionReceipt({ hash });
      if (r.status !== "success" || !r.contractAddress) throw new Error(`deployment reverted (${hash})`);
      return { address: getAddress(r.contractAddress), block: Number(r.blockNumber) };
    };
    const tokens = {
      USDC: (await deploy(compiledContracts[SOURCE_TOKENS.USDC].bytecode)).address,
      USDT: (await deploy(compiledContracts[SOURCE_TOKENS.USDT].bytecode)).address,
    };
    const bridge = await deploy(compiledContracts.DuebillDevnetBridge.bytecode, compiledContracts.DuebillDevnetBridge.abi, [
      relayer.address,
    ]);

    // The payer holds tokens on the source chain; the relayer holds liquidity on the destination.
    const mints: Promise<unknown>[] = [];
    for (const symbol of ["USDC", "USDT"] as const) {
      const amount = parseUnits(FUNDING_WHOLE_TOKENS, 6);
      const hash = await wallet.writeContract({
        address: tokens[symbol],
        abi: compiledContracts[SOURCE_TOKENS[symbol]].abi,
        functionName: "mint",
        args: [destination.accounts.payer.address, amount],
      });
      mints.push(pub.waitForTransactionReceipt({ hash }));
    }
    const dstTransport = http(destination.rpcUrl);
    const dstPub = createPublicClient({ chain: destination.chain, transport: dstTransport, pollingInterval: 20 });
    const dstWallet = createWalletClient({ chain: destination.chain, transport: dstTransport, account: deployer, pollingInterval: 20 });
    for (const symbol of ["USDC", "USDT"] as const) {
      const hash = await dstWallet.writeContract({
        address: destination.tokens[symbol],
        abi: compiledContracts[SOURCE_TOKENS[symbol]].abi,
        functionName: "mint",
        args: [relayer.address, parseUnits(FUNDING_WHOLE_TOKENS, 6)],
      });
      mints.push(dstPub.waitForTransactionReceipt({ hash }));
    }
    // Gas for the relayer on both chains (anvil's dev accounts start with 10 000 ETH; this is a no-op for them).
    await Promise.all(mints);

    return {
      rpcUrl: anvil.rpcUrl,
      chainId,
      network,
      chain,
      bridge: bridge.address,
      bridgeCreationBlock: bridge.block,
      tokens,
      relayer: { address: relayer.address, privateKey: opts.relayerPrivateKey },
      chainConfig: () => ({
        [network]: {
          rpcUrl: anvil.rpcUrl,
          chainId,
          confirmations: 0,
          // Only the bridge and the tokens exist on the source chain.
          contracts: {
            erc20ConversionProxy: null,
            chainlinkConversionPath: null,
            recurringPaymentProxy: null,
            recurringPayments: null,
            singleRequestProxyFactory: null,
            depositFactory: null,
            devnetBridge: bridge.address,
            devnetBridgeCreationBlock: bridge.block,
          },
          tokens: { ...tokens },
        },
      }),
      stop: () => anvil.stop(),
    };
  } catch (err) {
    await anvil.stop();
    throw err;
  }
}
