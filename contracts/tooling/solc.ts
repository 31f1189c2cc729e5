/**
 * The one solc wrapper: compiles every Solidity source of the project (contracts/src/*.sol, the
 * production contracts; contracts/devnet/*.sol, the devnet's tokens, price feed, bridge and test
 * wallet; contracts/test/*.sol when there is any) with solc-js, the compiler bundled in the `solc`
 * package: no download, no network (never call loadRemoteVersion).
 * `@openzeppelin/contracts/...` imports are read from the installed npm package (pinned exactly in
 * package.json, so the sources, and with them the bytecode, are reproducible).
 * Only compile.ts (to refresh contracts/generated/) and the freshness test (tests/chain/devnet.test.ts)
 * use this; the devnet, the deploy command, the app and the tests load the generated files.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import solc from "solc";
import type { Abi } from "viem";

/** Deployed to real networks (contracts/src). */
export const PRODUCTION_CONTRACTS = [
  "DuebillRecurringPayments",
  "DuebillDepositFactory",
  "DuebillDepositAddress",
  "DuebillGaslessPayments",
  "DuebillCommerceEscrow",
] as const;
/** Deployed on anvil only (contracts/devnet): the devnet's stand-ins and the tests' smart wallets (TestMultisigWallet and TestMultiSendCallOnly stand in for a Safe). */
export const DEVNET_CONTRACTS = [
  "TestUSDC",
  "TestUSDT",
  "TestFAU",
  "DevnetAggregator",
  "DuebillDevnetBridge",
  "TestSmartWallet",
  "TestMultisigWallet",
  "TestMultiSendCallOnly",
  "TestShortToken",
  "TestFeeOnTransferToken",
] as const;
export const PROJECT_CONTRACTS = [...PRODUCTION_CONTRACTS, ...DEVNET_CONTRACTS] as const;
export type ProjectContractName = (typeof PROJECT_CONTRACTS)[number];

export interface CompiledContract {
  abi: Abi;
  bytecode: `0x${string}`;
}

export const ROOT = path.join(__dirname, "..", "..");
/** Source units are named by their path from the repository root ("contracts/src/…"): part of the metadata hash. */
const SOURCE_DIRS = ["src", "devnet", "test"].map((dir) => path.join("contracts", dir));

/** Settings are part of the output: change them and contracts/generated/ must be regenerated. */
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  // Cancun: OpenZeppelin 5.x uses mcopy/tstore; every EVM network Duebill supports runs it.
  evmVersion: "cancun",
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
} as const;

interface SolcOutput {
  errors?: { severity: "error" | "warning" | "info"; formattedMessage: string; sourceLocation?: { file: string } }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

function sources(): Record<string, { content: string }> {
  const out: Record<string, { content: string }> = {};
  for (const dir of SOURCE_DIRS) {
    if (!existsSync(path.join(ROOT, dir))) continue;
    for (const file of readdirSync(path.join(ROOT, dir))
      .filter((f) => f.endsWith(".sol"))
      .sort()) {
      const unit = `${dir.split(path.sep).join("/")}/${file}`;
      out[unit] = { content: readFileSync(path.join(ROOT, dir, file), "utf8") };
    }
  }
  return out;
}

/** solc's import callback: only `@openzeppelin/contracts/…`, read from node_modules. */
function findImport(importPath: string): { contents: string } | { error: string } {
  const prefix = "@openzeppelin/contracts/";
  if (!importPath.startsWith(prefix) || importPath.includes("..")) return { error: `import not allowed: ${importPath}` };
  const require = createRequire(path.join(ROOT, "package.json"));
  const pkgDir = path.dirname(require.resolve("@openzeppelin/contracts/package.json"));
  try {
    return { contents: readFileSync(path.join(pkgDir, importPath.slice(prefix.length)), "utf8") };
  } catch (err) {
    return { error: `cannot read ${importPath}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export function compileProjectContracts(): Record<ProjectContractName, CompiledContract> {
  const input = JSON.stringify({ language: "Solidity", sources: sources(), settings: SETTINGS });
  // solc's typings declare compile as `any`; this is its documented standard-JSON signature.
  const compile: (input: string, callbacks: { import: typeof findImport }) => string = solc.compile;
  const output = JSON.parse(compile(input, { import: findImport })) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join("\n")}`);
  // Our own sources compile warning-free (OpenZeppelin's own notes, e.g. on tstore, are not ours to fix).
  const warnings = (output.errors ?? []).filter((e) => e.severity === "warning" && e.sourceLocation?.file.startsWith("contracts/"));
  if (warnings.length > 0) throw new Error(`solc warnings (fix them):\n${warnings.map((e) => e.formattedMessage).join("\n")}`);

  const result = {} as Record<ProjectContractName, CompiledContract>;
  for (const name of PROJECT_CONTRACTS) {
    const unit = Object.keys(output.contracts ?? {}).find((u) => u.endsWith(`/${name}.sol`) && u.startsWith("contracts/"));
    const contract = unit ? output.contracts?.[unit]?.[name] : undefined;
    if (!contract) throw new Error(`solc produced no ${name} (expected contract ${name} in contracts/{src,devnet,test}/${name}.sol)`);
    result[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  }
  return result;
}
