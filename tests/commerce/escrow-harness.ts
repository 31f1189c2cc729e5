/**
 * Shared by the escrow's anvil tests: wallets, PaymentInfo builders, the payer's EIP-3009 signature
 * (viem's signTypedData; the token checks it with ecrecover) and revert decoding.
 */
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  type PublicClient,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { commerceEscrowAbi as abi } from "@/contracts/generated/abis.generated";
import { type PaymentInfo, receiveAuthorizationMessage, refundNonceOf } from "@/lib/commerce/payment-info";
import { EIP3009_TYPES } from "@/lib/relayer/domain";
import type { Devnet } from "@/scripts/devnet/index";
import { chainTime } from "@/scripts/devnet/time";

export const escrowAbi = abi;

export function harness(devnet: Devnet) {
  const pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl), pollingInterval: 20 }) as PublicClient;
  const escrow = devnet.contracts.commerceEscrow;
  const walletOf = (key: Hex) =>
    createWalletClient({ chain: devnet.chain, transport: http(devnet.rpcUrl), account: privateKeyToAccount(key), pollingInterval: 20 });
  const k = devnet.accounts;
  const wallets = {
    payer: walletOf(k.payer.privateKey),
    payee: walletOf(k.payee.privateKey),
    operator: walletOf(k.relayer.privateKey),
    stranger: walletOf(k.depositRelayer.privateKey),
  };

  async function mined(hash: Hex) {
    const receipt = await pub.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`reverted: ${hash}`);
    return receipt;
  }

  const balanceOf = (owner: Address, token: Address = devnet.tokens.USDC) =>
    pub.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] });

  let n = 0;
  async function info(overrides: Partial<PaymentInfo> = {}): Promise<PaymentInfo> {
    const now = await chainTime(devnet.rpcUrl);
    n += 1;
    return {
      operator: k.relayer.address,
      payer: k.payer.address,
      receiver: k.payee.address,
      token: devnet.tokens.USDC,
      maxAmount: 100_000_000n,
      preApprovalExpiry: now + 3_600,
      authorizationExpiry: now + 7 * 86_400,
      maxFeeBps: 100,
      feeReceiver: k.feeRecipient.address,
      paymentReference: toHex(crypto.getRandomValues(new Uint8Array(8))),
      salt: BigInt(Date.now()) * 1000n + BigInt(n),
      ...overrides,
    };
  }

  const signAuthorization = (p: PaymentInfo, key: Hex = k.payer.privateKey) =>
    privateKeyToAccount(key).signTypedData({
      domain: { name: "Test USD Coin", version: "2", chainId: devnet.chainId, verifyingContract: p.token },
      types: EIP3009_TYPES,
      primaryType: "ReceiveWithAuthorization",
      message: receiveAuthorizationMessage(devnet.chainId, escrow, p),
    });

  /** The receiver's EIP-3009 authorization of a gasless refund (nonce = refundNonce(paymentId, amount, salt), computed here). */
  const signRefund = (p: PaymentInfo, amount: bigint, refundSalt: Hex, validBefore: bigint, key: Hex = k.payee.privateKey) =>
    privateKeyToAccount(key).signTypedData({
      domain: { name: "Test USD Coin", version: "2", chainId: devnet.chainId, verifyingContract: p.token },
      types: EIP3009_TYPES,
      primaryType: "ReceiveWithAuthorization",
      message: {
        from: p.receiver,
        to: escrow,
        value: amount,
        validAfter: 0n,
        validBefore,
        nonce: refundNonceOf(devnet.chainId, escrow, p, amount, refundSalt),
      },
    });

  type W = keyof typeof wallets;
  const call = (who: W, functionName: string, args: readonly unknown[]) =>
    wallets[who].writeContract({ address: escrow, abi, functionName: functionName as never, args: args as never });

  const state = async (p: PaymentInfo) => {
    const id = await pub.readContract({ address: escrow, abi, functionName: "getPaymentId", args: [p as never] });
    return pub.readContract({ address: escrow, abi, functionName: "paymentState", args: [id] });
  };

  return { pub, escrow, wallets, walletOf, mined, balanceOf, info, signAuthorization, signRefund, call, state };
}

export async function revertName(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (err) {
    const reverted = err instanceof BaseError ? err.walk((e) => e instanceof ContractFunctionRevertedError) : null;
    if (reverted instanceof ContractFunctionRevertedError) return reverted.data?.errorName ?? reverted.reason ?? "?";
    throw err;
  }
  throw new Error("expected a revert, the call succeeded");
}
