import { type Address, createWalletClient, custom, encodeErrorResult, parseAbi } from "viem";
import { sepolia } from "viem/chains";
import { describe, expect, it } from "vitest";
import {
  describeError,
  INSUFFICIENT_FUNDS_MESSAGE,
  isUserRejection,
  QUOTE_EXPIRED_MESSAGE,
  REJECTED_MESSAGE,
  REVERTED_MESSAGE,
  walletErrorMessage,
} from "@/components/shared/wallet-errors";

const PAYER: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

/**
 * The error viem itself builds when an EIP-1193 wallet answers eth_sendTransaction with `thrown`
 * (as wagmi's sendTransaction does on the pay page): the classes are viem's, not hand-made.
 */
async function walletFailure(thrown: unknown): Promise<unknown> {
  const provider = {
    request: async ({ method }: { method: string }) => {
      if (method === "eth_chainId") return "0xaa36a7";
      if (method === "eth_accounts" || method === "eth_requestAccounts") return [PAYER];
      throw thrown;
    },
  };
  const client = createWalletClient({ chain: sepolia, transport: custom(provider), account: PAYER });
  return client.sendTransaction({ to: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", data: "0x", value: 0n }).then(
    () => {
      throw new Error("expected the wallet to fail");
    },
    (err: unknown) => err,
  );
}

const QUOTE_EXPIRED = encodeErrorResult({
  abi: parseAbi(["error QuoteExpired(uint256 expiresAt, uint256 now_)"]),
  errorName: "QuoteExpired",
  args: [1_700_000_000n, 1_700_000_100n],
});
const OTHER_CUSTOM_ERROR = encodeErrorResult({ abi: parseAbi(["error NotRelayer()"]), errorName: "NotRelayer" });
const REASON = encodeErrorResult({
  abi: parseAbi(["error Error(string)"]),
  errorName: "Error",
  args: ["ERC20: transfer amount exceeds allowance"],
});

describe("wallet errors through viem's classes", () => {
  it("the payer's no (code 4001) is a rejection, however deep viem wraps it", async () => {
    const err = await walletFailure({ code: 4001, message: "User rejected the request." });
    expect(isUserRejection(err)).toBe(true);
    expect(describeError(err)).toBe(REJECTED_MESSAGE);
    expect(walletErrorMessage(err)).toBe(REJECTED_MESSAGE);
  });

  it("a node's insufficient-funds answer becomes a sentence about the wallet's balance", async () => {
    const err = await walletFailure({ code: -32000, message: "insufficient funds for gas * price + value" });
    expect(isUserRejection(err)).toBe(false);
    expect(describeError(err)).toBe(INSUFFICIENT_FUNDS_MESSAGE);
  });

  it("a bridge's QuoteExpired revert is decoded from the revert data, as a node returns it or nested as MetaMask does", async () => {
    const direct = await walletFailure({ code: 3, message: "execution reverted", data: QUOTE_EXPIRED });
    expect(describeError(direct)).toBe(QUOTE_EXPIRED_MESSAGE);
    const nested = await walletFailure({
      code: -32603,
      message: "Internal JSON-RPC error.",
      data: { code: 3, message: "execution reverted", data: QUOTE_EXPIRED },
    });
    expect(describeError(nested)).toBe(QUOTE_EXPIRED_MESSAGE);
    expect(isUserRejection(nested)).toBe(false);
  });

  it("another contract's custom error, or a revert without data, never shows raw hex", async () => {
    const custom = await walletFailure({
      code: 3,
      message: `execution reverted: custom error ${OTHER_CUSTOM_ERROR}`,
      data: OTHER_CUSTOM_ERROR,
    });
    expect(describeError(custom)).toBe(REVERTED_MESSAGE);
    const bare = await walletFailure({ code: -32603, message: "Execution reverted with reason: custom error 0xe7821d82: 0000" });
    expect(describeError(bare)).toBe(REVERTED_MESSAGE);
    expect(describeError(bare)).not.toMatch(/0x/);
  });

  it("a revert with a reason string keeps the reason", async () => {
    const err = await walletFailure({ code: 3, message: "execution reverted", data: REASON });
    expect(describeError(err)).toBe(`${REVERTED_MESSAGE} (ERC20: transfer amount exceeds allowance)`);
  });

  it("any other viem error gives its short message, never the long one with the request dump", async () => {
    const err = await walletFailure({ code: -32002, message: "Request of type 'eth_sendTransaction' already pending" });
    const text = describeError(err);
    expect(text).not.toContain("\n");
    expect(text).not.toMatch(/Request Arguments|Version: viem/);
    expect(text.length).toBeGreaterThan(0);
  });
});

describe("TronLink's errors (not viem's)", () => {
  it("a declined signature (a plain string, wrapped by the adapter) is a rejection", () => {
    expect(isUserRejection("Confirmation declined by user")).toBe(true);
    const adapterError = Object.assign(new Error("Confirmation declined by user"), {
      name: "WalletSignTransactionError",
      error: new Error("Confirmation declined by user"),
    });
    expect(isUserRejection(adapterError)).toBe(true);
    expect(walletErrorMessage(adapterError)).toBe(REJECTED_MESSAGE);
  });

  it("a refused connection (code 4001 kept as the adapter's `error`) is a rejection", () => {
    const connect = Object.assign(new Error("The user rejected connection."), { name: "WalletConnectionError", error: { code: 4001 } });
    expect(isUserRejection(connect)).toBe(true);
  });

  it("other TronLink failures are shown by their message's first line, and are not rejections", () => {
    const locked = Object.assign(new Error("TronLink wallet is locked or no wallet account is avaliable.\nat x"), {
      name: "WalletConnectionError",
    });
    expect(isUserRejection(locked)).toBe(false);
    expect(describeError(locked)).toBe("TronLink wallet is locked or no wallet account is avaliable.");
    expect(describeError("Broadcast failed: BANDWITH_ERROR")).toBe("Broadcast failed: BANDWITH_ERROR");
  });

  it("something unknown gets a generic sentence", () => {
    expect(describeError(undefined)).toBe("Something went wrong. Please try again.");
    expect(describeError({})).toBe("Something went wrong. Please try again.");
    expect(isUserRejection(null)).toBe(false);
  });
});
