import { type Address, type Hex, hashTypedData, keccak256, toHex } from "viem";

/**
 * The EIP-712 permit of Duebill's recurring contract (contracts/DuebillRecurringPayments.sol):
 * one signature authorises the whole schedule — subscriber, token, recipient, per-payment amount
 * and fee, the explicit due times and each payment's reference. Returned to integrators in the
 * reference envelope `recurringPaymentPermit {domain, types, values}`, so a client that signs
 * what it is given works unchanged.
 */
export const PERMIT_DOMAIN_NAME = "DuebillRecurringPayments";
export const PERMIT_DOMAIN_VERSION = "1";

export const SCHEDULE_PERMIT_TYPES = {
  SchedulePermit: [
    { name: "subscriber", type: "address" },
    { name: "token", type: "address" },
    { name: "recipient", type: "address" },
    { name: "feeAddress", type: "address" },
    { name: "amount", type: "uint128" },
    { name: "feeAmount", type: "uint128" },
    { name: "relayerFee", type: "uint128" },
    { name: "totalPayments", type: "uint8" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
    { name: "scheduleId", type: "bytes32" },
    { name: "dueTimes", type: "uint32[]" },
    { name: "paymentReferences", type: "bytes8[]" },
  ],
} as const;

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
  dueTimes: number[];
  paymentReferences: Hex[];
}

/** The contract's scheduleId for an API schedule: keccak256 of its ULID. */
export function scheduleIdOf(ulid: string): Hex {
  return keccak256(toHex(ulid));
}

export function permitDomain(chainId: number, verifyingContract: Address) {
  return { name: PERMIT_DOMAIN_NAME, version: PERMIT_DOMAIN_VERSION, chainId, verifyingContract } as const;
}

/** What a wallet signs (viem's signTypedData / eth_signTypedData_v4 input). */
export function permitTypedData(chainId: number, contract: Address, permit: SchedulePermit) {
  return { domain: permitDomain(chainId, contract), types: SCHEDULE_PERMIT_TYPES, primaryType: "SchedulePermit" as const, message: permit };
}

/** The EIP-712 digest the contract checks the signature against (its hashPermit). */
export function permitDigest(chainId: number, contract: Address, permit: SchedulePermit): Hex {
  return hashTypedData(permitTypedData(chainId, contract, permit));
}

/** The reference envelope, JSON-safe: integers as decimal strings. */
export function permitEnvelope(chainId: number, contract: Address, permit: SchedulePermit) {
  return {
    domain: permitDomain(chainId, contract),
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
