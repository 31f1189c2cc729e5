import { describe, expect, it } from "vitest";
import { tokenOf } from "@/lib/chain/stored";

/** Stored requests name their currency `SYMBOL-network`; a network ID may itself hold a hyphen. */
describe("tokenOf", () => {
  it("reads currencies of hyphenated networks (USDC-arbitrum-one) as well as plain ones", () => {
    expect(tokenOf({ network: "arbitrum-one", paymentCurrency: "USDC-arbitrum-one" }).symbol).toBe("USDC");
    expect(tokenOf({ network: "base", paymentCurrency: "USDT-base" }).symbol).toBe("USDT");
  });

  it("still refuses an unknown currency", () => {
    expect(() => tokenOf({ network: "base", paymentCurrency: "DOGE-base" })).toThrow(/unknown currency/);
  });
});
