/**
 * The one deploy script: deploys contracts/src/DuebillRecurringPayments.sol or (with `--contract deposits`)
 * contracts/src/DuebillDepositFactory.sol (the committed artifacts, contracts/generated/artifacts.generated.ts).
 * The devnet (scripts/devnet/deploy.ts) imports deployRecurringPayments and deployDepositFactory; run as a
 * script it is the command
 * `npm run contracts:deploy -- --network base --relayer 0x… [--admin 0x…] [--rpc URL]
 *  [--key-env DEPLOYER_PRIVATE_KEY] [--fee-proxy 0x…]` (recurring payments), or
 * `npm run contracts:deploy -- --contract deposits --network base [--rpc URL] [--key-env …] [--fee-proxy 0x…]`
 * (or `--contract escrow`: contracts/src/DuebillCommerceEscrow.sol, likewise without admin or relayer)
 * (the deposit factory: no admin, no relayer — each deposit address's operator is the relayer that creates it),
 * or the same with `--contract gasless` (DuebillGaslessPayments: no admin, no relayer role),
 * which deploys to a real network and prints the address with the chain-config snippet to set. RPC: --rpc or RPC_URL_<NETWORK> (RPC_URL_BASE,
 * RPC_URL_ARBITRUM_ONE…). Key: the environment variable named by --key-env (default
 * DEPLOYER_PRIVATE_KEY). The fee proxy defaults to the network's ERC20FeeProxy
 * (lib/chain/deployments.ts); the admin to the deployer.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import {
  type Account,
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  isAddress,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { DEPLOYMENTS } from "@/lib/chain/deployments";
import { NETWORK_IDS, NETWORKS, type NetworkId } from "@/lib/chain/networks";

const artifact = compiledContracts.DuebillRecurringPayments;

export interface RecurringDeployment {
  address: Address;
  txHash: Hex;
  blockNumber: bigint;
  gasUsed: bigint;
}

export interface DeployRecurringParams {
  rpcUrl: string;
  /** Defaults to a chain built from the RPC's chain id. */
  chain?: Chain;
  deployer: Account;
  admin: Address;
  relayer: Address;
  erc20FeeProxy: Address;
  /** Receipt polling interval (ms); default 1 000, the devnet uses 20 (automine). */
  pollingInterval?: number;
}

/** A deployment's chain: the given one, or one built from the RPC's chain id. */
async function chainFor(rpcUrl: string, chain: Chain | undefined): Promise<Chain> {
  if (chain) return chain;
  const id = await createPublicClient({ transport: http(rpcUrl) }).getChainId();
  return defineChain({
    id,
    name: `chain ${id}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

export interface DeployDepositFactoryParams {
  rpcUrl: string;
  chain?: Chain;
  deployer: Account;
  erc20FeeProxy: Address;
  pollingInterval?: number;
}

/**
 * Deploys DuebillDepositFactory over the network's ERC20FeeProxy, then reads the fee proxy back. The
 * factory has no owner and no settings: nothing about it can change after deployment.
 */
export function deployDepositFactory(params: DeployDepositFactoryParams): Promise<RecurringDeployment> {
  return deployOverFeeProxy("DuebillDepositFactory", params);
}

/**
 * Deploys DuebillGaslessPayments (EIP-3009 gasless payments through the fee proxy), then reads the fee
 * proxy back. No owner, no settings, no roles: anyone may submit a payer's signed authorization.
 */
export function deployGaslessPayments(params: DeployDepositFactoryParams): Promise<RecurringDeployment> {
  return deployOverFeeProxy("DuebillGaslessPayments", params);
}

/** A contract whose only constructor argument is the network's ERC20FeeProxy (read back after deployment). */
async function deployOverFeeProxy(
  name: "DuebillDepositFactory" | "DuebillGaslessPayments",
  params: DeployDepositFactoryParams,
): Promise<RecurringDeployment> {
  if (!isAddress(params.erc20FeeProxy) || params.erc20FeeProxy === zeroAddress)
    throw new Error(`erc20FeeProxy: not a usable address (${params.erc20FeeProxy})`);
  const transport = http(params.rpcUrl);
  const pollingInterval = params.pollingInterval ?? 1_000;
  const chain = await chainFor(params.rpcUrl, params.chain);
  const pub = createPublicClient({ chain, transport, pollingInterval });
  const code = await pub.getCode({ address: params.erc20FeeProxy });
  if (!code || code === "0x") throw new Error(`no contract at the ERC20FeeProxy address ${params.erc20FeeProxy} on chain ${chain.id}`);
  const factory = compiledContracts[name];
  const wallet = createWalletClient({ chain, transport, account: params.deployer, pollingInterval });
  const txHash = await wallet.deployContract({ abi: factory.abi, bytecode: factory.bytecode, args: [params.erc20FeeProxy] });
  const receipt = await pub.waitForTransactionReceipt({ hash: txHash });
  if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`${name} deployment reverted (${txHash})`);
  const address = getAddress(receipt.contractAddress);
  const proxy = (await pub.readContract({ address, abi: factory.abi, functionName: "erc20FeeProxy" })) as Address;
  if (proxy.toLowerCase() !== params.erc20FeeProxy.toLowerCase()) throw new Error(`${name} at ${address}: fee proxy mismatch`);
  return { address, txHash, blockNumber: receipt.blockNumber, gasUsed: receipt.gasUsed };
}

/**
 * Deploys DuebillCommerceEscrow (contracts/src/) over the network's ERC20FeeProxy, then reads the fee proxy
 * back. No owner, no settings: each payment names its own operator.
 */
export async function deployCommerceEscrow(params: DeployDepositFactoryParams): Promise<RecurringDeployment> {
  if (!isAddress(params.erc20FeeProxy) || params.erc20FeeProxy === zeroAddress)
    throw new Error(`erc20FeeProxy: not a usable address (${params.erc20FeeProxy})`);
  const transport = http(params.rpcUrl);
  const pollingInterval = params.pollingInterval ?? 1_000;
  const chain = await chainFor(params.rpcUrl, params.chain);
  const pub = createPublicClient({ chain, transport, pollingInterval });
  const code = await pub.getCode({ address: params.erc20FeeProxy });
  if (!code || code === "0x") throw new Error(`no contract at the ERC20FeeProxy address ${params.erc20FeeProxy} on chain ${chain.id}`);
  const escrow = compiledContracts.DuebillCommerceEscrow;
  const wallet = createWalletClient({ chain, transport, account: params.deployer, pollingInterval });
  const txHash = await wallet.deployContract({ abi: escrow.abi, bytecode: escrow.bytecode, args: [params.erc20FeeProxy] });
  const receipt = await pub.waitForTransactionReceipt({ hash: txHash });
  if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`DuebillCommerceEscrow deployment reverted (${txHash})`);
  const address = getAddress(receipt.contractAddress);
  const proxy = await pub.readContract({ address, abi: escrow.abi, functionName: "erc20FeeProxy" });
  if (proxy.toLowerCase() !== params.erc20FeeProxy.toLowerCase())
    throw new Error(`DuebillCommerceEscrow at ${address}: fee proxy mismatch`);
  return { address, txHash, blockNumber: receipt.blockNumber, gasUsed: receipt.gasUsed };
}

/** Deploys, then reads the roles and fee proxy back so a wrong constructor argument cannot pass silently. */
export async function deployRecurringPayments(params: DeployRecurringParams): Promise<RecurringDeployment> {
  for (const [name, value] of [
    ["admin", params.admin],
    ["relayer", params.relayer],
    ["erc20FeeProxy", params.erc20FeeProxy],
  ] as const) {
    if (!isAddress(value) || value === zeroAddress) throw new Error(`${name}: not a usable address (${value})`);
  }
  const transport = http(params.rpcUrl);
  const pollingInterval = params.pollingInterval ?? 1_000;
  const chain = await chainFor(params.rpcUrl, params.chain);
  const pub = createPublicClient({ chain, transport, pollingInterval });
  const code = await pub.getCode({ address: params.erc20FeeProxy });
  if (!code || code === "0x") throw new Error(`no contract at the ERC20FeeProxy address ${params.erc20FeeProxy} on chain ${chain.id}`);

  const wallet = createWalletClient({ chain, transport, account: params.deployer, pollingInterval });
  const txHash = await wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: [params.admin, params.relayer, params.erc20FeeProxy],
  });
  const receipt = await pub.waitForTransactionReceipt({ hash: txHash });
  if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`DuebillRecurringPayments deployment reverted (${txHash})`);
  const address = getAddress(receipt.contractAddress);

  const read = <T>(functionName: string, args: readonly unknown[] = []) =>
    pub.readContract({ address, abi: artifact.abi, functionName: functionName as never, args: args as never }) as Promise<T>;
  const relayerRole = await read<Hex>("RELAYER_ROLE");
  const adminRole = await read<Hex>("DEFAULT_ADMIN_ROLE");
  const checks = [
    (await read<Address>("erc20FeeProxy")).toLowerCase() === params.erc20FeeProxy.toLowerCase(),
    await read<boolean>("hasRole", [relayerRole, params.relayer]),
    await read<boolean>("hasRole", [adminRole, params.admin]),
  ];
  if (checks.includes(false)) throw new Error(`DuebillRecurringPayments at ${address}: roles or fee proxy do not match the arguments`);
  return { address, txHash, blockNumber: receipt.blockNumber, gasUsed: receipt.gasUsed };
}

/** The CHAIN_CONFIG (or CHAIN_CONFIG_FILE) entry that points the app at a deployment. */
export function chainConfigSnippet(
  network: NetworkId,
  address: Address,
  key: "recurringPayments" | "depositFactory" | "gaslessPayments" | "commerceEscrow" = "recurringPayments",
) {
  return { [network]: { contracts: { [key]: address } } };
}

export interface DeployCommandResult extends RecurringDeployment {
  contract: "recurring" | "deposits" | "gasless" | "escrow";
  network: NetworkId;
  chainId: number;
  /** Recurring payments only (the deposit factory has neither). */
  admin: Address | null;
  relayer: Address | null;
  erc20FeeProxy: Address;
  snippet: Record<string, unknown>;
}

const USAGE =
  "npm run contracts:deploy -- [--contract recurring|deposits|gasless|escrow] --network <id> [--relayer 0x…] [--admin 0x…] [--rpc URL] [--key-env DEPLOYER_PRIVATE_KEY] [--fee-proxy 0x…]";

function rpcEnvName(network: NetworkId): string {
  return `RPC_URL_${network.toUpperCase().replace(/-/g, "_")}`;
}

/**
 * `npm run contracts:deploy` without the process around it: argv and env in, the deployment and the
 * lines to print out. The key is read from the environment variable named by --key-env, never from
 * argv (which shows up in `ps` and shell history), and is never printed.
 */
export async function runDeployCommand(
  argv: string[],
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void = console.log,
): Promise<DeployCommandResult> {
  const { values } = parseArgs({
    args: argv,
    options: {
      contract: { type: "string", default: "recurring" },
      network: { type: "string" },
      relayer: { type: "string" },
      admin: { type: "string" },
      rpc: { type: "string" },
      "key-env": { type: "string", default: "DEPLOYER_PRIVATE_KEY" },
      "fee-proxy": { type: "string" },
    },
  });
  const network = values.network as NetworkId | undefined;
  const contract = values.contract;
  if (contract !== "recurring" && contract !== "deposits" && contract !== "gasless" && contract !== "escrow")
    throw new Error(`--contract must be recurring, deposits, gasless or escrow\n${USAGE}`);
  if (!network || !NETWORK_IDS.includes(network)) throw new Error(`--network must be one of ${NETWORK_IDS.join(", ")}\n${USAGE}`);
  if (NETWORKS[network].kind !== "evm")
    throw new Error(
      `${network}: ${{ deposits: "deposit addresses", gasless: "gasless payments", escrow: "commerce escrow payments", recurring: "recurring payments" }[contract]} are EVM-only (no contract for Tron)`,
    );
  if (contract === "recurring" && (!values.relayer || !isAddress(values.relayer)))
    throw new Error(`--relayer must be the relayer's 0x address\n${USAGE}`);
  if (values.admin !== undefined && !isAddress(values.admin)) throw new Error(`--admin must be a 0x address\n${USAGE}`);
  if (values["fee-proxy"] !== undefined && !isAddress(values["fee-proxy"])) throw new Error(`--fee-proxy must be a 0x address\n${USAGE}`);

  const rpcUrl = values.rpc ?? env[rpcEnvName(network)];
  if (!rpcUrl) throw new Error(`no RPC URL: pass --rpc or set ${rpcEnvName(network)}`);
  const keyEnv = values["key-env"];
  const key = env[keyEnv]?.trim();
  if (!key) throw new Error(`no deployer key: set ${keyEnv} (a 0x-prefixed private key holding gas on ${network})`);
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new Error(`${keyEnv} is not a 0x-prefixed 32-byte private key`);
  const deployer = privateKeyToAccount(key as Hex);

  const expectedChainId = NETWORKS[network].chainId;
  const chainId = await createPublicClient({ transport: http(rpcUrl) }).getChainId();
  if (chainId !== expectedChainId) throw new Error(`the RPC serves chain ${chainId}, but ${network} is chain ${expectedChainId}`);

  const erc20FeeProxy = getAddress(values["fee-proxy"] ?? DEPLOYMENTS[network].erc20FeeProxy);
  const chain = defineChain({
    id: chainId,
    name: NETWORKS[network].name,
    nativeCurrency: { name: NETWORKS[network].nativeSymbol, symbol: NETWORKS[network].nativeSymbol, decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });

  if (contract === "deposits") {
    log(`[contracts] deploying DuebillDepositFactory to ${network} (chain ${chainId}) from ${deployer.address}`);
    const deployment = await deployDepositFactory({ rpcUrl, chain, deployer, erc20FeeProxy });
    const snippet = chainConfigSnippet(network, deployment.address, "depositFactory");
    log(`[contracts] DuebillDepositFactory ${deployment.address}`);
    log(`  tx ${deployment.txHash} (block ${deployment.blockNumber}, gas ${deployment.gasUsed})`);
    log(`  ERC20FeeProxy ${erc20FeeProxy}  (no owner, no settings)`);
    log("Configure it (merged into the app's chain config; CHAIN_CONFIG env or the CHAIN_CONFIG_FILE JSON):");
    log(`  CHAIN_CONFIG='${JSON.stringify(snippet)}'`);
    log(`New deposit addresses on ${network} are then Duebill's (they can return an excess); the deposit relayer`);
    log("(DEPOSIT_RELAYER_PRIVATE_KEY) is each new address's operator. Addresses made before keep Request Network's proxy.");
    return { ...deployment, contract, network, chainId, admin: null, relayer: null, erc20FeeProxy, snippet };
  }
  if (contract === "gasless") {
    log(`[contracts] deploying DuebillGaslessPayments to ${network} (chain ${chainId}) from ${deployer.address}`);
    const deployment = await deployGaslessPayments({ rpcUrl, chain, deployer, erc20FeeProxy });
    const snippet = chainConfigSnippet(network, deployment.address, "gaslessPayments");
    log(`[contracts] DuebillGaslessPayments ${deployment.address}`);
    log(`  tx ${deployment.txHash} (block ${deployment.blockNumber}, gas ${deployment.gasUsed})`);
    log(`  ERC20FeeProxy ${erc20FeeProxy}  (no owner, no settings)`);
    log("Configure it (merged into the app's chain config; CHAIN_CONFIG env or the CHAIN_CONFIG_FILE JSON):");
    log(`  CHAIN_CONFIG='${JSON.stringify(snippet)}'`);
    log(`Gasless pay on ${network} then needs SIGNATURE_RELAYER_PRIVATE_KEY with gas (docs/guides/signature-payments.md).`);
    return { ...deployment, contract, network, chainId, admin: null, relayer: null, erc20FeeProxy, snippet };
  }
  if (contract === "escrow") {
    log(`[contracts] deploying DuebillCommerceEscrow to ${network} (chain ${chainId}) from ${deployer.address}`);
    const deployment = await deployCommerceEscrow({ rpcUrl, chain, deployer, erc20FeeProxy });
    const snippet = chainConfigSnippet(network, deployment.address, "commerceEscrow");
    log(`[contracts] DuebillCommerceEscrow ${deployment.address}`);
    log(`  tx ${deployment.txHash} (block ${deployment.blockNumber}, gas ${deployment.gasUsed})`);
    log(`  ERC20FeeProxy ${erc20FeeProxy}  (no owner, no settings: each payment names its operator)`);
    log("Configure it (merged into the app's chain config; CHAIN_CONFIG env or the CHAIN_CONFIG_FILE JSON):");
    log(`  CHAIN_CONFIG='${JSON.stringify(snippet)}'`);
    log(`Commerce payments on ${network} then escrow here; the signature relayer (SIGNATURE_RELAYER_PRIVATE_KEY) needs gas on ${network}.`);
    return { ...deployment, contract, network, chainId, admin: null, relayer: null, erc20FeeProxy, snippet };
  }
  const relayer = getAddress(values.relayer!);
  const admin = getAddress(values.admin ?? deployer.address);
  log(`[contracts] deploying DuebillRecurringPayments to ${network} (chain ${chainId}) from ${deployer.address}`);
  if (!values.admin) log("[contracts] no --admin: the deployer is the admin (pause, setRelayer, setFeeProxy); prefer a multisig");
  const deployment = await deployRecurringPayments({ rpcUrl, chain, deployer, admin, relayer, erc20FeeProxy });
  const snippet = chainConfigSnippet(network, deployment.address);
  log(`[contracts] DuebillRecurringPayments ${deployment.address}`);
  log(`  tx ${deployment.txHash} (block ${deployment.blockNumber}, gas ${deployment.gasUsed})`);
  log(`  admin ${admin}  relayer ${relayer}  ERC20FeeProxy ${erc20FeeProxy}`);
  log("Configure it (merged into the app's chain config; CHAIN_CONFIG env or the CHAIN_CONFIG_FILE JSON):");
  log(`  CHAIN_CONFIG='${JSON.stringify(snippet)}'`);
  log(`The relayer ${relayer} only pays gas: give its key to the app (RELAYER_PRIVATE_KEY) and keep it funded on ${network}.`);
  return { ...deployment, contract, network, chainId, admin, relayer, erc20FeeProxy, snippet };
}

// Run as a script (`npm run contracts:deploy`), not when imported by the devnet or a test.
if (process.argv[1] && path.resolve(process.argv[1]) === __filename) {
  runDeployCommand(process.argv.slice(2), process.env).catch((err: unknown) => {
    console.error(`[contracts] ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
