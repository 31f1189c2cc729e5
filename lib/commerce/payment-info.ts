import { type Address, encodeAbiParameters, type Hex, keccak256 } from "viem";
import { commerceEscrowAbi } from "@/contracts/generated/abis.generated";

/**
 * DuebillCommerceEscrow's PaymentInfo (contracts/src/DuebillCommerceEscrow.sol): everything one escrowed
 * payment binds. Its hash (paymentId) is the EIP-3009 nonce the payer signs, so the signature cannot be
 * redirected to another receiver, operator, amount, deadline, fee or reference.
 */
export interface PaymentInfo {
  operator: Address;
  payer: Address;
  receiver: Address;
  token: Address;
  maxAmount: bigint;
  preApprovalExpiry: number;
  authorizationExpiry: number;
  maxFeeBps: number;
  feeReceiver: Address;
  paymentReference: Hex;
  salt: bigint;
}

const getPaymentIdAbi = commerceEscrowAbi.find((f) => f.type === "function" && f.name === "getPaymentId");
if (getPaymentIdAbi?.type !== "function") throw new Error("DuebillCommerceEscrow ABI: no getPaymentId");
/** The PaymentInfo tuple as the contract's ABI declares it. */
export const PAYMENT_INFO_TUPLE = getPaymentIdAbi.inputs[0];

/** keccak256(abi.encode(chainId, escrow, info)): what getPaymentId returns on chain. */
export function paymentIdOf(chainId: number, escrow: Address, info: PaymentInfo): Hex {
  return keccak256(
    encodeAbiParameters([{ type: "uint256" }, { type: "address" }, PAYMENT_INFO_TUPLE], [BigInt(chainId), escrow, info as never]),
  );
}

/** The nonce the receiver signs for refundWithSignature: keccak256(abi.encode(paymentId, amount, refundSalt)). */
export function refundNonceOf(chainId: number, escrow: Address, info: PaymentInfo, amount: bigint, refundSalt: Hex): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: "bytes32" }, { type: "uint256" }, { type: "bytes32" }],
      [paymentIdOf(chainId, escrow, info), amount, refundSalt],
    ),
  );
}

/** The EIP-3009 ReceiveWithAuthorization message the payer signs for authorizeWithSignature. */
export function receiveAuthorizationMessage(chainId: number, escrow: Address, info: PaymentInfo) {
  return {
    from: info.payer,
    to: escrow,
    value: info.maxAmount,
    validAfter: 0n,
    validBefore: BigInt(info.preApprovalExpiry),
    nonce: paymentIdOf(chainId, escrow, info),
  };
}

/** PaymentInfo as JSON (amounts and salt as decimal strings): what the API returns and the DB keeps. */
export function paymentInfoToJson(info: PaymentInfo) {
  return { ...info, maxAmount: info.maxAmount.toString(), salt: info.salt.toString() };
}

export function paymentInfoFromJson(j: ReturnType<typeof paymentInfoToJson>): PaymentInfo {
  return { ...j, maxAmount: BigInt(j.maxAmount), salt: BigInt(j.salt) };
}
