/**
 * contracts/src/DuebillCommerceEscrow.sol on anvil, over the real ERC20FeeProxy bytecode and the devnet's
 * EIP-3009 USDC: the lifecycle with balances at each step, then one revert per rule. The oracles are the
 * token (it checks the payer's signature with ecrecover and refuses a nonce twice) and the fee proxy's own
 * TransferWithReferenceAndFee event. Gas per operation is printed at the end.
 */
import { erc20Abi, keccak256, parseEventLogs, toFunctionSelector, toHex, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { erc20FeeProxyAbi } from "@/lib/chain/abis";
import { paymentIdOf } from "@/lib/commerce/payment-info";
import { type Devnet, startDevnet } from "@/scripts/devnet/index";
import { chainTime, moveDevnetClock } from "@/scripts/devnet/time";
import { escrowAbi, harness, revertName } from "./escrow-harness";

let devnet: Devnet;
let h: ReturnType<typeof harness>;
const gas: Record<string, bigint> = {};

beforeAll(async () => {
  devnet = await startDevnet({ port: 0 });
  h = harness(devnet);
}, 60_000);
afterAll(async () => {
  if (Object.keys(gas).length > 0) console.log("[escrow] gas per operation:", gas);
  await devnet?.stop();
});

describe("DuebillCommerceEscrow", () => {
  it("authorize 100 (signature, relayed) → capture 60 through the fee proxy → void 40 → refund 10, balances at each step", async () => {
    const { payer, payee, feeRecipient } = devnet.accounts;
    const p = await h.info();
    const id = paymentIdOf(devnet.chainId, h.escrow, p);
    expect(await h.pub.readContract({ address: h.escrow, abi: escrowAbi, functionName: "getPaymentId", args: [p] })).toBe(id);

    const b0 = { payer: await h.balanceOf(payer.address), payee: await h.balanceOf(payee.address) };
    const signature = await h.signAuthorization(p);
    // The operator submits; any account could (the signature binds every field).
    const auth = await h.mined(await h.call("operator", "authorizeWithSignature", [p, signature]));
    gas.authorizeWithSignature = auth.gasUsed;
    expect(await h.balanceOf(payer.address)).toBe(b0.payer - 100_000_000n);
    expect(await h.balanceOf(h.escrow)).toBeGreaterThanOrEqual(100_000_000n);

    const fee = 600_000n; // 1 % of 60, the most maxFeeBps = 100 allows
    const feeBefore = await h.balanceOf(feeRecipient.address);
    const cap = await h.mined(await h.call("operator", "capture", [p, 60_000_000n, fee]));
    gas.capture = cap.gasUsed;
    expect(await h.balanceOf(payee.address)).toBe(b0.payee + 60_000_000n - fee);
    expect(await h.balanceOf(feeRecipient.address)).toBe(feeBefore + fee);
    const proxyLogs = parseEventLogs({ abi: erc20FeeProxyAbi, logs: cap.logs, eventName: "TransferWithReferenceAndFee" });
    expect(proxyLogs).toHaveLength(1);
    expect(proxyLogs[0]!.address.toLowerCase()).toBe(devnet.contracts.erc20FeeProxy.toLowerCase());
    expect(proxyLogs[0]!.args).toMatchObject({ to: payee.address, amount: 60_000_000n - fee, feeAmount: fee });
    expect(proxyLogs[0]!.args.paymentReference).toBe(keccak256(p.paymentReference));

    const voided = await h.mined(await h.call("operator", "void", [p]));
    gas.void = voided.gasUsed;
    expect(await h.balanceOf(payer.address)).toBe(b0.payer - 60_000_000n);

    await h.mined(
      await h.wallets.payee.writeContract({ address: p.token, abi: erc20Abi, functionName: "approve", args: [h.escrow, 10_000_000n] }),
    );
    const refunded = await h.mined(await h.call("payee", "refund", [p, 10_000_000n]));
    gas.refund = refunded.gasUsed;
    expect(await h.balanceOf(payer.address)).toBe(b0.payer - 50_000_000n);
    expect(await h.balanceOf(payee.address)).toBe(b0.payee + 50_000_000n - fee);
    const events = parseEventLogs({ abi: escrowAbi, logs: refunded.logs, eventName: "PaymentRefunded" });
    expect(events[0]!.args).toMatchObject({ paymentId: id, paymentReference: p.paymentReference, amount: 10_000_000n });
    expect(await h.state(p)).toEqual({ authorized: true, capturable: 0n, captured: 60_000_000n, refunded: 10_000_000n });
  });

  it("allowance path (USDT, no EIP-3009): the payer authorizes in its own transaction; the payer reclaims after the expiry", async () => {
    const p = await h.info({ token: devnet.tokens.USDT, maxAmount: 5_000_000n });
    await h.mined(
      await h.wallets.payer.writeContract({ address: p.token, abi: erc20Abi, functionName: "approve", args: [h.escrow, p.maxAmount] }),
    );
    expect(await revertName(h.call("operator", "authorizeWithAllowance", [p]))).toBe("NotPayer");
    const before = await h.balanceOf(p.payer, p.token);
    gas.authorizeWithAllowance = (await h.mined(await h.call("payer", "authorizeWithAllowance", [p]))).gasUsed;
    expect(await h.balanceOf(p.payer, p.token)).toBe(before - p.maxAmount);
    expect(await revertName(h.call("payer", "reclaim", [p]))).toBe("AuthorizationNotExpired");
    expect(await revertName(h.call("stranger", "reclaim", [p]))).toBe("NotPayer");
    await moveDevnetClock(devnet.rpcUrl, { kind: "at", timestamp: p.authorizationExpiry });
    expect(await revertName(h.call("operator", "capture", [p, 1n, 0n]))).toBe("AuthorizationExpired");
    gas.reclaim = (await h.mined(await h.call("payer", "reclaim", [p]))).gasUsed;
    expect(await h.balanceOf(p.payer, p.token)).toBe(before);
    expect(await revertName(h.call("payer", "reclaim", [p]))).toBe("NothingToReclaim");
    expect(await revertName(h.call("operator", "void", [p]))).toBe("NothingToVoid");
  });

  it("a signature authorizes exactly its payment: redirected, replayed, foreign or expired → no second escrow", async () => {
    const p = await h.info({ maxAmount: 1_000_000n });
    const sig = await h.signAuthorization(p);
    // Another receiver (or any other field) is another nonce: the token's ecrecover does not give the payer.
    const redirected = { ...p, receiver: devnet.accounts.depositRelayer.address };
    await expect(h.call("stranger", "authorizeWithSignature", [redirected, sig])).rejects.toThrow(/invalid signature/);
    await expect(h.call("stranger", "authorizeWithSignature", [{ ...p, maxAmount: 2_000_000n }, sig])).rejects.toThrow(/invalid signature/);
    // Signed by someone other than the payer.
    const foreign = await h.signAuthorization(p, devnet.accounts.payee.privateKey);
    await expect(h.call("stranger", "authorizeWithSignature", [p, foreign])).rejects.toThrow(/invalid signature/);
    await h.mined(await h.call("stranger", "authorizeWithSignature", [p, sig]));
    expect(await revertName(h.call("operator", "authorizeWithSignature", [p, sig]))).toBe("AlreadyAuthorized");
    // The same nonce straight at the token (someone front-running with the signature) is spent too.
    const msg = { from: p.payer, to: h.escrow, value: p.maxAmount, validAfter: 0n, validBefore: BigInt(p.preApprovalExpiry) };
    await expect(
      h.wallets.stranger.writeContract({
        address: p.token,
        abi: compiledContracts.TestUSDC.abi,
        functionName: "transferWithAuthorization",
        args: [msg.from, msg.to, msg.value, msg.validAfter, msg.validBefore, paymentIdOf(devnet.chainId, h.escrow, p), sig],
      }),
    ).rejects.toThrow(/invalid signature|authorization is used/);
    const late = await h.info({ preApprovalExpiry: (await chainTime(devnet.rpcUrl)) - 1 });
    expect(await revertName(h.call("stranger", "authorizeWithSignature", [late, await h.signAuthorization(late)]))).toBe(
      "PreApprovalExpired",
    );
  });

  it("refuses malformed payments: one error per rule", async () => {
    const cases: [Partial<Parameters<typeof h.info>[0]>, string][] = [
      [{ operator: zeroAddress }, "ZeroAddress"],
      [{ receiver: zeroAddress }, "ZeroAddress"],
      [{ maxAmount: 0n }, "ZeroAmount"],
      [{ maxFeeBps: 10_001 }, "FeeBpsTooHigh"],
      [{ feeReceiver: zeroAddress }, "FeeReceiverMissing"],
    ];
    for (const [o, name] of cases) {
      const p = await h.info(o);
      expect(await revertName(h.call("payer", "authorizeWithAllowance", [p])), name).toBe(name);
    }
    const p = await h.info();
    const bad = { ...p, authorizationExpiry: p.preApprovalExpiry - 1 };
    expect(await revertName(h.call("payer", "authorizeWithAllowance", [bad]))).toBe("InvalidExpiries");
    await expect(
      h.wallets.operator.deployContract({
        abi: escrowAbi,
        bytecode: compiledContracts.DuebillCommerceEscrow.bytecode,
        args: [zeroAddress],
      }),
    ).rejects.toThrow(toFunctionSelector("ZeroAddress()")); // a constructor's custom error is not decoded: its selector
  });

  it("refuses a fee-on-transfer token (the escrow would promise more than it holds): BalanceMismatch", async () => {
    const fot = compiledContracts.TestFeeOnTransferToken;
    const deployed = await h.pub.waitForTransactionReceipt({
      hash: await h.wallets.payer.deployContract({ abi: fot.abi, bytecode: fot.bytecode }),
    });
    const token = deployed.contractAddress!;
    await h.mined(
      await h.wallets.payer.writeContract({
        address: token,
        abi: fot.abi,
        functionName: "mint",
        args: [devnet.accounts.payer.address, 10n ** 24n],
      }),
    );
    await h.mined(
      await h.wallets.payer.writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [h.escrow, 10n ** 24n] }),
    );
    const p = await h.info({ token, maxAmount: 1_000_000n });
    expect(await revertName(h.call("payer", "authorizeWithAllowance", [p]))).toBe("BalanceMismatch");
  });

  it("operator rules: only the operator captures and voids, never more than capturable, never a fee above maxFeeBps", async () => {
    const p = await h.info({ maxAmount: 10_000_000n });
    expect(await revertName(h.call("operator", "capture", [p, 1n, 0n]))).toBe("ExceedsCapturable"); // not authorized: nothing to capture
    expect(await revertName(h.call("operator", "void", [p]))).toBe("NothingToVoid");
    await h.mined(await h.call("stranger", "authorizeWithSignature", [p, await h.signAuthorization(p)]));
    expect(await revertName(h.call("payee", "capture", [p, 1n, 0n]))).toBe("NotOperator");
    expect(await revertName(h.call("payer", "void", [p]))).toBe("NotOperator");
    expect(await revertName(h.call("operator", "capture", [p, 0n, 0n]))).toBe("ZeroAmount");
    expect(await revertName(h.call("operator", "capture", [p, 10_000_001n, 0n]))).toBe("ExceedsCapturable");
    expect(await revertName(h.call("operator", "capture", [p, 1_000_000n, 10_001n]))).toBe("FeeTooHigh");
    await h.mined(await h.call("operator", "capture", [p, 4_000_000n, 40_000n]));
    await h.mined(await h.call("operator", "capture", [p, 6_000_000n, 0n])); // all of it, in two parts
    expect(await revertName(h.call("operator", "capture", [p, 1n, 0n]))).toBe("ExceedsCapturable");
    expect(await revertName(h.call("operator", "void", [p]))).toBe("NothingToVoid");
    // Refund rules: operator or receiver only, never above what was captured in total.
    expect(await revertName(h.call("stranger", "refund", [p, 1n]))).toBe("NotOperatorOrReceiver");
    expect(await revertName(h.call("operator", "refund", [p, 0n]))).toBe("ZeroAmount");
    expect(await revertName(h.call("operator", "refund", [p, 10_000_001n]))).toBe("RefundExceedsCaptured");
    await h.mined(
      await h.wallets.operator.writeContract({ address: p.token, abi: erc20Abi, functionName: "approve", args: [h.escrow, 10_000_000n] }),
    );
    await h.mined(await h.call("operator", "refund", [p, 7_000_000n]));
    expect(await revertName(h.call("operator", "refund", [p, 3_000_001n]))).toBe("RefundExceedsCaptured");
    await h.mined(await h.call("operator", "refund", [p, 3_000_000n]));
    expect(await h.state(p)).toEqual({ authorized: true, capturable: 0n, captured: 10_000_000n, refunded: 10_000_000n });
  });

  it("gasless refund: the payee's EIP-3009 signature, submitted by anyone, refunds this payment's payer once", async () => {
    const p = await h.info({ maxAmount: 8_000_000n });
    await h.mined(await h.call("stranger", "authorizeWithSignature", [p, await h.signAuthorization(p)]));
    await h.mined(await h.call("operator", "capture", [p, 5_000_000n, 0n]));
    const salt = toHex(crypto.getRandomValues(new Uint8Array(32)));
    const validBefore = BigInt((await chainTime(devnet.rpcUrl)) + 3_600);
    const sig = await h.signRefund(p, 2_000_000n, salt, validBefore);
    const other = await h.info({ maxAmount: 8_000_000n });
    // The nonce binds the payment and the amount: another payment or amount is another nonce.
    await expect(h.call("stranger", "refundWithSignature", [other, 0n + 2_000_000n, validBefore, salt, sig])).rejects.toThrow(
      /RefundExceedsCaptured|invalid signature/,
    );
    await expect(h.call("stranger", "refundWithSignature", [p, 1_000_000n, validBefore, salt, sig])).rejects.toThrow(/invalid signature/);
    const payerBefore = await h.balanceOf(p.payer);
    const payeeBefore = await h.balanceOf(p.receiver);
    gas.refundWithSignature = (
      await h.mined(await h.call("stranger", "refundWithSignature", [p, 2_000_000n, validBefore, salt, sig]))
    ).gasUsed;
    expect(await h.balanceOf(p.payer)).toBe(payerBefore + 2_000_000n);
    expect(await h.balanceOf(p.receiver)).toBe(payeeBefore - 2_000_000n);
    await expect(h.call("stranger", "refundWithSignature", [p, 2_000_000n, validBefore, salt, sig])).rejects.toThrow(
      /authorization is used/,
    );
    const big = await h.signRefund(p, 3_000_001n, salt, validBefore);
    expect(await revertName(h.call("stranger", "refundWithSignature", [p, 3_000_001n, validBefore, salt, big]))).toBe(
      "RefundExceedsCaptured",
    );
    expect(await revertName(h.call("stranger", "refundWithSignature", [p, 0n, validBefore, salt, big]))).toBe("ZeroAmount");
    expect(await h.state(p)).toMatchObject({ captured: 5_000_000n, refunded: 2_000_000n });
  });

  it("a void after the capture deadline still returns the rest to the payer (nothing is ever stuck)", async () => {
    const p = await h.info({ maxAmount: 3_000_000n });
    await h.mined(await h.call("stranger", "authorizeWithSignature", [p, await h.signAuthorization(p)]));
    await moveDevnetClock(devnet.rpcUrl, { kind: "at", timestamp: p.authorizationExpiry + 10 });
    expect(await revertName(h.call("operator", "capture", [p, 1n, 0n]))).toBe("AuthorizationExpired");
    const before = await h.balanceOf(p.payer);
    await h.mined(await h.call("operator", "void", [p]));
    expect(await h.balanceOf(p.payer)).toBe(before + 3_000_000n);
    expect(await revertName(h.call("payer", "reclaim", [p]))).toBe("NothingToReclaim");
  });
});
