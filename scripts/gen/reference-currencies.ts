/**
 * The reference's currency catalog as data: lib/currencies/reference-catalog.generated.json, built from
 * `@requestnetwork/currency` (a devDependency) — `CurrencyManager.getDefaultList()`, the list the
 * reference's services start from: ISO 4217 codes, the ERC-20 tokens of each chain (MetaMask's contract
 * metadata plus Request Network's own), SuperFluid's ERC-777 tokens, and native currencies (ETH, BTC…).
 *
 * The package is never imported at run time: its runtime dependencies (@mysten/sui, @ton/core,
 * starknet, multicoin-address-validator) are heavy and only serve address validation. The server loads
 * the generated file once (lib/currencies/catalog.ts). `npx tsx scripts/gen/reference-currencies.ts`
 * says whether the file is current; `--write` regenerates it; tests/currencies/reference-catalog.test.ts
 * fails when it is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { TRON_CHAIN_ID } from "@/lib/chain/networks";
import type { CatalogFile, CurrencyDto } from "@/lib/currencies/catalog";

const PACKAGE = "@requestnetwork/currency";

export function catalogFilePath(): string {
  return path.resolve(__dirname, "../../lib/currencies/reference-catalog.generated.json");
}

interface PackageCurrency {
  id: string;
  hash: string;
  symbol: string;
  decimals: number;
  name?: string;
  type: string;
  network?: string;
  address?: string;
}

type Loaded = {
  version: string;
  list: PackageCurrency[];
  /** network → address → source entry (its name: getDefaultList drops ERC-20 names). */
  erc20: Record<string, Record<string, { name?: string }>>;
  /** EVM chain name → chain ID. */
  evmChainIds: Map<string, number | string>;
};

/**
 * Loads the package. It `require`s "ethers" (v5's `utils.getAddress`, to checksum addresses) without
 * declaring it; this tree's top-level ethers is v6, so the require is answered with the ethers 5.7.2
 * that its sibling @requestnetwork/utils declares and carries.
 */
function loadPackage(): Loaded {
  const req = createRequire(path.resolve(__dirname, "../../package.json"));
  const pkgDir = path.dirname(req.resolve(`${PACKAGE}/package.json`));
  const ethers5 = req.resolve("ethers", { paths: [path.dirname(req.resolve("@requestnetwork/utils/package.json"))] });
  const Module = req("node:module") as {
    _resolveFilename: (r: string, parent: { filename?: string } | undefined, ...rest: unknown[]) => string;
  };
  const original = Module._resolveFilename;
  Module._resolveFilename = function (request, parent, ...rest) {
    if (request === "ethers" && parent?.filename?.startsWith(pkgDir)) return ethers5;
    return original.call(this, request, parent, ...rest);
  };
  try {
    const currency = req(PACKAGE) as {
      CurrencyManager: { getDefaultList(): PackageCurrency[] };
      EvmChains: { chains: Record<string, { chainId: number | string }> };
    };
    const erc20 = req(path.join(pkgDir, "dist/erc20/chains/index.js")).supportedNetworks as Loaded["erc20"];
    const evmChainIds = new Map(Object.entries(currency.EvmChains.chains).map(([name, chain]) => [name, chain.chainId]));
    const version = (JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")) as { version: string }).version;
    return { version, list: currency.CurrencyManager.getDefaultList(), erc20, evmChainIds };
  } finally {
    Module._resolveFilename = original;
  }
}

/**
 * The catalog in the API's currency shape, in the package's order. `name`: the package's, or for an
 * ERC-20 its source entry's (getDefaultList keeps no ERC-20 name), else the symbol. `chainId`: the
 * EVM chain ID of its network; the package names Tron's chain "tron", which is 728126428 here as on
 * Duebill's own Tron tokens; null for chains without a numeric ID (Bitcoin, NEAR) and for fiat.
 */
export function buildReferenceCatalog(): CatalogFile {
  const { version, list, erc20, evmChainIds } = loadPackage();
  const currencies: CurrencyDto[] = list.map((c) => {
    const network = c.network ?? null;
    const sourceName = network && c.address ? erc20[network]?.[c.address]?.name : undefined;
    // Bitcoin's "mainnet" is not Ethereum's: only EVM currencies take an EVM chain's ID.
    const rawChainId = network && c.type !== "BTC" ? evmChainIds.get(network) : undefined;
    const chainId = network === "tron" ? TRON_CHAIN_ID : typeof rawChainId === "number" ? rawChainId : null;
    return {
      id: c.id,
      name: c.name ?? sourceName ?? c.symbol,
      symbol: c.symbol,
      decimals: c.decimals,
      address: c.address ?? null,
      network,
      type: c.type as CurrencyDto["type"],
      hash: c.hash,
      chainId,
    };
  });
  return {
    generatedBy: "scripts/gen/reference-currencies.ts (do not edit: run it with --write)",
    package: `${PACKAGE}@${version}`,
    currencies,
  };
}

/** One currency per line, so a package update reads as a short diff. */
export function serializeCatalog(file: CatalogFile): string {
  const lines = file.currencies.map((c) => `    ${JSON.stringify(c)}`);
  return `{\n  "generatedBy": ${JSON.stringify(file.generatedBy)},\n  "package": ${JSON.stringify(file.package)},\n  "currencies": [\n${lines.join(",\n")}\n  ]\n}\n`;
}

if (require.main === module) {
  const text = serializeCatalog(buildReferenceCatalog());
  const file = catalogFilePath();
  if (process.argv.includes("--write")) {
    writeFileSync(file, text);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  } else {
    const current = readFileSync(file, "utf8");
    console.log(current === text ? "reference catalog is current" : "reference catalog is stale: run with --write");
    if (current !== text) process.exitCode = 1;
  }
}
