import { afterEach, describe, expect, it } from "vitest";
import { resetChainConfig } from "@/lib/chain/config";
import { explorerTxPrefix } from "@/lib/chain/explorer";
import { NETWORKS } from "@/lib/chain/networks";
import { explorerLink } from "@/lib/chain/stored";
import { reloadEnv } from "@/lib/env";

const hash = `0x${"ab".repeat(32)}`;

function withChainConfig(config: unknown): void {
  process.env.CHAIN_CONFIG = JSON.stringify(config);
  reloadEnv();
  resetChainConfig();
}

describe("explorer links: one rule (lib/chain/explorer.ts)", () => {
  const saved = process.env.CHAIN_CONFIG;
  afterEach(() => {
    if (saved === undefined) delete process.env.CHAIN_CONFIG;
    else process.env.CHAIN_CONFIG = saved;
    reloadEnv();
    resetChainConfig();
  });

  it("links a public chain's transaction to its explorer", () => {
    const committed = NETWORKS.base;
    expect(explorerTxPrefix({ committed, chainId: 8453, rpcUrl: "https://mainnet.base.org" })).toBe("https://basescan.org/tx/");
    expect(explorerTxPrefix({ committed, chainId: 8453, rpcUrl: null })).toBe("https://basescan.org/tx/");
  });

  it("links nowhere for a local RPC or another chain ID than the network's (the devnet)", () => {
    const committed = NETWORKS.sepolia;
    expect(explorerTxPrefix({ committed, chainId: 11155111, rpcUrl: "http://127.0.0.1:8545" })).toBeNull();
    expect(explorerTxPrefix({ committed, chainId: 11155111, rpcUrl: "http://localhost:8545/" })).toBeNull();
    expect(explorerTxPrefix({ committed, chainId: 31337, rpcUrl: "https://rpc.example.net" })).toBeNull();
    // A host merely starting with "localhost" is not local.
    expect(explorerTxPrefix({ committed, chainId: 11155111, rpcUrl: "https://localhost.example.net" })).toBe(committed.explorerTxUrl);
  });

  it("a configured prefix wins, and a configured null means no explorer", () => {
    const committed = NETWORKS.sepolia;
    expect(explorerTxPrefix({ committed, chainId: 31337, rpcUrl: "http://127.0.0.1:8545", configured: "http://127.0.0.1:5100/tx/" })).toBe(
      "http://127.0.0.1:5100/tx/",
    );
    expect(explorerTxPrefix({ committed, chainId: 11155111, rpcUrl: "https://rpc.sepolia.org", configured: null })).toBeNull();
  });

  it("explorerLink (dashboard) and the runtime follow it from CHAIN_CONFIG", () => {
    withChainConfig({ sepolia: { rpcUrl: "http://127.0.0.1:8545", chainId: 31337 }, base: { rpcUrl: "https://base.example.net" } });
    expect(explorerLink("sepolia", hash)).toBeNull();
    expect(explorerLink("base", hash)).toBe(`https://basescan.org/tx/${hash}`);
    withChainConfig({ sepolia: { rpcUrl: "https://rpc.example.net", chainId: 31337 } });
    expect(explorerLink("sepolia", hash)).toBeNull();
    withChainConfig({ base: { explorerTxUrl: null } });
    expect(explorerLink("base", hash)).toBeNull();
    withChainConfig({ sepolia: { rpcUrl: "http://127.0.0.1:8545", explorerTxUrl: "http://127.0.0.1:5100/tx/" } });
    expect(explorerLink("sepolia", hash)).toBe(`http://127.0.0.1:5100/tx/${hash}`);
    expect(explorerLink("not-a-network", hash)).toBeNull();
  });
});
