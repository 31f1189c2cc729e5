import { encodeAbiParameters, encodeFunctionData, type Hex, hexToSignature, keccak256, toFunctionSelector } from "viem";
import { gaslessPaymentsAbi } from "@/contracts/generated/abis.generated";
import { type AuthorizationDomain, EIP3009_TYPES } from "@/lib/relayer";

/**
 * The terms of one gasless payment (contracts/src/DuebillGaslessPayments.sol), pure: the nonce that binds
 * every detail into the payer's EIP-3009 signature, the typed data the payer signs and the calldata the
 * relayer sends. The contract recomputes the nonce (paymentNonce) and refuses any other: this file and the
 * contract must hash the same fields in the same order (tests/gasless/contract.test.ts compares them).
 */
export interface GaslessPayment {
  token: Hex;
  from: Hex;
  payee: Hex;
  amount: bigint;
  feeAddress: Hex;
  feeAmount: bigint;
  relayerFeeAddress: Hex;
  relayerFee: bigint;
  /** The request's 8-byte payment reference. */
  paymentReference: Hex;
  salt: Hex;
}

export interface GaslessAuthorization {
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

/** keccak256(abi.encode(chainid, contract, token, from, payee, amount, feeAddress, feeAmount, relayerFeeAddress, relayerFee, keccak256(reference), salt)). */
export function paymentNonce(chainId: number, contract: Hex, p: GaslessPayment): Hex {
  return keccak256(
    encodeAbiParameters(
      [
        { type: "uint256" },
        { type: "address" },
        { type: "address" },
        { type: "address" },
        { type: "address" },
        { type: "uint256" },
        { type: "address" },
        { type: "uint256" },
        { type: "address" },
        { type: "uint256" },
        { type: "bytes32" },
        { type: "bytes32" },
      ],
      [
        BigInt(chainId),
        contract,
        p.token,
        p.from,
        p.payee,
        p.amount,
        p.feeAddress,
        p.feeAmount,
        p.relayerFeeAddress,
        p.relayerFee,
        keccak256(p.paymentReference),
        p.salt,
      ],
    ),
  );
}

/** What the payer sends in all: the payment, the fee and the relayer's fee (the authorization's `value`). */
export const totalOf = (p: GaslessPayment) => p.amount + p.feeAmount + p.relayerFee;

/** The EIP-712 typed data the payer's wallet signs (eth_signTypedData_v4): a ReceiveWithAuthorization to the contract. */
export function receiveTypedData(domain: AuthorizationDomain, contract: Hex, p: GaslessPayment, a: GaslessAuthorization) {
  return {
    domain,
    types: { ReceiveWithAuthorization: EIP3009_TYPES.ReceiveWithAuthorization },
    primaryType: "ReceiveWithAuthorization" as const,
    message: { from: p.from, to: contract, value: totalOf(p), validAfter: a.validAfter, validBefore: a.validBefore, nonce: a.nonce },
  };
}

/** The relayer's call: DuebillGaslessPayments.pay(payment, authorization with v, r, s). */
export function payCalldata(p: GaslessPayment, a: GaslessAuthorization, signature: Hex): Hex {
  const { r, s, v, yParity } = hexToSignature(signature);
  return encodeFunctionData({
    abi: gaslessPaymentsAbi,
    functionName: "pay",
    args: [p, { ...a, v: Number(v ?? BigInt(yParity + 27)), r, s }],
  });
}

/** The contract's custom errors as a payer reads them (the relayer's simulation names the error). */
export const CONTRACT_RULES: Readonly<Record<string, string>> = {
  NonceMismatch: "the signed nonce does not commit to these payment details",
  AuthorizationUsed: "this authorization was already used or canceled: the payment was made once and is not made again",
  AuthorizationNotYetValid: "this authorization is not valid yet",
  AuthorizationExpired: "this authorization has expired: sign again",
  BadSignature: "the signature is not the payer's over these terms",
  BalanceMismatch: "the token delivered another amount than signed",
};

/** The payer's reading of a contract revert or relayer error: the custom error's name (or its selector) and what it means. */
export function ruleOf(error: string | null): { rule: string | null; message: string } {
  const rule = Object.keys(CONTRACT_RULES).find((k) => error?.includes(k) || error?.includes(toFunctionSelector(`${k}()`))) ?? null;
  return { rule, message: rule ? CONTRACT_RULES[rule]! : (error ?? "the relayed transaction failed") };
}
