/**
 * The EIP-712 permit of contracts/DuebillRecurringPayments.sol, as data for viem (signTypedData,
 * hashTypedData, verifyTypedData) and for the API's `recurringPaymentPermit {domain, types, values}`.
 * tests/chain/recurring-contract.test.ts checks these against the deployed contract (typehash,
 * hashPermit, scheduleKey).
 */
import { type Address, encodeAbiParameters, type Hex, keccak256, stringToBytes } from "viem";
import { compiledContracts } from "./compiled.generated";

export const recurringPaymentsAbi = compiledContracts.DuebillRecurringPayments.abi;

export const RECURRING_DOMAIN_NAME = "DuebillRecurringPayments";
export const RECURRING_DOMAIN_VERSION = "1";

/** Most payments per schedule (the contract's MAX_PAYMENTS; totalPayments and indexes are uint16). */
export const MAX_SCHEDULE_PAYMENTS = 256;

export const SCHEDULE_PERMIT_TYPE =
  "SchedulePermit(address subscriber,address token,address recipient,address feeAddress,uint128 amount,uint128 feeAmount," +
  "uint128 relayerFee,uint16 totalPayments,uint256 nonce,uint256 deadline,bytes32 scheduleId,uint32[] dueTimes,bytes8[] paymentReferences)";

/** `types` for viem's typed-data functions (EIP712Domain is implied by the domain). */
export const SCHEDULE_PERMIT_TYPES = {
  SchedulePermit: [
    { name: "subscriber", type: "address" },
    { name: "token", type: "address" },
    { name: "recipient", type: "address" },
    { name: "feeAddress", type: "address" },
    { name: "amount", type: "uint128" },
    { name: "feeAmount", type: "uint128" },
    { name: "relayerFee", type: "uint128" },
    { name: "totalPayments", type: "uint16" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
    { name: "scheduleId", type: "bytes32" },
    { name: "dueTimes", type: "uint32[]" },
    { name: "paymentReferences", type: "bytes8[]" },
  ],
} as const;

/** The permit's values, in the shape the contract's `SchedulePermit` tuple takes them. */
export interface SchedulePermit {
  subscriber: Address;
  token: Address;
  recipient: Address;
  feeAddress: Address;
  amount: bigint;
  feeAmount: bigint;
  relayerFee: bigint;
  totalPayments: number;
  nonce: bigint;
  deadline: bigint;
  scheduleId: Hex;
  /** Unix seconds, strictly increasing, one per payment. */
  dueTimes: readonly number[];
  /** 8-byte payment references (0x + 16 hex digits), one per payment. */
  paymentReferences: readonly Hex[];
}

export function recurringPaymentsDomain(chainId: number, verifyingContract: Address) {
  return { name: RECURRING_DOMAIN_NAME, version: RECURRING_DOMAIN_VERSION, chainId, verifyingContract } as const;
}

/** Everything viem's signTypedData/hashTypedData need for one permit. */
export function schedulePermitTypedData(chainId: number, verifyingContract: Address, permit: SchedulePermit) {
  return {
    domain: recurringPaymentsDomain(chainId, verifyingContract),
    types: SCHEDULE_PERMIT_TYPES,
    primaryType: "SchedulePermit" as const,
    message: permit,
  };
}

/** The on-chain schedule id: keccak256 of the schedule's ULID (its UTF-8 text). */
export function scheduleIdOf(ulid: string): Hex {
  return keccak256(stringToBytes(ulid));
}

/** The contract's scheduleKey(subscriber, scheduleId): the state key, independent of nonce and deadline. */
export function scheduleKey(subscriber: Address, scheduleId: Hex): Hex {
  return keccak256(encodeAbiParameters([{ type: "address" }, { type: "bytes32" }], [subscriber, scheduleId]));
}
