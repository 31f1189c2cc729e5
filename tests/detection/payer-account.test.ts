import { describe, expect, it } from "vitest";
import { networkRuntime } from "@/lib/chain/config";
import { payerAccountOf, tokenTransfersOf } from "@/lib/detection/payer-account";

/**
 * Who paid, from a receipt's Transfer logs (lib/detection/payer-account.ts). The logs are written
 * out by hand: topic0 is keccak256("Transfer(address,address,uint256)") as ERC-20 defines it, the
 * addresses left-padded to 32 bytes, the value a 32-byte word.
 */
const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PAYEE = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const OWNER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const SAFE = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const FEE = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const rt = networkRuntime("base");

const word = (hex: string) => `0x${hex.replace(/^0x/, "").toLowerCase().padStart(64, "0")}` as `0x${string}`;
const transferLog = (from: string, to: string, value: bigint, logIndex: number, token = USDC) => ({
  address: token,
  topics: [TRANSFER, word(from), word(to)] as `0x${string}`[],
  data: word(value.toString(16)),
  logIndex,
});

describe("payerAccountOf", () => {
  const payment = { token: USDC, to: PAYEE, amount: 10_000_000n, logIndex: 5 };

  it("a Safe's executing owner sent the transaction: the Safe paid, the owner is its EOA", () => {
    const transfers = tokenTransfersOf([transferLog(SAFE, PAYEE, 10_000_000n, 3), transferLog(SAFE, FEE, 100_000n, 4)]);
    expect(transfers[0]).toEqual({ token: USDC.toLowerCase(), from: SAFE, to: PAYEE.toLowerCase(), value: 10_000_000n, logIndex: 3 });
    expect(payerAccountOf(rt, { from: OWNER, to: SAFE, transfers }, payment)).toEqual({ address: SAFE, eoa: OWNER });
  });

  it("an ERC-4337 bundle (to an EntryPoint): the account paid, its EOA is not known", () => {
    const transfers = tokenTransfersOf([transferLog(SAFE, PAYEE, 10_000_000n, 3)]);
    for (const entryPoint of ["0x0000000071727De22E5E9d8BAf0edAc6f37da032", "0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789"])
      expect(payerAccountOf(rt, { from: OWNER, to: entryPoint, transfers }, payment)).toEqual({ address: SAFE, eoa: null });
  });

  it("no smart account: the sender's own tokens, a protocol contract's, another token, amount or later log", () => {
    const none = (logs: ReturnType<typeof transferLog>[]) =>
      payerAccountOf(rt, { from: OWNER, to: rt.contracts.erc20FeeProxy, transfers: tokenTransfersOf(logs) }, payment);
    expect(none([transferLog(OWNER, PAYEE, 10_000_000n, 3)])).toBeUndefined();
    // The batch contract pays the fee proxy with what it pulled from the payer.
    expect(
      none([
        transferLog(OWNER, rt.contracts.batchPayments, 10_000_000n, 1),
        transferLog(rt.contracts.batchPayments, PAYEE, 10_000_000n, 3),
      ]),
    ).toBeUndefined();
    expect(none([transferLog(SAFE, PAYEE, 10_000_000n, 3, "0xdAC17F958D2ee523a2206206994597C13D831ec7")])).toBeUndefined();
    expect(none([transferLog(SAFE, PAYEE, 9_999_999n, 3)])).toBeUndefined();
    expect(none([transferLog(SAFE, PAYEE, 10_000_000n, 6)])).toBeUndefined();
    expect(none([])).toBeUndefined();
  });

  it("several payments in one transaction: the Transfer right before each event", () => {
    const transfers = tokenTransfersOf([transferLog(OWNER, PAYEE, 10_000_000n, 1), transferLog(SAFE, PAYEE, 10_000_000n, 3)]);
    expect(payerAccountOf(rt, { from: OWNER, to: SAFE, transfers }, { ...payment, logIndex: 2 })).toBeUndefined();
    expect(payerAccountOf(rt, { from: OWNER, to: SAFE, transfers }, { ...payment, logIndex: 4 })).toEqual({ address: SAFE, eoa: OWNER });
  });

  it("skips what is not an ERC-20 Transfer (an ERC-721 one has its token ID indexed)", () => {
    const nft = {
      ...transferLog(SAFE, PAYEE, 1n, 3),
      topics: [TRANSFER, word(SAFE), word(PAYEE), word("1")] as `0x${string}`[],
      data: "0x" as const,
    };
    expect(
      tokenTransfersOf([nft, { ...transferLog(SAFE, PAYEE, 1n, 4), topics: [word("1"), word(SAFE), word(PAYEE)] as `0x${string}`[] }]),
    ).toEqual([]);
  });
});
