import { type Address, encodeAbiParameters, type Hex, hashTypedData, keccak256, stringToBytes } from "viem";

/**
 * The EIP-712 permit of Duebill's recurring contract (contracts/src/DuebillRecurringPayments.sol):
 * one signature authorises the whole schedule — subscriber, token, recipient, per-payment amount
 * and fee, the explicit due times and each payment's reference. Returned to integrators in the
 * reference envelope `recurringPaymentPermit {domain, types, values}`, so a client that signs
 * what it is given works unchanged. tests/recurring/recurring-contract.test.ts checks the type
 * string, domain, digest and key against the deployed contract. The one definition: the API, the
 * executor, the devnet scripts and the tests import it from here.
 */
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

/** The EIP-712 digest the contract checks the signature against (its hashPermit). */
export function permitDigest(chainId: number, contract: Address, permit: SchedulePermit): Hex {
  return hashTypedData(schedulePermitTypedData(chainId, contract, permit));
}

/** The reference envelope, JSON-safe: integers as decimal strings. */
export function permitEnvelope(chainId: number, contract: Address, permit: SchedulePermit) {
  return {
    domain: recurringPaymentsDomain(chainId, contract),
    types: SCHEDULE_PERMIT_TYPES,
    primaryType: "SchedulePermit",
    values: {
      ...permit,
      amount: permit.amount.toString(),
      feeAmount: permit.feeAmount.toString(),
      relayerFee: permit.relayerFee.toString(),
      nonce: permit.nonce.toString(),
      deadline: permit.deadline.toString(),
    },
  };
}
