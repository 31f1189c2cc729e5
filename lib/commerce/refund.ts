import { encodeFunctionData, erc20Abi, getAddress, type Hex, isAddress, keccak256, toHex } from "viem";
import { commerceEscrowAbi } from "@/contracts/generated/abis.generated";
import { networkOf, tokenOf } from "@/lib/chain/stored";
import { invalidField } from "@/lib/errors";
import type { CommercePayment, PaymentRequest } from "@/lib/generated/prisma/client";
import { parseAmount } from "@/lib/money";
import { authorizationDomain, EIP3009_TYPES } from "@/lib/relayer";
import { chainClient, chainHead } from "./chain";
import { calldata, load, send } from "./operate";
import { refundNonceOf } from "./payment-info";
import { amountsOf } from "./state";
import { infoOf } from "./store";

const HOUR = 3_600;

function refundAmount(request: PaymentRequest, cp: CommercePayment, value: string): bigint {
  const a = amountsOf(cp);
  const amount = parseAmount(value, tokenOf(request).decimals, "amount");
  if (amount > a.captured - a.refunded)
    throw invalidField("amount", `exceeds what was captured and not yet refunded (${a.captured - a.refunded} base units)`);
  return amount;
}

/**
 * Refund calldata: `amount` (≤ captured − refunded) from the payee's (or the operator's) wallet back to the
 * payer, through the escrow so it counts against what was captured: an approval first when the allowance is
 * short, then refund. For the payee of an EIP-3009 token, also the typed data of the gasless variant (the
 * payee signs, POST …/refund has Duebill's relayer submit it).
 */
export async function refundCalldata(accountId: string, requestId: string, body: { amount: string; wallet?: string }) {
  const { request, cp } = await load(accountId, requestId);
  const token = tokenOf(request);
  const amount = refundAmount(request, cp, body.amount);
  const info = infoOf(cp);
  if (body.wallet !== undefined && !isAddress(body.wallet)) throw invalidField("wallet", "must be a 0x address");
  const wallet = getAddress(body.wallet ?? info.receiver);
  if (wallet !== getAddress(info.receiver) && wallet !== getAddress(info.operator))
    throw invalidField("wallet", "must be the payee or the payment's operator (the contract accepts no one else)");
  const network = networkOf(cp);
  const escrow = cp.escrowAddress as Hex;
  const allowance = await chainClient(network).readContract({
    address: info.token,
    abi: erc20Abi,
    functionName: "allowance",
    args: [wallet, escrow],
  });
  const txs: { to: string; data: Hex }[] = [];
  if (allowance < amount) {
    // USDT-style tokens refuse approve(x) over a non-zero allowance: reset first.
    if (allowance > 0n && token.approveResetRequired)
      txs.push({ to: info.token, data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [escrow, 0n] }) });
    txs.push({ to: info.token, data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [escrow, amount] }) });
  }
  txs.push({ to: escrow, data: encodeFunctionData({ abi: commerceEscrowAbi, functionName: "refund", args: [info, amount] }) });
  const out = calldata(request, cp, wallet, txs);
  const domain = wallet === getAddress(info.receiver) ? await authorizationDomain(network, info.token) : null;
  if (!domain) return out;
  const refundSalt = keccak256(toHex(crypto.getRandomValues(new Uint8Array(32))));
  const validBefore = BigInt((await chainHead(network)).time + HOUR);
  const nonce = refundNonceOf(domain.chainId, escrow, info, amount, refundSalt);
  return {
    ...out,
    refundSalt,
    typedData: {
      domain,
      types: { ReceiveWithAuthorization: EIP3009_TYPES.ReceiveWithAuthorization },
      primaryType: "ReceiveWithAuthorization" as const,
      message: { from: info.receiver, to: escrow, value: amount.toString(), validAfter: "0", validBefore: validBefore.toString(), nonce },
    },
  };
}

/** POST …/refund: Duebill's relayer submits the payee's signed refund (refundWithSignature); the receipt drives the state. */
export async function refundWithSignature(
  accountId: string,
  requestId: string,
  body: { amount: string; validBefore: string; refundSalt: string; signature: string },
) {
  const { request, cp } = await load(accountId, requestId);
  const amount = refundAmount(request, cp, body.amount);
  if (!/^\d{1,20}$/.test(body.validBefore)) throw invalidField("validBefore", "must be the typed data's validBefore (unix seconds)");
  if (!/^0x[0-9a-fA-F]{64}$/.test(body.refundSalt)) throw invalidField("refundSalt", "must be the refundSalt of POST …/refund/calldata");
  if (!/^0x[0-9a-fA-F]{130}$/.test(body.signature)) throw invalidField("signature", "must be a 65-byte 0x hex signature");
  const data = encodeFunctionData({
    abi: commerceEscrowAbi,
    functionName: "refundWithSignature",
    args: [infoOf(cp), amount, BigInt(body.validBefore), body.refundSalt as Hex, body.signature as Hex],
  });
  return send(cp, request, data, `escrow:refund:${cp.paymentId}:${keccak256(body.signature as Hex)}`, "escrow_refund", "signature");
}
