/**
 * `npm run contracts:deploy -- --contract escrow`: deploys DuebillCommerceEscrow over a real ERC20FeeProxy on a
 * fresh anvil standing in for Base, reads the fee proxy back, and prints the chain-config snippet the app accepts.
 */
import { createPublicClient, createWalletClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { expect, it } from "vitest";
import { commerceEscrowAbi } from "@/contracts/generated/abis.generated";
import { runDeployCommand } from "@/contracts/tooling/deploy";
import { networkRuntime, resetChainConfig } from "@/lib/chain/config";
import { reloadEnv } from "@/lib/env";
import { startAnvil } from "@/scripts/devnet/anvil";
import { requestNetworkBytecode } from "@/scripts/devnet/deploy";
import { devAccount } from "@/scripts/devnet/index";

it("contracts:deploy --contract escrow deploys the escrow and prints its chain config", async () => {
  const anvil = await startAnvil({ port: 0, chainId: 8453, quiet: true });
  const saved = process.env.CHAIN_CONFIG;
  try {
    const key = devAccount(0).privateKey;
    const deployer = createWalletClient({ transport: http(anvil.rpcUrl), account: privateKeyToAccount(key) });
    const pub = createPublicClient({ transport: http(anvil.rpcUrl), pollingInterval: 20 });
    const proxyTx = await deployer.deployContract({ abi: [], bytecode: requestNetworkBytecode("ERC20FeeProxy"), chain: null });
    const feeProxy = (await pub.waitForTransactionReceipt({ hash: proxyTx })).contractAddress!;
    const env = { ESCROW_DEPLOYER_KEY: key };
    const base = ["--contract", "escrow", "--network", "base", "--rpc", anvil.rpcUrl, "--key-env", "ESCROW_DEPLOYER_KEY"];
    await expect(runDeployCommand(["--contract", "escrow", "--network", "tron", "--rpc", anvil.rpcUrl], env, () => {})).rejects.toThrow(
      /commerce escrow payments are EVM-only/,
    );
    await expect(runDeployCommand(["--contract", "vault", "--network", "base"], env, () => {})).rejects.toThrow(
      /recurring, deposits, gasless or escrow/,
    );
    const lines: string[] = [];
    const result = await runDeployCommand([...base, "--fee-proxy", feeProxy], env, (l) => lines.push(l));
    expect(result).toMatchObject({ contract: "escrow", network: "base", chainId: 8453, admin: null, relayer: null });
    expect((await pub.readContract({ address: result.address, abi: commerceEscrowAbi, functionName: "erc20FeeProxy" })).toLowerCase()).toBe(
      feeProxy.toLowerCase(),
    );
    expect(lines.join("\n")).toContain(`CHAIN_CONFIG='{"base":{"contracts":{"commerceEscrow":"${result.address}"}}}'`);
    expect(lines.join("\n")).not.toContain(key.slice(2));
    console.log(`[escrow] deployment gas: ${result.gasUsed}`);
    process.env.CHAIN_CONFIG = JSON.stringify(result.snippet);
    reloadEnv();
    resetChainConfig();
    expect(networkRuntime("base").contracts.commerceEscrow).toBe(result.address);
  } finally {
    if (saved === undefined) delete process.env.CHAIN_CONFIG;
    else process.env.CHAIN_CONFIG = saved;
    reloadEnv();
    resetChainConfig();
    await anvil.stop();
  }
}, 60_000);
