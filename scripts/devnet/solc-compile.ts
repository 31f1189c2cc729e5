/**
 * Compiles the devnet's test tokens and its settable price feed (scripts/devnet/contracts/*.sol) with solc-js, the compiler
 * bundled in the `solc` package: no download, no network (never call loadRemoteVersion).
 * Only compile.ts (to refresh compiled.generated.ts) and the freshness test use this; the devnet
 * itself loads the generated file so it starts without paying the compile time.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import solc from "solc";
import type { Abi } from "viem";

export const TOKEN_CONTRACTS = ["TestUSDC", "TestUSDT", "TestFAU", "DevnetAggregator"] as const;
export type TokenContractName = (typeof TOKEN_CONTRACTS)[number];

export interface CompiledContract {
  abi: Abi;
  bytecode: `0x${string}`;
}

export const CONTRACTS_DIR = path.join(__dirname, "contracts");

/** Settings are part of the output: change them and compiled.generated.ts must be regenerated. */
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  // Pinned so the bytecode does not change with the compiler's default and runs on any EVM chain.
  evmVersion: "cancun",
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
} as const;

interface SolcOutput {
  errors?: { severity: "error" | "warning" | "info"; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

export function compileTestTokens(): Record<TokenContractName, CompiledContract> {
  const sources: Record<string, { content: string }> = {};
  for (const file of readdirSync(CONTRACTS_DIR)
    .filter((f) => f.endsWith(".sol"))
    .sort()) {
    sources[file] = { content: readFileSync(path.join(CONTRACTS_DIR, file), "utf8") };
  }
  // solc's typings declare compile as `any`; this is its documented standard-JSON signature.
  const compile: (input: string) => string = solc.compile;
  const output = JSON.parse(compile(JSON.stringify({ language: "Solidity", sources, settings: SETTINGS }))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join("\n")}`);

  const result = {} as Record<TokenContractName, CompiledContract>;
  for (const name of TOKEN_CONTRACTS) {
    const contract = output.contracts?.[`${name}.sol`]?.[name];
    if (!contract) throw new Error(`solc produced no ${name} (expected contract ${name} in contracts/${name}.sol)`);
    result[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  }
  return result;
}
