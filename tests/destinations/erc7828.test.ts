import { describe, expect, it } from "vitest";
import { destinationIdOf, interopChecksum, parseInteropName, toInteropName } from "@/lib/destinations/erc7828";

describe("ERC-7828 interop names", () => {
  it("matches the ERC's own example", () => {
    expect(toInteropName("0xfe89cc7abb2c4183683ab71653c4cdc9b02d44b7", 1)).toBe(
      "0xFe89cc7aBB2C4183683ab71653C4cdc9B02D44b7@eip155:1#80B12379",
    );
  });

  it("depends on the chain and round-trips", () => {
    const base = toInteropName("0xFe89cc7aBB2C4183683ab71653C4cdc9B02D44b7", 8453);
    expect(base).not.toContain("#80B12379");
    expect(parseInteropName(base)).toEqual({ address: "0xFe89cc7aBB2C4183683ab71653C4cdc9B02D44b7", chainId: 8453 });
    expect(parseInteropName(base.replace(/#.*/, "#00000000"))).toBeNull();
    expect(parseInteropName("garbage")).toBeNull();
  });

  it("names Tron payees under eip155:728126428", () => {
    const name = toInteropName("TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW", 728126428);
    expect(name).toMatch(/^TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW@eip155:728126428#[0-9A-F]{8}$/);
    // the checksum covers the 20-byte account, the same bytes as its 0x form
    expect(interopChecksum("TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW", 728126428)).toBe(
      interopChecksum("0x5a523b449890854c8fc460ab602df9f31fe4293f", 728126428),
    );
    expect(destinationIdOf("TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW", 728126428, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")).toBe(
      `${name}:TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t`,
    );
  });
});
