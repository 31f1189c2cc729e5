/**
 * The local devnet (scripts/devnet): anvil + the real Request Network bytecode + test tokens.
 * Each run starts its own anvil on a free port and stops it at the end.
 */
import net from "node:net";
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseEventLogs,
  parseUnits,
  toEventSelector,
  toFunctionSelector,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetBridgeAbi, recurringPaymentsAbi } from "@/contracts/generated/abis.generated";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { runDeployCommand } from "@/contracts/tooling/deploy";
import { compileProjectContracts, PROJECT_CONTRACTS } from "@/contracts/tooling/solc";
import { batchConversionPaymentsAbi, erc20BatchPaymentsAbi, erc20ConversionProxyAbi, erc20FeeProxyAbi } from "@/lib/chain/abis";
import { networkRuntime, resetChainConfig } from "@/lib/chain/config";
import { reloadEnv } from "@/lib/env";
import { startAnvil } from "@/scripts/devnet/anvil";
import { requestNetworkBytecode } from "@/scripts/devnet/deploy";
import { type Devnet, startDevnet } from "@/scripts/devnet/index";

const usdtAbi = compiledContracts.TestUSDT.abi;
let devnet: Devnet;
let pub: PublicClient;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0 });
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl), pollingInterval: 20 });
}, 60_000);

afterAll(async () => {
  await devnet?.stop();
});

function walletOf(key: Hex) {
  return createWalletClient({
    chain: devnet.chain,
    transport: http(devnet.rpcUrl),
    account: privateKeyToAccount(key),
    pollingInterval: 20,
  });
}

async function mined(hash: Hex) {
  const receipt = await pub.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt;
}

function balanceOf(token: Hex, owner: Hex): Promise<bigint> {
  return pub.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
}

/** The fee proxy's events in a receipt, with the raw indexed topic kept next to the decoded args. */
function feeProxyEvents(logs: Parameters<typeof parseEventLogs>[0]["logs"]) {
  return parseEventLogs({ abi: erc20FeeProxyAbi, eventName: "TransferWithReferenceAndFee", logs }).filter(
    (l) => l.address.toLowerCase() === devnet.contracts.erc20FeeProxy.toLowerCase(),
  );
}

describe("ABIs", () => {
  it("have the selectors of docs/spec/chain-data.md", () => {
    const fn = (abi: readonly { type: string; name?: string }[], name: string) => {
      const item = abi.find((i) => i.type === "function" && i.name === name);
      if (!item) throw new Error(`no ${name}`);
      return toFunctionSelector(item as Parameters<typeof toFunctionSelector>[0]);
    };
    expect(fn(erc20FeeProxyAbi, "transferFromWithReferenceAndFee")).toBe("0xc219a14d");
    expect(toEventSelector(erc20FeeProxyAbi[1])).toBe("0x9f16cbcc523c67a60c450e5ffe4f3b7b6dbe772e7abcadb2686ce029a9a0a2b6");
    expect(fn(batchConversionPaymentsAbi, "batchPayments")).toBe("0x92cddb91");
    expect(fn(erc20ConversionProxyAbi, "transferFromWithReferenceAndFee")).toBe("0x3af2c012");
    expect(fn(erc20BatchPaymentsAbi, "batchERC20PaymentsWithReference")).toBe("0xc6e6d98b");
  });
});

describe("devnet", () => {
  it("uses anvil's accounts, funds the payer and relayer, and describes itself as a chain config", async () => {
    const anvilAccounts = await createWalletClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }).getAddresses(); // eth_accounts
    const a = devnet.accounts;
    expect([a.deployer, a.payer, a.payee, a.feeRecipient, a.relayer].map((x) => x.address.toLowerCase())).toEqual(
      anvilAccounts.slice(0, 5).map((x) => x.toLowerCase()),
    );
    expect(privateKeyToAccount(a.payer.privateKey).address).toBe(a.payer.address);
    expect(await pub.getChainId()).toBe(11155111);
    for (const who of [a.payer.address, a.relayer.address]) {
      expect(await balanceOf(devnet.tokens.USDC, who)).toBe(parseUnits("1000000", 6));
      expect(await balanceOf(devnet.tokens.USDT, who)).toBe(parseUnits("1000000", 6));
      expect(await balanceOf(devnet.tokens.FAU, who)).toBe(parseUnits("1000000", 18));
    }
    const decimals = (token: Hex) => pub.readContract({ address: token, abi: erc20Abi, functionName: "decimals" });
    expect([await decimals(devnet.tokens.USDC), await decimals(devnet.tokens.USDT), await decimals(devnet.tokens.FAU)]).toEqual([6, 6, 18]);
    expect(devnet.chainConfig()).toEqual({
      sepolia: {
        rpcUrl: devnet.rpcUrl,
        chainId: 11155111,
        confirmations: 0,
        contracts: { ...devnet.contracts, recurringPaymentProxy: null },
        tokens: { USDC: devnet.tokens.USDC, USDT: devnet.tokens.USDT, FAU: devnet.tokens.FAU },
      },
    });
    const creation = await pub.getBlock({ blockNumber: BigInt(devnet.contracts.erc20FeeProxyCreationBlock), includeTransactions: true });
    expect(creation.transactions.some((t) => typeof t === "object" && t.to === null)).toBe(true);
  });

  it("pays USDC through the ERC20FeeProxy, emitting the reference hash as the indexed topic", async () => {
    const { payer, payee, feeRecipient } = devnet.accounts;
    const wallet = walletOf(payer.privateKey);
    const { USDC } = devnet.tokens;
    const proxy = devnet.contracts.erc20FeeProxy;
    const reference: Hex = "0x1a2b3c4d5e6f7081";
    const before = {
      payer: await balanceOf(USDC, payer.address),
      payee: await balanceOf(USDC, payee.address),
      fee: await balanceOf(USDC, feeRecipient.address),
    };

    await mined(await wallet.writeContract({ address: USDC, abi: erc20Abi, functionName: "approve", args: [proxy, 101_000_000n] }));
    const receipt = await mined(
      await wallet.writeContract({
        address: proxy,
        abi: erc20FeeProxyAbi,
        functionName: "transferFromWithReferenceAndFee",
        args: [USDC, payee.address, 100_000_000n, reference, 1_000_000n, feeRecipient.address],
      }),
    );

    expect(await balanceOf(USDC, payer.address)).toBe(before.payer - 101_000_000n);
    expect(await balanceOf(USDC, payee.address)).toBe(before.payee + 100_000_000n);
    expect(await balanceOf(USDC, feeRecipient.address)).toBe(before.fee + 1_000_000n);
    const [event, ...more] = feeProxyEvents(receipt.logs);
    expect(more).toHaveLength(0);
    expect(event?.topics[1]).toBe(keccak256(reference));
    expect(event?.args).toMatchObject({
      tokenAddress: USDC,
      to: payee.address,
      amount: 100_000_000n,
      paymentReference: keccak256(reference),
      feeAmount: 1_000_000n,
    });
  });

  it("has a USDT-like token (no return values, approve 0 before changing) that the fee proxy can still pull", async () => {
    const { payer, payee, feeRecipient } = devnet.accounts;
    const wallet = walletOf(payer.privateKey);
    const { USDT } = devnet.tokens;
    const proxy = devnet.contracts.erc20FeeProxy;
    // No return data at all, where a standard ERC-20 returns a 32-byte bool.
    const approveCall = encodeFunctionData({ abi: usdtAbi, functionName: "approve", args: [proxy, 0n] });
    expect((await pub.call({ account: payer.address, to: USDT, data: approveCall })).data).toBeUndefined();

    await mined(await wallet.writeContract({ address: USDT, abi: usdtAbi, functionName: "approve", args: [proxy, 5n] }));
    await expect(
      pub.simulateContract({ account: payer.address, address: USDT, abi: usdtAbi, functionName: "approve", args: [proxy, 7n] }),
    ).rejects.toThrow(/reset allowance to 0 first/);
    await mined(await wallet.writeContract({ address: USDT, abi: usdtAbi, functionName: "approve", args: [proxy, 0n] }));
    await mined(await wallet.writeContract({ address: USDT, abi: usdtAbi, functionName: "approve", args: [proxy, 50_500_000n] }));
    expect(await pub.readContract({ address: USDT, abi: erc20Abi, functionName: "allowance", args: [payer.address, proxy] })).toBe(
      50_500_000n,
    );

    const before = await balanceOf(USDT, payee.address);
    const reference: Hex = "0x0000000000000001";
    const receipt = await mined(
      await wallet.writeContract({
        address: proxy,
        abi: erc20FeeProxyAbi,
        functionName: "transferFromWithReferenceAndFee",
        args: [USDT, payee.address, 50_000_000n, reference, 500_000n, feeRecipient.address],
      }),
    );
    expect(await balanceOf(USDT, payee.address)).toBe(before + 50_000_000n);
    expect(feeProxyEvents(receipt.logs).map((e) => e.topics[1])).toEqual([keccak256(reference)]);
  });

  it("batches two payees in two tokens (USDC + USDT-like) with batchPayments, paymentNetworkId 2", async () => {
    const { payer, payee, relayer, feeRecipient } = devnet.accounts;
    const wallet = walletOf(payer.privateKey);
    const { USDC, USDT } = devnet.tokens;
    const batch = devnet.contracts.batchPayments;
    const refs: [Hex, Hex] = ["0xaaaaaaaaaaaaaaa1", "0xbbbbbbbbbbbbbbb2"];
    const detail = (token: Hex, recipient: Hex, requestAmount: bigint, paymentReference: Hex, feeAmount: bigint) => ({
      recipient,
      requestAmount,
      path: [token],
      paymentReference,
      feeAmount,
      maxToSpend: 0n,
      maxRateTimespan: 0n,
    });
    const before = { usdc: await balanceOf(USDC, payee.address), usdt: await balanceOf(USDT, relayer.address) };

    // The payer approves only the batch contract; it approves the fee proxy on its own.
    await mined(await wallet.writeContract({ address: USDC, abi: erc20Abi, functionName: "approve", args: [batch, 12_000_000n] }));
    await mined(await wallet.writeContract({ address: USDT, abi: usdtAbi, functionName: "approve", args: [batch, 25_000_000n] }));
    const receipt = await mined(
      await wallet.writeContract({
        address: batch,
        abi: batchConversionPaymentsAbi,
        functionName: "batchPayments",
        args: [
          [
            {
              paymentNetworkId: 2n,
              requestDetails: [
                detail(USDC, payee.address, 11_000_000n, refs[0], 1_000_000n),
                detail(USDT, relayer.address, 24_000_000n, refs[1], 1_000_000n),
              ],
            },
          ],
          [],
          feeRecipient.address,
        ],
      }),
    );

    expect(await balanceOf(USDC, payee.address)).toBe(before.usdc + 11_000_000n);
    expect(await balanceOf(USDT, relayer.address)).toBe(before.usdt + 24_000_000n);
    const events = feeProxyEvents(receipt.logs);
    expect(events.map((e) => [e.args.tokenAddress, e.topics[1]])).toEqual([
      [USDC, keccak256(refs[0])],
      [USDT, keccak256(refs[1])],
    ]);
    // Nothing is left on the batch contract, and the batch fee is 0 on the devnet.
    expect(await balanceOf(USDC, batch)).toBe(0n);
    expect(await pub.readContract({ address: batch, abi: batchConversionPaymentsAbi, functionName: "batchFee" })).toBe(0);
  });

  it("batches one token with paymentNetworkId 1", async () => {
    const { payer, payee, feeRecipient } = devnet.accounts;
    const wallet = walletOf(payer.privateKey);
    const { FAU } = devnet.tokens;
    const batch = devnet.contracts.batchPayments;
    const one = parseUnits("1", 18);
    const detail = (paymentReference: Hex) => ({
      recipient: payee.address,
      requestAmount: one,
      path: [FAU],
      paymentReference,
      feeAmount: 0n,
      maxToSpend: 0n,
      maxRateTimespan: 0n,
    });
    await mined(await wallet.writeContract({ address: FAU, abi: erc20Abi, functionName: "approve", args: [batch, 2n * one] }));
    const receipt = await mined(
      await wallet.writeContract({
        address: batch,
        abi: batchConversionPaymentsAbi,
        functionName: "batchPayments",
        args: [
          [{ paymentNetworkId: 1n, requestDetails: [detail("0x00000000000000f1"), detail("0x00000000000000f2")] }],
          [],
          feeRecipient.address,
        ],
      }),
    );
    expect(feeProxyEvents(receipt.logs).map((e) => e.topics[1])).toEqual([
      keccak256("0x00000000000000f1"),
      keccak256("0x00000000000000f2"),
    ]);
  });

  it("deploys DuebillRecurringPayments with the devnet's relayer and fee proxy (admin: the deployer)", async () => {
    const address = devnet.contracts.recurringPayments;
    const abi = compiledContracts.DuebillRecurringPayments.abi;
    const read = <T>(functionName: string, args: readonly unknown[] = []) =>
      pub.readContract({ address, abi, functionName: functionName as never, args: args as never }) as Promise<T>;
    const relayerRole = await read<Hex>("RELAYER_ROLE");
    expect(await read<boolean>("hasRole", [relayerRole, devnet.accounts.relayer.address])).toBe(true);
    expect(await read<boolean>("hasRole", [relayerRole, devnet.accounts.payer.address])).toBe(false);
    expect(await read<boolean>("hasRole", [`0x${"0".repeat(64)}`, devnet.accounts.deployer.address])).toBe(true);
    expect(await read<Hex>("erc20FeeProxy")).toBe(devnet.contracts.erc20FeeProxy);
    expect(await read<boolean>("paused")).toBe(false);
    expect((devnet.chainConfig().sepolia as { contracts: Record<string, unknown> }).contracts.recurringPayments).toBe(address);
  });

  it("ships contracts/generated/ that matches contracts/**/*.sol and the pinned OpenZeppelin", () => {
    // solc-js takes ~6-10 s for the recurring contract with its OpenZeppelin imports.
    const fresh = compileProjectContracts();
    expect(Object.keys(compiledContracts).sort()).toEqual([...PROJECT_CONTRACTS].sort());
    for (const name of PROJECT_CONTRACTS) {
      expect(compiledContracts[name].bytecode, `${name}: run npm run contracts:compile`).toBe(fresh[name].bytecode);
      expect(compiledContracts[name].abi).toEqual(fresh[name].abi);
    }
    // The app's ABIs (abis.generated.ts) come from the same compile.
    expect(recurringPaymentsAbi, "run npm run contracts:compile").toEqual(fresh.DuebillRecurringPayments.abi);
    expect(devnetBridgeAbi, "run npm run contracts:compile").toEqual(fresh.DuebillDevnetBridge.abi);
  }, 60_000);

  it("contracts:deploy deploys to a fresh anvil standing in for base and prints the chain config to set", async () => {
    const anvil = await startAnvil({ port: 0, chainId: 8453, quiet: true });
    const saved = process.env.CHAIN_CONFIG;
    try {
      const deployerKey = devnet.accounts.deployer.privateKey; // anvil's account 0: funded on any fresh anvil
      const deployer = createWalletClient({ transport: http(anvil.rpcUrl), account: privateKeyToAccount(deployerKey) });
      const anvilPub = createPublicClient({ transport: http(anvil.rpcUrl), pollingInterval: 20 });
      const proxyTx = await deployer.deployContract({ abi: [], bytecode: requestNetworkBytecode("ERC20FeeProxy"), chain: null });
      const feeProxy = (await anvilPub.waitForTransactionReceipt({ hash: proxyTx })).contractAddress!;
      const relayer = privateKeyToAccount(generatePrivateKey()).address;
      const adminSafe = privateKeyToAccount(generatePrivateKey()).address;
      const env = { DEPLOYER_KEY_FOR_TEST: deployerKey };
      const args = ["--network", "base", "--relayer", relayer, "--rpc", anvil.rpcUrl, "--key-env", "DEPLOYER_KEY_FOR_TEST"];

      // Refusals before anything is sent.
      const fails = (argv: string[], e: Record<string, string | undefined> = env) => runDeployCommand(argv, e, () => {});
      await expect(fails(args, {})).rejects.toThrow(/set DEPLOYER_KEY_FOR_TEST/);
      await expect(fails(["--network", "tron", "--relayer", relayer, "--rpc", anvil.rpcUrl])).rejects.toThrow(/EVM-only/);
      await expect(fails(["--network", "base", "--relayer", "0x12", "--rpc", anvil.rpcUrl])).rejects.toThrow(/--relayer/);
      await expect(
        fails(["--network", "mainnet", "--relayer", relayer, "--rpc", anvil.rpcUrl, "--key-env", "DEPLOYER_KEY_FOR_TEST"]),
      ).rejects.toThrow(/serves chain 8453, but mainnet is chain 1/);
      await expect(fails(["--network", "base", "--relayer", relayer], { ...env, RPC_URL_BASE: undefined })).rejects.toThrow(/RPC_URL_BASE/);
      // Base's real ERC20FeeProxy address is empty on a fresh anvil.
      await expect(fails(args)).rejects.toThrow(/no contract at the ERC20FeeProxy address 0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814/);

      const lines: string[] = [];
      const result = await runDeployCommand([...args, "--admin", adminSafe, "--fee-proxy", feeProxy], env, (l) => lines.push(l));
      expect(result).toMatchObject({ network: "base", chainId: 8453, relayer, admin: adminSafe });
      expect(result.erc20FeeProxy.toLowerCase()).toBe(feeProxy.toLowerCase());
      const abi = compiledContracts.DuebillRecurringPayments.abi;
      const role = await anvilPub.readContract({ address: result.address, abi, functionName: "RELAYER_ROLE" });
      expect(await anvilPub.readContract({ address: result.address, abi, functionName: "hasRole", args: [role, relayer] })).toBe(true);
      expect(
        await anvilPub.readContract({ address: result.address, abi, functionName: "hasRole", args: [`0x${"0".repeat(64)}`, adminSafe] }),
      ).toBe(true);
      const output = lines.join("\n");
      expect(output).toContain(`DuebillRecurringPayments ${result.address}`);
      expect(output).toContain(`CHAIN_CONFIG='{"base":{"contracts":{"recurringPayments":"${result.address}"}}}'`);
      expect(output).not.toContain(deployerKey.slice(2));

      // The printed snippet is what the app's chain config accepts.
      process.env.CHAIN_CONFIG = JSON.stringify(result.snippet);
      reloadEnv();
      resetChainConfig();
      expect(networkRuntime("base").contracts.recurringPayments).toBe(result.address);
    } finally {
      if (saved === undefined) delete process.env.CHAIN_CONFIG;
      else process.env.CHAIN_CONFIG = saved;
      reloadEnv();
      resetChainConfig();
      await anvil.stop();
    }
  });

  // Last: it stops the shared devnet (afterAll's stop() is then a no-op).
  it("stop() kills anvil and frees its port", async () => {
    const port = Number(new URL(devnet.rpcUrl).port);
    const started = Date.now();
    await devnet.stop();
    expect(Date.now() - started).toBeLessThan(2_000); // the polite path, not the TERM/KILL fallback
    await expect(fetch(devnet.rpcUrl, { method: "POST", body: "{}" })).rejects.toThrow();
    await new Promise<void>((resolve, reject) => {
      const srv = net.createServer();
      srv.once("error", reject);
      srv.listen(port, "127.0.0.1", () => srv.close(() => resolve()));
    });
  });
});
