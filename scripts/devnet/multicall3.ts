/**
 * Puts a Multicall3 (its `aggregate3`, the one function viem's multicall calls) on a devnet at the
 * canonical address 0xcA11…CA11, where Multicall3 lives on every public chain, with `anvil_setCode`.
 * Anvil has none by default; without it the look-ahead batches through viem's deployless multicall
 * (lib/recurring/lookahead-reads.ts). The source is compiled here with solc-js (seconds), not
 * shipped: production chains have the real Multicall3.
 */
import solc from "solc";
import { createPublicClient, type Hex, http } from "viem";
import { MULTICALL3 } from "@/lib/recurring/lookahead-reads";

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Multicall3 {
  struct Call3 { address target; bool allowFailure; bytes callData; }
  struct Result { bool success; bytes returnData; }
  function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory returnData) {
    returnData = new Result[](calls.length);
    for (uint256 i = 0; i < calls.length; i++) {
      (bool ok, bytes memory ret) = calls[i].target.call(calls[i].callData);
      require(ok || calls[i].allowFailure, "Multicall3: call failed");
      returnData[i] = Result(ok, ret);
    }
  }
}`;

function runtimeCode(): Hex {
  const input = {
    language: "Solidity",
    sources: { "Multicall3.sol": { content: SOURCE } },
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { "*": { "*": ["evm.deployedBytecode.object"] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    contracts?: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>>;
    errors?: { severity: string; formattedMessage: string }[];
  };
  const error = out.errors?.find((e) => e.severity === "error");
  if (error) throw new Error(error.formattedMessage);
  return `0x${out.contracts!["Multicall3.sol"]!.Multicall3!.evm.deployedBytecode.object}`;
}

export async function installMulticall3(rpcUrl: string): Promise<void> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const existing = await client.getCode({ address: MULTICALL3 });
  if (existing && existing !== "0x") return;
  await client.request({ method: "anvil_setCode" as never, params: [MULTICALL3, runtimeCode()] as never });
}
