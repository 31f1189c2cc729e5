/**
 * Deploys the REAL Request Network contracts (bytecode from @requestnetwork/smart-contracts'
 * typechain factories), the project's test tokens and Duebill's own recurring-payment contract
 * (contracts/DuebillRecurringPayments.sol) onto a fresh devnet, then funds accounts.
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
  parseUnits,
  zeroAddress,
} from "viem";
import { deployRecurringPayments } from "../contracts/deploy-recurring";
import { compiledTokens } from "./compiled.generated";

type Address = `0x${string}`;

/**
 * Deployable bytecode of a Request Network contract. It exists only inside the typechain factory
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

const noArgsAbi = [] as const satisfies Abi;

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
  // No Erc20ConversionProxy/ChainlinkConversionPath on the devnet (they need price feeds): the
  // conversion slots stay zero, so ids 0 and 4 revert, ERC-20 ids 1 and 2 and native id 3 work.
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
    tokens[symbol] = (await deploy(compiledTokens[t.contract].bytecode)).address;
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

  const hashes: Hex[] = [];
  for (const to of params.fund) {
    for (const [symbol, t] of Object.entries(TEST_TOKENS) as [TestTokenSymbol, (typeof TEST_TOKENS)[TestTokenSymbol]][]) {
      const abi = compiledTokens[t.contract].abi;
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

  return {
    erc20FeeProxy: feeProxy.address,
    erc20FeeProxyCreationBlock: feeProxy.block,
    ethereumFeeProxy: ethFeeProxy.address,
    batchPayments: batch.address,
    recurringPayments: recurring.address,
    singleRequestProxyFactory: factory.address,
    tokens,
  };
}
