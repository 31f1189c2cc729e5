/**
 * Deploys the REAL Request Network contracts (bytecode from @requestnetwork/smart-contracts'
 * typechain factories), the project's test tokens and Duebill's own contracts (recurring payments,
 * contracts/src/DuebillRecurringPayments.sol; deposit addresses, contracts/src/DuebillDepositFactory.sol) onto a fresh devnet, then funds accounts. Conversion:
 * the real ChainlinkConversionPath and Erc20ConversionProxy, with settable price feeds
 * (contracts/devnet/DevnetAggregator.sol) for EUR, GBP, CNY, JPY → USD and each test token → USD.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import {
  type Abi,
  type Account,
  type Chain,
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  keccak256,
  parseUnits,
  toHex,
  zeroAddress,
} from "viem";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { deployCommerceEscrow, deployDepositFactory, deployGaslessPayments, deployRecurringPayments } from "@/contracts/tooling/deploy";
import { chainlinkConversionPathAbi } from "@/lib/chain/conversion-abis";

type Address = `0x${string}`;

/**
 * Deployable bytecode of a Request Network contract (`name` may name a subfolder, as
 * `ChainlinkConversionPath.sol/ChainlinkConversionPath`). It exists only inside the typechain factory
 * (`const _bytecode = "0x…"`); that file requires `ethers` (not installed), so it is read as text.
 */
export function requestNetworkBytecode(name: string): Hex {
  const require = createRequire(__filename);
  // Resolving (not loading) the entry point: loading it would require the undeclared `ethers`.
  const main = require.resolve("@requestnetwork/smart-contracts");
  const root = main.slice(0, main.lastIndexOf(`${path.sep}dist${path.sep}`));
  const file = path.join(root, "types", "factories", "src", "contracts", `${name}__factory.js`);
  const match = /_bytecode\s*=\s*"(0x[0-9a-fA-F]+)"/.exec(readFileSync(file, "utf8"));
  if (!match?.[1]) throw new Error(`no _bytecode in ${file}`);
  return match[1] as Hex;
}

/** Constructor ABI of BatchConversionPayments (0.1.0 artifact), the only RN contract here with arguments. */
const batchConstructorAbi = [
  {
    type: "constructor",
    stateMutability: "nonpayable",
    inputs: [
      { name: "_paymentErc20Proxy", type: "address" },
      { name: "_paymentNativeProxy", type: "address" },
      { name: "_paymentErc20ConversionProxy", type: "address" },
      { name: "_paymentNativeConversionFeeProxy", type: "address" },
      { name: "_chainlinkConversionPath", type: "address" },
      { name: "_owner", type: "address" },
    ],
  },
] as const;

/** Constructor of SingleRequestProxyFactory 0.1.0: the fee proxies its deposit addresses pay through, and its owner. */
const factoryConstructorAbi = [
  {
    type: "constructor",
    stateMutability: "nonpayable",
    inputs: [
      { name: "_ethereumFeeProxy", type: "address" },
      { name: "_erc20FeeProxy", type: "address" },
      { name: "_owner", type: "address" },
    ],
  },
] as const;

/** Constructor of ChainlinkConversionPath 0.2.x: the native token's currency hash (unused here) and its whitelist admin. */
const conversionPathConstructorAbi = [
  {
    type: "constructor",
    stateMutability: "nonpayable",
    inputs: [
      { name: "_nativeTokenHash", type: "address" },
      { name: "_owner", type: "address" },
    ],
  },
] as const;

/** Constructor of Erc20ConversionProxy 0.1.2: the fee proxy it delegatecalls, the conversion path, its owner. */
const conversionProxyConstructorAbi = [
  {
    type: "constructor",
    stateMutability: "nonpayable",
    inputs: [
      { name: "_paymentProxyAddress", type: "address" },
      { name: "_chainlinkConversionPathAddress", type: "address" },
      { name: "_owner", type: "address" },
    ],
  },
] as const;

const noArgsAbi = [] as const satisfies Abi;

/** Feed decimals of the devnet's price feeds (as Chainlink's fiat/USD and stablecoin/USD feeds). */
export const AGGREGATOR_DECIMALS = 8;

/**
 * The devnet's price feeds, registered in ChainlinkConversionPath as `from → USD` (the direction of
 * Chainlink's feeds; the path reads them in reverse for USD → token). Start values are typical
 * rates; `npm run devnet -- rate EUR 1.08` changes one on a running devnet.
 */
export const DEVNET_FEEDS = {
  EUR: "1.08",
  GBP: "1.27",
  CNY: "0.14",
  JPY: "0.0067",
  USDC: "1",
  USDT: "1",
  FAU: "1",
} as const;
export type DevnetFeed = keyof typeof DEVNET_FEEDS;

/** Request Network currency hash of a fiat code (same as lib/chain/conversion.ts's fiatHash). */
export function devnetFiatHash(code: string): Address {
  return `0x${keccak256(toHex(JSON.stringify({ type: "ISO4217", value: code }).toLowerCase())).slice(-40)}`;
}

export const TEST_TOKENS = {
  USDC: { contract: "TestUSDC", decimals: 6 },
  USDT: { contract: "TestUSDT", decimals: 6 },
  FAU: { contract: "TestFAU", decimals: 18 },
} as const;
export type TestTokenSymbol = keyof typeof TEST_TOKENS;

/** What each funded account gets of every test token, in whole tokens. */
export const FUNDING_WHOLE_TOKENS = "1000000";

export interface Deployment {
  erc20FeeProxy: Address;
  erc20FeeProxyCreationBlock: number;
  ethereumFeeProxy: Address;
  batchPayments: Address;
  /** DuebillRecurringPayments: the deployer is its admin, `relayer` its only relayer. */
  recurringPayments: Address;
  /** Request Network's SingleRequestProxyFactory: per-request deposit addresses (lib/deposits). */
  singleRequestProxyFactory: Address;
  /** Duebill's DuebillDepositFactory: deposit addresses that can return money (lib/deposits uses it where set). */
  depositFactory: Address;
  /** Duebill's DuebillGaslessPayments: EIP-3009 gasless pay through the fee proxy (lib/gasless). */
  gaslessPayments: Address;
  /** Duebill's DuebillCommerceEscrow: authorize/capture payments (lib/commerce). */
  commerceEscrow: Address;
  /** Request Network's ChainlinkConversionPath, its admin the deployer. */
  chainlinkConversionPath: Address;
  /** Request Network's Erc20ConversionProxy over erc20FeeProxy and chainlinkConversionPath. */
  erc20ConversionProxy: Address;
  /** DevnetAggregator per feed (`EUR` = the EUR → USD feed, `USDC` = USDC → USD), owner the deployer. */
  aggregators: Record<DevnetFeed, Address>;
  tokens: Record<TestTokenSymbol, Address>;
}

export async function deployAll(params: {
  rpcUrl: string;
  chain: Chain;
  deployer: Account;
  relayer: Address;
  fund: Address[];
}): Promise<Deployment> {
  const { chain, deployer } = params;
  // Short polling: anvil automines, a receipt exists as soon as the transaction is accepted.
  const transport = http(params.rpcUrl);
  const pub = createPublicClient({ chain, transport, pollingInterval: 20 });
  const wallet = createWalletClient({ chain, transport, account: deployer, pollingInterval: 20 });

  const deploy = async (bytecode: Hex, abi: Abi = noArgsAbi, args: readonly unknown[] = []) => {
    // viem's deployContract generics cannot follow a runtime-chosen ABI; args are checked by encoding.
    const hash = await wallet.deployContract({ abi, bytecode, args: args as never });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`deployment reverted (${hash})`);
    return { address: getAddress(receipt.contractAddress), block: Number(receipt.blockNumber) };
  };

  const feeProxy = await deploy(requestNetworkBytecode("ERC20FeeProxy"));
  // BatchNoConversionPayments routes paymentNetworkId 3 (native) through it; deploying the real
  // one keeps native batches working too, at the cost of one more transaction.
  const ethFeeProxy = await deploy(requestNetworkBytecode("EthereumFeeProxy"));
  // The batch contract is deployed before the conversion contracts (to keep the addresses of the
  // contracts below stable): its conversion slots stay zero, so ids 0 and 4 revert, ERC-20 ids 1 and
  // 2 and native id 3 work. Single conversion payments go through Erc20ConversionProxy (below).
  // The batch fee starts at 0 and the contract approves the fee proxy itself on first use of a token.
  const batch = await deploy(requestNetworkBytecode("BatchConversionPayments"), batchConstructorAbi, [
    feeProxy.address,
    ethFeeProxy.address,
    zeroAddress,
    zeroAddress,
    zeroAddress,
    deployer.address,
  ]);

  const tokens = {} as Record<TestTokenSymbol, Address>;
  for (const [symbol, t] of Object.entries(TEST_TOKENS) as [TestTokenSymbol, (typeof TEST_TOKENS)[TestTokenSymbol]][]) {
    tokens[symbol] = (await deploy(compiledContracts[t.contract].bytecode)).address;
  }
  // After the tokens, so their addresses (fixed deployer nonces) are the same as before it existed.
  const recurring = await deployRecurringPayments({
    rpcUrl: params.rpcUrl,
    chain,
    deployer,
    admin: deployer.address,
    relayer: params.relayer,
    erc20FeeProxy: feeProxy.address,
    pollingInterval: 20,
  });

  // Last, so every address deployed before it stays where it was.
  const factory = await deploy(requestNetworkBytecode("SingleRequestProxyFactory"), factoryConstructorAbi, [
    ethFeeProxy.address,
    feeProxy.address,
    deployer.address,
  ]);

  // Conversion contracts and their feeds come after everything else, so the addresses above keep
  // their deployer nonces. BatchConversionPayments (deployed earlier) keeps zero conversion slots.
  const conversionPath = await deploy(
    requestNetworkBytecode("ChainlinkConversionPath.sol/ChainlinkConversionPath"),
    conversionPathConstructorAbi,
    [zeroAddress, deployer.address],
  );
  const conversionProxy = await deploy(requestNetworkBytecode("Erc20ConversionProxy"), conversionProxyConstructorAbi, [
    feeProxy.address,
    conversionPath.address,
    deployer.address,
  ]);
  const aggregator = compiledContracts.DevnetAggregator;
  const aggregators = {} as Record<DevnetFeed, Address>;
  for (const [feed, value] of Object.entries(DEVNET_FEEDS) as [DevnetFeed, string][]) {
    aggregators[feed] = (
      await deploy(aggregator.bytecode, aggregator.abi, [AGGREGATOR_DECIMALS, `${feed} / USD`, parseUnits(value, AGGREGATOR_DECIMALS)])
    ).address;
  }
  const feedInput = (feed: DevnetFeed): Address => (feed in tokens ? tokens[feed as TestTokenSymbol] : devnetFiatHash(feed));
  const feeds = Object.keys(DEVNET_FEEDS) as DevnetFeed[];
  const registered = await pub.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: conversionPath.address,
      abi: chainlinkConversionPathAbi,
      functionName: "updateAggregatorsList",
      args: [feeds.map(feedInput), feeds.map(() => devnetFiatHash("USD")), feeds.map((f) => aggregators[f])],
    }),
  });
  if (registered.status !== "success") throw new Error("updateAggregatorsList reverted");

  const hashes: Hex[] = [];
  for (const to of params.fund) {
    for (const [symbol, t] of Object.entries(TEST_TOKENS) as [TestTokenSymbol, (typeof TEST_TOKENS)[TestTokenSymbol]][]) {
      const abi = compiledContracts[t.contract].abi;
      hashes.push(
        await wallet.writeContract({
          address: tokens[symbol],
          abi,
          functionName: "mint",
          args: [to, parseUnits(FUNDING_WHOLE_TOKENS, t.decimals)],
        }),
      );
    }
  }
  for (const hash of hashes) {
    const r = await pub.waitForTransactionReceipt({ hash });
    if (r.status !== "success") throw new Error(`mint reverted (${hash})`);
  }
  // After everything else, so every address above keeps its deployer nonce.
  const depositFactory = await deployDepositFactory({
    rpcUrl: params.rpcUrl,
    chain,
    deployer,
    erc20FeeProxy: feeProxy.address,
    pollingInterval: 20,
  });
  // Last of all, for the same reason.
  const gasless = await deployGaslessPayments({
    rpcUrl: params.rpcUrl,
    chain,
    deployer,
    erc20FeeProxy: feeProxy.address,
    pollingInterval: 20,
  });
  const commerceEscrow = await deployCommerceEscrow({
    rpcUrl: params.rpcUrl,
    chain,
    deployer,
    erc20FeeProxy: feeProxy.address,
    pollingInterval: 20,
  });

  return {
    erc20FeeProxy: feeProxy.address,
    erc20FeeProxyCreationBlock: feeProxy.block,
    ethereumFeeProxy: ethFeeProxy.address,
    batchPayments: batch.address,
    recurringPayments: recurring.address,
    singleRequestProxyFactory: factory.address,
    depositFactory: depositFactory.address,
    gaslessPayments: gasless.address,
    commerceEscrow: commerceEscrow.address,
    chainlinkConversionPath: conversionPath.address,
    erc20ConversionProxy: conversionProxy.address,
    aggregators,
    tokens,
  };
}
