import { createBase58check } from "@scure/base";
import { getAddress, isAddress, sha256 } from "viem";
import type { NetworkId } from "@/lib/chain/networks";
import { invalidField } from "@/lib/errors";

/** Tron's base58check: sha256d checksum over 0x41 ‖ 20-byte account. */
const base58check = createBase58check((data) => sha256(data, "bytes"));

/** True for a 0x-prefixed 20-byte hex address with a valid EIP-55 checksum when mixed-case. */
export function isEvmAddress(value: string): boolean {
  return isAddress(value, { strict: true });
}

export function toChecksumAddress(value: string): `0x${string}` {
  return getAddress(value);
}

/**
 * Validates an address given in `field` for a network and returns its canonical form (EIP-55 on
 * EVM, base58 as is on Tron); the 400 names the field and what is wrong with it.
 */
export function parseAddressFor(network: NetworkId, value: string, field: string): string {
  if (network === "tron") {
    if (!isTronAddress(value)) throw invalidField(field, `must be a Tron base58 address (T...) for network ${network}`);
    return value;
  }
  if (!isEvmAddress(value)) {
    const hint = isTronAddress(value)
      ? `a Tron address cannot receive on ${network}`
      : "must be a 0x-prefixed 20-byte address with a valid checksum";
    throw invalidField(field, hint);
  }
  return toChecksumAddress(value);
}

/** Decodes a Tron base58 address (`T...`) to its 21 bytes (0x41 ‖ 20 bytes), or null. */
export function decodeTronAddress(value: string): Uint8Array | null {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(value)) return null;
  try {
    const bytes = base58check.decode(value);
    return bytes.length === 21 && bytes[0] === 0x41 ? bytes : null;
  } catch {
    return null;
  }
}

export function isTronAddress(value: string): boolean {
  return decodeTronAddress(value) !== null;
}

/** Tron base58 → the 20-byte EVM-style hex used inside TRC-20 calldata. */
export function tronToHex(value: string): `0x${string}` {
  const bytes = decodeTronAddress(value);
  if (!bytes) throw new Error(`Invalid Tron address: ${value}`);
  return `0x${Buffer.from(bytes.subarray(1)).toString("hex")}`;
}

/** 20-byte hex → Tron base58 (`T...`). */
export function hexToTron(hex: string): string {
  const clean = hex.replace(/^0x/, "").replace(/^41(?=[0-9a-fA-F]{40}$)/, "");
  if (!/^[0-9a-fA-F]{40}$/.test(clean)) throw new Error(`Invalid hex address: ${hex}`);
  return base58check.encode(Uint8Array.from(Buffer.from(`41${clean}`, "hex")));
}

/**
 * The canonical form an address is compared and indexed by: EVM hex lowercased (checksums are
 * a display detail), Tron base58 as is (base58 is case-sensitive).
 */
export function addressKey(address: string): string {
  return address.startsWith("0x") || address.startsWith("0X") ? address.toLowerCase() : address;
}

/** One address comparison for the whole codebase: see addressKey. */
export function sameAddress(a: string, b: string): boolean {
  return addressKey(a) === addressKey(b);
}

/** A stored or validated 0x string as viem's `Hex`, checked rather than cast. */
export function asHex(value: string): `0x${string}` {
  if (!/^0x[0-9a-fA-F]*$/.test(value)) throw new Error(`Not a 0x hex string: ${value.slice(0, 20)}`);
  return value as `0x${string}`;
}

/** An EVM address as viem's `Address` (any case), checked rather than cast. */
export function asEvmAddress(value: string): `0x${string}` {
  if (!isAddress(value, { strict: false })) throw new Error(`Not an EVM address: ${value.slice(0, 44)}`);
  return value as `0x${string}`;
}
