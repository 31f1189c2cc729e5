/**
 * `npm run contracts:deploy -- --contract gasless`: deploys DuebillGaslessPayments to a fresh anvil standing in
 * for Base over a real ERC20FeeProxy, reads the fee proxy back and prints the chain config to set.
 */
import { createPublicClient, createWalletClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { runDeployCommand } from "@/contracts/tooling/deploy";
import { startAnvil } from "@/scripts/devnet/anvil";
import { requestNetworkBytecode } from "@/scripts/devnet/deploy";

// Anvil's account 0: funded on any fresh anvil.
const DEPLOYER_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

describe("contracts:deploy --contract gasless", () => {
  it("deploys DuebillGaslessPayments over the fee proxy and prints its CHAIN_CONFIG; refuses Tron and an empty fee proxy", async () => {
    const anvil = await startAnvil({ port: 0, chainId: 8453, quiet: true });
    try {
      const deployer = createWalletClient({ transport: http(anvil.rpcUrl), account: privateKeyToAccount(DEPLOYER_KEY) });
      const pub = createPublicClient({ transport: http(anvil.rpcUrl), pollingInterval: 20 });
      const proxyTx = await deployer.deployContract({ abi: [], bytecode: requestNetworkBytecode("ERC20FeeProxy"), chain: null });
      const feeProxy = (await pub.waitForTransactionReceipt({ hash: proxyTx })).contractAddress!;
      const env = { DEPLOYER_KEY_FOR_TEST: DEPLOYER_KEY };
      const args = ["--contract", "gasless", "--network", "base", "--rpc", anvil.rpcUrl, "--key-env", "DEPLOYER_KEY_FOR_TEST"];
      await expect(runDeployCommand(["--contract", "gasless", "--network", "tron", "--rpc", anvil.rpcUrl], env, () => {})).rejects.toThrow(
        /gasless payments are EVM-only/,
      );
      await expect(runDeployCommand(args, env, () => {})).rejects.toThrow(/no contract at the ERC20FeeProxy address/);

      const lines: string[] = [];
      const result = await runDeployCommand([...args, "--fee-proxy", feeProxy], env, (l) => lines.push(l));
      expect(result).toMatchObject({ contract: "gasless", network: "base", chainId: 8453, admin: null, relayer: null });
      console.log(`[gas] DuebillGaslessPayments deployment: ${result.gasUsed}`);
      const abi = compiledContracts.DuebillGaslessPayments.abi;
      expect((await pub.readContract({ address: result.address, abi, functionName: "erc20FeeProxy" })).toLowerCase()).toBe(
        feeProxy.toLowerCase(),
      );
      const output = lines.join("\n");
      expect(output).toContain(`CHAIN_CONFIG='{"base":{"contracts":{"gaslessPayments":"${result.address}"}}}'`);
      expect(output).not.toContain(DEPLOYER_KEY.slice(2));
    } finally {
      await anvil.stop();
    }
  });
});
