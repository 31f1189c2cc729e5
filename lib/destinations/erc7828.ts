import { concat, hexToBytes, keccak256, numberToBytes } from "viem";
import { asHex, decodeTronAddress, isEvmAddress, toChecksumAddress } from "@/lib/chain/address";

/**
 * ERC-7828 interop names: `<address>@eip155:<chainId>#<checksum>`. The checksum is the first
 * 4 bytes (uppercase hex) of keccak256 of the ERC-7930 interoperable address without its
 * version field: ChainType (0x0000 = eip155) ‖ ChainReferenceLength ‖ ChainReference
 * (big-endian chain ID) ‖ AddressLength ‖ Address. The ERC's own example,
 * 0xFe89cc7aBB2C4183683ab71653C4cdc9B02D44b7@eip155:1#80B12379, is checked in the tests.
 * Tron addresses live under eip155:728126428 with their 20-byte account as the address.
 */
const EIP155_CHAIN_TYPE = Uint8Array.of(0x00, 0x00);

function addressBytes(address: string): Uint8Array {
  if (isEvmAddress(address)) return hexToBytes(asHex(address));
  const tron = decodeTronAddress(address);
  if (tron) return tron.subarray(1);
  throw new Error(`Not an EVM or Tron address: ${address}`);
}

export function interopChecksum(address: string, chainId: number): string {
  const ref = numberToBytes(chainId);
  const addr = addressBytes(address);
  const payload = concat([EIP155_CHAIN_TYPE, Uint8Array.of(ref.length), ref, Uint8Array.of(addr.length), addr]);
  return keccak256(payload).slice(2, 10).toUpperCase();
}

/** `0xAbC…@eip155:1#ABCD1234` (EVM addresses EIP-55 checksummed, Tron in base58). */
export function toInteropName(address: string, chainId: number): string {
  const shown = isEvmAddress(address) ? toChecksumAddress(address) : address;
  return `${shown}@eip155:${chainId}#${interopChecksum(address, chainId)}`;
}

/** Parses and verifies an interop name; null when malformed or the checksum is wrong. */
export function parseInteropName(name: string): { address: string; chainId: number } | null {
  const m = /^([0-9A-Za-z]+)@eip155:(\d{1,12})#([0-9A-Fa-f]{8})$/.exec(name);
  if (!m) return null;
  const [, address = "", chain = "", checksum = ""] = m;
  const chainId = Number(chain);
  try {
    if (interopChecksum(address, chainId) !== checksum.toUpperCase()) return null;
  } catch {
    return null;
  }
  return { address: isEvmAddress(address) ? toChecksumAddress(address) : address, chainId };
}

/** destinationId = interop name of the payee + ":" + token address. */
export function destinationIdOf(address: string, chainId: number, tokenAddress: string): string {
  return `${toInteropName(address, chainId)}:${tokenAddress}`;
}
