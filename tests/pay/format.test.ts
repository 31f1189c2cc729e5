import { describe, expect, it } from "vitest";
import { depositProgress, qrDataUri } from "@/components/pay/lib/deposit";
import { explorerTxUrl, safeHttpUrl } from "@/components/pay/lib/format";
import { formatRelative, formatUtc, groupAmount, shortenAddress } from "@/components/shared/format";

describe("groupAmount", () => {
  it("groups the whole part by thousands and keeps the fraction as written", () => {
    expect(groupAmount("1234567.5")).toBe("1,234,567.5");
    expect(groupAmount("1000")).toBe("1,000");
    expect(groupAmount("999.999999")).toBe("999.999999");
    expect(groupAmount("0.000001")).toBe("0.000001");
  });
  it("never goes through a float: 18 decimals and 30 digits stay exact", () => {
    expect(groupAmount("123456789012345678901234567890.123456789012345678")).toBe(
      "123,456,789,012,345,678,901,234,567,890.123456789012345678",
    );
  });
});

describe("shortenAddress", () => {
  it("keeps the head and the last four characters", () => {
    expect(shortenAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC")).toBe("0x3C44…93BC");
    expect(shortenAddress("TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW", 4)).toBe("TJCn…sxMW");
  });
  it("leaves a value that is already short", () => {
    expect(shortenAddress("0x12345678")).toBe("0x12345678");
  });
});

describe("formatUtc and formatRelative", () => {
  it("writes a UTC date the same in every time zone", () => {
    expect(formatUtc("2026-11-23T14:56:00.000Z")).toBe("23 Nov 2026, 14:56 UTC");
    expect(formatUtc("2026-01-02T00:05:00Z")).toBe("2 Jan 2026, 00:05 UTC");
  });
  it("says how far a time is from now, in the largest whole unit", () => {
    const now = Date.parse("2026-11-23T12:00:00Z");
    expect(formatRelative("2026-11-30T12:00:00Z", now)).toBe("in 7 days");
    expect(formatRelative("2026-11-23T10:00:00Z", now)).toBe("2 hours ago");
    expect(formatRelative("2026-11-23T12:05:00Z", now)).toBe("in 5 minutes");
    expect(formatRelative("2026-11-23T12:00:20Z", now)).toBe("in less than a minute");
    expect(formatRelative("2026-11-23T11:59:40Z", now)).toBe("less than a minute ago");
  });
});

describe("safeHttpUrl and explorerTxUrl", () => {
  it("lets only http(s) URLs through", () => {
    expect(safeHttpUrl("https://shop.example/done?x=1")).toBe("https://shop.example/done?x=1");
    expect(safeHttpUrl("http://localhost:3000/")).toBe("http://localhost:3000/");
    expect(safeHttpUrl("javascript:alert(1)")).toBeNull();
    expect(safeHttpUrl("data:text/html,<b>x</b>")).toBeNull();
    expect(safeHttpUrl("not a url")).toBeNull();
    expect(safeHttpUrl(null)).toBeNull();
    expect(safeHttpUrl("")).toBeNull();
  });
  it("builds an explorer link from the network's prefix, and none from an unsafe prefix", () => {
    const hash = `0x${"ab".repeat(32)}`;
    expect(explorerTxUrl("https://sepolia.etherscan.io/tx/", hash)).toBe(`https://sepolia.etherscan.io/tx/${hash}`);
    expect(explorerTxUrl("", hash)).toBeNull();
    expect(explorerTxUrl("javascript:", hash)).toBeNull();
  });
});

describe("depositProgress", () => {
  const deposit = { amount: "42", token: { symbol: "USDC", address: "0x1", decimals: 6 } };
  it("waits, then asks for the rest of a partial transfer, then says it is forwarding", () => {
    expect(depositProgress({ ...deposit, received: "0", remaining: "42" }, "Shop")).toEqual({
      text: "Waiting for your transfer… This page updates by itself.",
      tone: "wait",
    });
    expect(depositProgress({ ...deposit, amount: "1042", received: "1000", remaining: "42" }, "Shop")).toEqual({
      text: "Received 1,000 of 1,042 USDC. Send the remaining 42 USDC to the same address.",
      tone: "part",
    });
    expect(depositProgress({ ...deposit, received: "42", remaining: "0" }, "Shop")).toEqual({
      text: "Transfer received. Forwarding it to Shop and confirming it on chain…",
      tone: "done",
    });
  });
  it("encodes the QR SVG as a data URI an img can show", () => {
    const uri = qrDataUri('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h1"/></svg>');
    expect(uri.startsWith("data:image/svg+xml;charset=utf-8,")).toBe(true);
    expect(decodeURIComponent(uri.slice(uri.indexOf(",") + 1))).toBe('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h1"/></svg>');
    expect(uri).not.toContain("<");
  });
});
