import { describe, expect, it } from "vitest";
import { decodeTronAddress, hexToTron, isEvmAddress, isTronAddress, tronToHex } from "@/lib/chain/address";
import { DEPLOYMENTS } from "@/lib/chain/deployments";
import { NETWORK_IDS, NETWORKS } from "@/lib/chain/networks";
import { TOKENS } from "@/lib/chain/tokens";
import { fiatCurrencyHash } from "@/lib/currencies/fiat";

const isAddressFor = (network: string, a: string) => (network === "tron" ? isTronAddress(a) : isEvmAddress(a));

describe("chain data (docs/spec/chain-data.md)", () => {
  it("has the 8 networks with their chain IDs", () => {
    expect(Object.fromEntries(NETWORK_IDS.map((id) => [id, NETWORKS[id].chainId]))).toEqual({
      mainnet: 1,
      "arbitrum-one": 42161,
      optimism: 10,
      base: 8453,
      matic: 137,
      bsc: 56,
      tron: 728126428,
      sepolia: 11155111,
    });
  });

  it("gives every network USDC and USDT with valid addresses", () => {
    for (const id of NETWORK_IDS) {
      const symbols = TOKENS.filter((t) => t.network === id).map((t) => t.symbol);
      expect(symbols, id).toContain("USDC");
      expect(symbols, id).toContain("USDT");
    }
    for (const t of TOKENS) expect(isAddressFor(t.network, t.address), `${t.symbol}-${t.network} ${t.address}`).toBe(true);
  });

  it("has the decimals of docs/spec/chain-data.md (18 for bsc stablecoins, 6 elsewhere, 18 for DAI and FAU)", () => {
    for (const t of TOKENS) {
      const expected = t.network === "bsc" || t.symbol === "DAI" || t.symbol === "FAU" ? 18 : 6;
      expect(t.decimals, `${t.symbol}-${t.network}`).toBe(expected);
    }
  });

  it("has USDT0 exactly on arbitrum-one, optimism and matic, as a payment alias of USDT", () => {
    const usdt0 = TOKENS.filter((t) => t.symbol === "USDT0");
    expect(usdt0.map((t) => t.network).sort()).toEqual(["arbitrum-one", "matic", "optimism"]);
    for (const t of usdt0) expect(t.paymentAliasOf).toBe("USDT");
    const arbUsdt = TOKENS.find((t) => t.network === "arbitrum-one" && t.symbol === "USDT");
    expect(usdt0.find((t) => t.network === "arbitrum-one")?.address).toBe(arbUsdt?.address);
  });

  it("keys tokens by (network, symbol) uniquely", () => {
    const keys = TOKENS.map((t) => `${t.network}:${t.symbol}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("has fee proxy and batch contracts on every network, with valid addresses", () => {
    for (const id of NETWORK_IDS) {
      const c = DEPLOYMENTS[id];
      expect(isAddressFor(id, c.erc20FeeProxy), `${id} fee proxy`).toBe(true);
      expect(isAddressFor(id, c.batchPayments), `${id} batch`).toBe(true);
      expect(c.erc20FeeProxyCreationBlock).toBeGreaterThan(0);
      for (const a of [c.erc20ConversionProxy, c.chainlinkConversionPath, c.recurringPaymentProxy])
        if (a) expect(isEvmAddress(a)).toBe(true);
    }
    expect(DEPLOYMENTS.optimism.recurringPaymentProxy).toBeNull();
    expect(DEPLOYMENTS.tron.recurringPaymentProxy).toBeNull();
  });

  it("computes the Request Network fiat currency hashes", () => {
    expect(fiatCurrencyHash("USD")).toBe("0x775eb53d00dd0acd3ec1696472105d579b9b386b");
    expect(fiatCurrencyHash("EUR")).toBe("0x17b4158805772ced11225e77339f90beb5aae968");
  });

  it("round-trips Tron addresses and rejects bad checksums", () => {
    const usdt = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
    expect(tronToHex(usdt)).toBe("0xa614f803b6fd780986a42c78ec9c7f77e6ded13c");
    expect(hexToTron(tronToHex(usdt))).toBe(usdt);
    expect(isTronAddress("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u")).toBe(false);
    expect(decodeTronAddress("0xdAC17F958D2ee523a2206206994597C13D831ec7")).toBeNull();
    expect(isEvmAddress("0xdac17f958d2ee523a2206206994597c13d831ec8")).toBe(true);
    expect(isEvmAddress("0xdAC17F958D2ee523a2206206994597C13D831ec8")).toBe(false);
  });
});
