/**
 * Local EVM devnet for `npm run dev` and the test suite: anvil, the real Request Network
 * contracts (ERC20FeeProxy, EthereumFeeProxy, BatchConversionPayments, from the npm package's
 * bytecode), Duebill's own recurring-payment contract (contracts/src/DuebillRecurringPayments.sol,
 * relayer = accounts.relayer), the conversion contracts (ChainlinkConversionPath, Erc20ConversionProxy)
 * with settable price feeds (`npm run devnet -- rate EUR 1.08`) and test tokens with real decimals (USDC 6, USDT-like 6, FAU 18),
 * funded accounts. `npm run devnet -- time +30d` moves a running devnet's clock (scripts/devnet/cli.ts).
 *
 * Contract notes, verified by tests/devnet.test.ts:
 * - batchPayments: ERC-20 without conversion is paymentNetworkId 1 (one token) or 2 (several
 *   tokens), `path: [token]`, maxToSpend = maxRateTimespan = 0, `pathsToUSD: []`. The payer only
 *   approves the batch contract for sum(amount + fee); the batch contract pulls the tokens and
 *   approves the fee proxy itself (max allowance, once per token, USDT-safe). Batch fee is 0.
 *   The fee proxy's events then come from a transfer whose sender is the batch contract.
 * - This ERC20FeeProxy bytecode accepts tokens that return nothing (USDT) and reverts when the
 *   token call fails, with or without revert data ("transferFrom() has been reverted").
 */
import { pbkdf2Sync } from "node:crypto";
import { type Chain, defineChain, type HDAccount, toHex } from "viem";
import { HDKey, hdKeyToAccount } from "viem/accounts";
import { ANVIL_MNEMONIC, startAnvil } from "./anvil";
import { type DevnetFeed, deployAll, type TestTokenSymbol } from "./deploy";

export { getFreePort } from "./anvil";

export interface DevnetAccount {
  address: `0x${string}`;
  privateKey: `0x${string}`;
}

export interface Devnet {
  rpcUrl: string;
  chainId: number;
  /** Network id the devnet stands in for (default "sepolia"); the key of chainConfig(). */
  network: string;
  /** viem chain for this devnet, for wallet/public clients. */
  chain: Chain;
  contracts: {
    erc20FeeProxy: `0x${string}`;
    batchPayments: `0x${string}`;
    erc20FeeProxyCreationBlock: number;
    /** DuebillRecurringPayments (contracts/src/), admin = deployer, relayer = accounts.relayer. */
    recurringPayments: `0x${string}`;
    /** Request Network's SingleRequestProxyFactory: deposit addresses, deployed and forwarded by accounts.depositRelayer. */
    singleRequestProxyFactory: `0x${string}`;
    /** Duebill's DuebillDepositFactory: the deposit addresses lib/deposits creates here (they can return an excess). */
    depositFactory: `0x${string}`;
    /** Duebill's DuebillGaslessPayments: gasless EIP-3009 pay, submitted by accounts.signatureRelayer (lib/gasless). */
    gaslessPayments: `0x${string}`;
    /** Duebill's DuebillCommerceEscrow (contracts/src/): authorize/capture payments (lib/commerce). */
    commerceEscrow: `0x${string}`;
    /** Request Network's ChainlinkConversionPath (whitelist admin = deployer) and Erc20ConversionProxy. */
    chainlinkConversionPath: `0x${string}`;
    erc20ConversionProxy: `0x${string}`;
  };
  /** DevnetAggregator price feeds (owner = deployer): `EUR` is EUR → USD, `USDC` is USDC → USD; 8 decimals. */
  aggregators: Record<DevnetFeed, `0x${string}`>;
  tokens: Record<TestTokenSymbol, `0x${string}`>;
  accounts: {
    deployer: DevnetAccount;
    payer: DevnetAccount;
    payee: DevnetAccount;
    feeRecipient: DevnetAccount;
    relayer: DevnetAccount;
    depositRelayer: DevnetAccount;
    /** Submits payers' signed authorizations (lib/relayer: gasless pay, escrow, x402); gas only. */
    signatureRelayer: DevnetAccount;
  };
  /** Milliseconds spent starting anvil and deploying, for logs and benchmarks. */
  timings: { anvilMs: number; deployMs: number };
  /** JSON for the app's chain config override (CHAIN_CONFIG / CHAIN_CONFIG_FILE, lib/chain/config.ts). */
  chainConfig(): Record<string, unknown>;
  stop(): Promise<void>;
}

export interface DevnetOptions {
  /** Default 8545. 0 = any free port (tests). */
  port?: number;
  chainId?: number;
  network?: string;
  /** Seconds between blocks; default automine (a block per transaction). */
  blockTime?: number;
  /** Hide anvil's own log (default true). */
  quiet?: boolean;
}

/** Anvil's well-known dev accounts by role (index into its default mnemonic). */
const ROLES = { deployer: 0, payer: 1, payee: 2, feeRecipient: 3, relayer: 4, depositRelayer: 5, signatureRelayer: 6 } as const;

/**
 * BIP-39 seed computed once: viem's mnemonicToAccount redoes the 2048-round PBKDF2 per account
 * (~100 ms each here). Seed = PBKDF2-HMAC-SHA512(mnemonic, "mnemonic", 2048, 64 bytes).
 */
let master: HDKey | undefined;
function hdAccount(index: number): HDAccount {
  master ??= HDKey.fromMasterSeed(pbkdf2Sync(ANVIL_MNEMONIC, "mnemonic", 2048, 64, "sha512"));
  return hdKeyToAccount(master, { addressIndex: index });
}

/** Anvil's dev account `index` of its default mnemonic. */
export function devAccount(index: number): DevnetAccount {
  const account = hdAccount(index);
  const key = account.getHdKey().privateKey;
  if (!key) throw new Error(`no private key for dev account ${index}`);
  return { address: account.address, privateKey: toHex(key) };
}

export async function startDevnet(opts: DevnetOptions = {}): Promise<Devnet> {
  const chainId = opts.chainId ?? 11155111;
  const network = opts.network ?? "sepolia";
  const t0 = Date.now();
  const anvil = await startAnvil({ port: opts.port ?? 8545, chainId, quiet: opts.quiet ?? true });
  const anvilMs = Date.now() - t0;
  try {
    const chain = defineChain({
      id: chainId,
      name: `Duebill devnet (${network})`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    });
    const accounts = {
      deployer: devAccount(ROLES.deployer),
      payer: devAccount(ROLES.payer),
      payee: devAccount(ROLES.payee),
      feeRecipient: devAccount(ROLES.feeRecipient),
      relayer: devAccount(ROLES.relayer),
      depositRelayer: devAccount(ROLES.depositRelayer),
      signatureRelayer: devAccount(ROLES.signatureRelayer),
    };
    const t1 = Date.now();
    const deployed = await deployAll({
      rpcUrl: anvil.rpcUrl,
      chain,
      deployer: hdAccount(ROLES.deployer),
      relayer: accounts.relayer.address,
      fund: [accounts.payer.address, accounts.relayer.address],
    });
    const deployMs = Date.now() - t1;
    // Deploy under automine (instant), then switch to interval mining if asked.
    if (opts.blockTime !== undefined) await rpc(anvil.rpcUrl, "evm_setIntervalMining", [opts.blockTime]);

    const contracts = {
      erc20FeeProxy: deployed.erc20FeeProxy,
      erc20FeeProxyCreationBlock: deployed.erc20FeeProxyCreationBlock,
      batchPayments: deployed.batchPayments,
      recurringPayments: deployed.recurringPayments,
      singleRequestProxyFactory: deployed.singleRequestProxyFactory,
      depositFactory: deployed.depositFactory,
      gaslessPayments: deployed.gaslessPayments,
      commerceEscrow: deployed.commerceEscrow,
      chainlinkConversionPath: deployed.chainlinkConversionPath,
      erc20ConversionProxy: deployed.erc20ConversionProxy,
    };
    return {
      rpcUrl: anvil.rpcUrl,
      chainId,
      network,
      chain,
      contracts,
      aggregators: deployed.aggregators,
      tokens: deployed.tokens,
      accounts,
      timings: { anvilMs, deployMs },
      chainConfig: () => ({
        [network]: {
          rpcUrl: anvil.rpcUrl,
          chainId,
          confirmations: 0,
          // Nothing is deployed at the network's real recurring proxy address here: switch it off.
          contracts: { ...contracts, recurringPaymentProxy: null },
          tokens: { ...deployed.tokens },
        },
      }),
      stop: () => anvil.stop(),
    };
  } catch (err) {
    await anvil.stop();
    throw err;
  }
}

async function rpc(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}
