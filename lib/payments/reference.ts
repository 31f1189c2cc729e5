import { randomBytes } from "node:crypto";
import { keccak256, toBytes, toHex } from "viem";
import { asHex } from "@/lib/chain/address";

/** 8 random bytes as 16 hex chars, as Request Network salts are. */
export function randomSalt(): string {
  return randomBytes(8).toString("hex");
}

/** "01" + 32-byte hash of the request's creation data (docs/spec/DECISIONS.md: 66 hex chars). */
export function computeRequestId(data: Record<string, string>): string {
  const canonical = JSON.stringify(Object.fromEntries(Object.entries(data).sort(([a], [b]) => a.localeCompare(b))));
  return `01${keccak256(toHex(canonical)).slice(2)}`;
}

/**
 * Request Network payment reference: the last 8 bytes of keccak256 of the lowercased UTF-8
 * string requestId + salt + paymentAddress, sent on chain as 0x + 16 hex.
 */
export function computePaymentReference(requestId: string, salt: string, paymentAddress: string): `0x${string}` {
  const hash = keccak256(toHex(`${requestId}${salt}${paymentAddress}`.toLowerCase()));
  return `0x${hash.slice(-16)}`;
}

/** The proxies index `bytes paymentReference`: logs carry keccak256 of the 8 bytes. */
export function referenceTopic(paymentReference: string): `0x${string}` {
  return keccak256(toBytes(asHex(paymentReference)));
}

export const REQUEST_ID_PATTERN = /^01[0-9a-f]{64}$/;
